// Text helpers: HTML escaping, bidi controls, key patterns.

export { BIDI_CONTROLS, hasBidiControls, showBidiControls, splitBidiControls } from "./bidi-controls.js";
export { escapeHtml } from "./escape-html.js";
export { findKeyPatterns, redactKeyPatterns } from "./key-patterns.js";
