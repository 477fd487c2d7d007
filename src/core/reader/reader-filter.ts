// The Entries view's filters, applied to the reader's entries by their meta
// (no body is parsed to decide).
import type { EntryMeta } from "../session/format/entry-meta";

export type ReaderFilter = "all" | "user" | "no-tool-results" | "labelled";

export const READER_FILTERS: readonly ReaderFilter[] = ["all", "user", "no-tool-results", "labelled"];

export function isReaderFilter(x: unknown): x is ReaderFilter {
  return typeof x === "string" && (READER_FILTERS as readonly string[]).includes(x);
}

export function shownUnderFilter(meta: EntryMeta, filter: ReaderFilter, labelOf: (id: string) => string | undefined): boolean {
  switch (filter) {
    case "all":
      return true;
    case "user":
      return (meta.type === "message" && meta.role === "user") || meta.type === "compaction" || meta.type === "branch_summary";
    case "no-tool-results":
      return !(meta.type === "message" && meta.role === "toolResult");
    case "labelled":
      return labelOf(meta.id) !== undefined;
  }
}
