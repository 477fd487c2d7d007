// The session reader's core: entries as blocks, pages of a branch, filters.
export * from "./reader-block";
export { contentText, entryBlock, MAX_BLOCK_CHARS, replacementText, toolCallView } from "./entry-block";
export * from "./reader-filter";
export * from "./reader-pager";
export * from "./tail-blocks";
