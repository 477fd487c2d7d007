// Messages between the extension host and the summary webview. Both sides
// import this module; both validate every message on arrival (a webview can be
// fed content from a session file, a host can receive anything the webview's
// page posts) and drop what does not match. Unknown extra fields are ignored.

import { isOptionalCount, isOptionalString, isRecord, isString } from "./protocol-checks";

export const PANEL_STATE_VERSION = 1;

export const LIMITS = {
  /** A summary or an edited draft (pi's summaries are a few KB; users paste more). */
  summaryChars: 4_000_000,
  pathChars: 4096,
  idChars: 256,
  nameChars: 1024,
  modelChars: 512,
  timestampChars: 64,
  errorChars: 10_000,
  files: 20_000,
  openPaths: 20_000,
} as const;

/** Operation letters in manifest order: read, written, edited, moved, deleted. */
export const FILE_OPS = ["R", "W", "E", "M", "D"] as const;
export type FileOp = (typeof FILE_OPS)[number];

export interface SummaryFile {
  /** Absolute path: what `openFile` sends back. */
  path: string;
  /** What the manifest shows (relative to the workspace or session cwd when inside). */
  displayPath: string;
  /** Letters from RWEMD, each at most once. */
  ops: string;
  deleted: boolean;
  /** Outside the workspace and the session cwd: the host asks before opening. */
  outside: boolean;
  /** Open in an editor tab right now. */
  open: boolean;
}

export type SummaryKind = "compaction" | "branch_summary";
export type PanelMode = "view" | "preview";

export interface SummaryPanelState {
  version: 1;
  kind: SummaryKind;
  sessionPath: string;
  sessionName?: string;
  /** Absent while previewing a summary that is not in the file yet. */
  entryId?: string;
  /** Markdown text. */
  summary: string;
  tokensBefore?: number;
  tokensAfter?: number;
  /** "provider/id", or "digest" for a summary built without a model. */
  model: string;
  /** ISO 8601. */
  timestamp: string;
  /** Compaction: the first entry kept in context. */
  firstKeptEntryId?: string;
  /** Branch summary: pi's fromId (the entry it hangs under, or "root"). */
  fromId?: string;
  files: SummaryFile[];
  mode: PanelMode;
  /** Untrusted workspace: nothing may be written. */
  readOnly: boolean;
  /**
   * Why the panel is not what it was (a preview restored after a reload, whose
   * proposal is gone; an entry no longer in the session file). Shown above the summary.
   */
  notice?: string;
  /** Which pi's session semantics the panel's session is read with. */
  piVersion?: "0.73" | "1.5";
  /** Who wrote it when not this editor or the CLI, e.g. "in pi, by the pi-sessions extension (/compact)". */
  origin?: string;
  /** "omp": an oh-my-pi session (read with omp 18.3.4's semantics; piVersion then absent). */
  agent?: "omp";
}

export type HostMessage =
  | { type: "init"; state: SummaryPanelState }
  | { type: "update"; state: SummaryPanelState }
  | { type: "tabsChanged"; openPaths: string[] }
  | { type: "applied"; entryId: string }
  | { type: "applyFailed"; error: string };

export type WebviewMessage =
  | { type: "ready" }
  | { type: "openFile"; path: string; preview: boolean }
  | { type: "openAllModified" }
  | { type: "apply"; text: string }
  | { type: "discard" }
  | { type: "copyMarkdown"; text: string }
  | { type: "revealEntry"; entryId: string }
  | { type: "showChanges"; path: string };

/** What the webview passes to `vscode.setState` (and a WebviewPanelSerializer receives). */
export interface PersistedWebviewState {
  panel: SummaryPanelState;
  /** The edited text in preview mode, when it differs from `panel.summary`. */
  draft?: string;
  /** Preview mode: showing the rendered draft instead of the editor. */
  showRendered: boolean;
}

/** A file whose content the session changed (written, edited, moved or deleted): "Show changes" applies. */
export function isChangedFile(file: SummaryFile): boolean {
  return /[WEMD]/.test(file.ops);
}

