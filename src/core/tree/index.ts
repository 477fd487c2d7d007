// One-line previews of entries for tree rows and CLI lines.

export { entryKind, entryPreview, oneLine, systemPreview, toolCallPreview } from "./preview.js";
export { displayRows, linearRun, type TreeShape } from "./segments.js";
