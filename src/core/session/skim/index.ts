// Lines in pi's byte layout skimmed for the index, in JavaScript and in WebAssembly.

export { isoMillis, isoMillisAt } from "./iso-millis.js";
export { recordOfSkimmed, skimPiLayout } from "./pi-layout-skimmer.js";
export { SEARCH_MEMORY_WASM } from "./search-memory-module.js";
export { borrowSearchChunk, lastIndexInMemory, returnSearchChunk, SEARCH_CHUNK_BYTES, searchBuffer, searchChunksFree, searchModuleStats, skimInMemory, warnOnSearchModuleFailure } from "./search-memory.js";
export { asciiText, cursor, forgetLineBuffer, keyAt, lastIndexIn, literal, matches, pairStarts, tailKeyAt, viewOver } from "./skim-bytes.js";
export { SkimmedEntry } from "./skimmed-entry.js";