/** A file "Open all modified" opens: written, edited or moved, and still there. */
export function isModifiedFile(file: SummaryFile): boolean {
  return !file.deleted && /[WEM]/.test(file.ops);
}

function isOps(x: unknown): x is string {
  if (typeof x !== "string" || x.length > FILE_OPS.length) return false;
  const seen = new Set<string>();
  for (const letter of x) {
    if (!(FILE_OPS as readonly string[]).includes(letter) || seen.has(letter)) return false;
    seen.add(letter);
  }
  return true;
}

function isIsoTimestamp(x: unknown): x is string {
  return isString(x, LIMITS.timestampChars, false) && /^\d{4}-\d{2}-\d{2}T/.test(x) && !Number.isNaN(Date.parse(x));
}

export function isSummaryFile(x: unknown): x is SummaryFile {
  return (
    isRecord(x) &&
    isString(x.path, LIMITS.pathChars, false) &&
    isString(x.displayPath, LIMITS.pathChars, false) &&
    isOps(x.ops) &&
    typeof x.deleted === "boolean" &&
    typeof x.outside === "boolean" &&
    typeof x.open === "boolean"
  );
}

export function isSummaryPanelState(x: unknown): x is SummaryPanelState {
  return (
    isRecord(x) &&
    x.version === PANEL_STATE_VERSION &&
    (x.kind === "compaction" || x.kind === "branch_summary") &&
    isString(x.sessionPath, LIMITS.pathChars, false) &&
    isOptionalString(x.sessionName, LIMITS.nameChars) &&
    isOptionalString(x.entryId, LIMITS.idChars) &&
    isString(x.summary, LIMITS.summaryChars) &&
    isOptionalCount(x.tokensBefore) &&
    isOptionalCount(x.tokensAfter) &&
    isString(x.model, LIMITS.modelChars, false) &&
    isIsoTimestamp(x.timestamp) &&
    isOptionalString(x.firstKeptEntryId, LIMITS.idChars) &&
    isOptionalString(x.fromId, LIMITS.idChars) &&
    Array.isArray(x.files) &&
    x.files.length <= LIMITS.files &&
    x.files.every(isSummaryFile) &&
    (x.mode === "view" || x.mode === "preview") &&
    typeof x.readOnly === "boolean" &&
    isOptionalString(x.notice, LIMITS.errorChars) &&
    (x.piVersion === undefined || x.piVersion === "0.73" || x.piVersion === "1.5") &&
    isOptionalString(x.origin, LIMITS.nameChars) &&
    (x.agent === undefined || x.agent === "omp")
  );
}

function isPathList(x: unknown): x is string[] {
  return (
    Array.isArray(x) && x.length <= LIMITS.openPaths && x.every((p) => isString(p, LIMITS.pathChars, false))
  );
}

export function isHostMessage(x: unknown): x is HostMessage {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "init":
    case "update":
      return isSummaryPanelState(x.state);
    case "tabsChanged":
      return isPathList(x.openPaths);
    case "applied":
      return isString(x.entryId, LIMITS.idChars, false);
    case "applyFailed":
      return isString(x.error, LIMITS.errorChars);
    default:
      return false;
  }
}

export function isWebviewMessage(x: unknown): x is WebviewMessage {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "ready":
    case "openAllModified":
    case "discard":
      return true;
    case "openFile":
      return isString(x.path, LIMITS.pathChars, false) && typeof x.preview === "boolean";
    case "showChanges":
      return isString(x.path, LIMITS.pathChars, false);
    case "apply":
      return isString(x.text, LIMITS.summaryChars) && x.text.trim().length > 0;
    case "copyMarkdown":
      return isString(x.text, LIMITS.summaryChars);
    case "revealEntry":
      return isString(x.entryId, LIMITS.idChars, false);
    default:
      return false;
  }
}

export function isPersistedWebviewState(x: unknown): x is PersistedWebviewState {
  return (
    isRecord(x) &&
    isSummaryPanelState(x.panel) &&
    (x.draft === undefined || isString(x.draft, LIMITS.summaryChars)) &&
    typeof x.showRendered === "boolean"
  );
}
