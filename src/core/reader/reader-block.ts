// What the session reader shows for one entry: a plain, serialisable block
// (the host sends these to the webview; exports render them too). Text is
// kept as written: the renderers escape or sanitise it and make bidi
// controls visible.
import type { ReaderImage } from "./reader-image";

export type ReaderBlockKind =
  | "user"
  | "assistant"
  | "toolResult"
  | "bash"
  | "system"
  | "compaction"
  | "branchSummary"
  | "custom"
  | "mark"
  | "unknown";

export const READER_BLOCK_KINDS: readonly ReaderBlockKind[] = [
  "user", "assistant", "toolResult", "bash", "system", "compaction", "branchSummary", "custom", "mark", "unknown",
];

/** What a block is called in the reader and in exports. */
export const READER_BLOCK_TITLES: Readonly<Record<ReaderBlockKind, string>> = {
  user: "User",
  assistant: "Assistant",
  toolResult: "Tool result",
  bash: "Shell",
  system: "System prompt",
  compaction: "Compaction",
  branchSummary: "Branch summary",
  custom: "Extension message",
  mark: "",
  unknown: "Unknown entry",
};

export interface ToolCallView {
  id: string;
  name: string;
  /** The arguments as pretty JSON. */
  args: string;
  /** bash-like tools: the command line (highlighted). */
  command?: string;
  /** read/edit/write-like tools: the file path as given (clickable). */
  path?: string;
}

export type AssistantPart =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string }
  | { type: "toolCall"; call: ToolCallView };

/** A pi 1.5 `context_edit` on this entry: omitted from later contexts, or replaced. */
export interface ContextEditMark {
  editId: string;
  /** Absent: the entry is omitted. */
  replacement?: string;
}

export interface ReaderBlock {
  id: string;
  kind: ReaderBlockKind;
  /** ISO 8601 as in the file ("" when it has none). */
  timestamp: string;
  /** Markdown for user / assistant / summaries / custom messages; plain text for the rest. */
  text: string;
  /** Assistant: text, thinking and tool calls in order. */
  parts?: AssistantPart[];
  /** Tool name, model, custom type, the mark's kind, the unknown entry's type. */
  title?: string;
  /** Compaction / branch summary: tokens before; assistant: total tokens of the answer. */
  tokens?: number;
  isError?: boolean;
  label?: string;
  edit?: ContextEditMark;
  /** A short extra fact: "keeps from 1a2b3c4d", "exit 1", "2 images". */
  detail?: string;
  /** User / tool result / custom: the images shown (checked raster types, data: URIs only). */
  images?: ReaderImage[];
  /** The text was cut to this many characters (it had more). */
  truncatedFrom?: number;
}
