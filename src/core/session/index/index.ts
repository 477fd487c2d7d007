// The tree index: per-entry columns, the id table, roots and branches, the builder that fills it.

export { BranchPath } from "./branch-path.js";
export { type ContextEditOfTarget, contextEditsByTarget } from "./context-edit-targets.js";
export { type ColumnsState, EntryColumns, type EntryRecord, isoMillis, metaOfRecord, type RareFields } from "./entry-columns.js";
export { IdTable } from "./id-table.js";
export { type BuilderSnapshot, type BuiltSession, type ResumePoint, SessionBuilder } from "./session-builder.js";
export { type IndexState, SessionIndex } from "./session-index.js";
export { analyseTreeGeneral, analyseTreeUnique, type IndexedTree, type TreeStructure } from "./tree-structure.js";
