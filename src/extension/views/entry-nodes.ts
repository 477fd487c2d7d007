// The Entries view's nodes and filters (the model that makes them: entries-model.ts).

export type EntryFilter = "all" | "user" | "no-tool-results" | "labelled";

export const ENTRY_FILTERS: readonly { id: EntryFilter; label: string; detail: string }[] = [
  { id: "all", label: "All entries", detail: "Every entry of the session" },
  { id: "user", label: "User messages only", detail: "User messages, compactions and branch summaries" },
  { id: "no-tool-results", label: "No tool results", detail: "Hide tool results" },
  { id: "labelled", label: "Labelled entries", detail: "Entries with a label" },
];

export type EntryNode =
  | { kind: "entry"; key: string; sessionPath: string; entryId: string }
  | { kind: "branch"; key: string; sessionPath: string; headId: string; branchPointId: string | null; position: number; count: number }
  | { kind: "cycle"; key: string; sessionPath: string }
  /** "Load earlier…": `hidden` older items of the container (the top level, a branch or a turn). */
  | { kind: "more"; key: string; sessionPath: string; containerKey: string; hidden: number; unit: "turn" | "entry" };

export function entryKey(sessionPath: string, entryId: string): string {
  return `${sessionPath}#${entryId}`;
}

/** Nodes by key, kept across models of one session so VS Code sees the same objects. */
export type NodeCache = Map<string, EntryNode>;
/** How many newest items each paged container shows, by container key. */
export type Paging = Map<string, number>;

/** What changed after an append: nodes to refresh, `undefined` for the top level. */
export type ChangedNodes = (EntryNode | undefined)[];
