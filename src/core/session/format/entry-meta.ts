// What the index keeps per entry: enough to build the tree, show previews and
// find a line again, without holding the entry's body in memory.

export interface LineLocation {
  /** 1-based line number in the file. */
  line: number;
  /** Byte offset of the line's first byte (after a BOM on line 1). */
  offset: number;
  /** Byte length of the line, without its `\n` or `\r\n`. */
  length: number;
}

/** Where an entry's line is and whose it is: what reading its body takes (an EntryMeta is one). */
export interface EntryLocation extends LineLocation {
  id: string;
}

export interface EntryMeta extends LineLocation {
  /** Position among entries in file order (the header is not an entry). */
  index: number;
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  /** The raw `timestamp` value when it is present but not a string (`timestamp` is then ""). */
  timestampValue?: unknown;
  /** `message.role` for message entries. */
  role?: string;
  /** label entries: the labelled entry and the label (undefined clears). */
  targetId?: string;
  label?: string;
  /** session_info entries. */
  name?: string;
  /**
   * For user/assistant messages with content: the time pi's session list counts
   * as activity (`message.timestamp` when a number, else the entry timestamp).
   */
  activityTime?: number;
  /**
   * Tokens and cost this entry spent, when it records a usage pi 1.5 counts in
   * session totals: assistant and tool-result messages' `message.usage`, and
   * the `usage` of usage, compaction and branch_summary entries.
   */
  spend?: Spend;
}

/** What an entry is, from its meta alone (the rules that classify entries read only these). */
export type EntryKind = Pick<EntryMeta, "type" | "role">;

/** Token counts and cost (`usage.cost.total`), non-numbers counted as 0. */
export interface Spend {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
}
