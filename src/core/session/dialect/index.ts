// Which agent's dialect a session holds: the entries that mark pi 1.x, the marks of omp.

export { findPi1xMarker, type Pi1xMarker, sessionPi1xMarker } from "./pi1x-markers.js";
export { type OmpMarker, type OmpMarkerSource, ompMarkOfEntry, sessionOmpMarker } from "./omp-markers.js";
