// Messages between the extension host and the session reader webview. Both
// sides import this module and validate every message on arrival: blocks
// carry text from session files, and a page can post anything. The host
// sends pages of blocks (never the whole session); the webview asks for
// earlier pages, reveals entries and opens a tool call's file by naming the
// entry and the call (never a path: the host reads the path from the session).
import { READER_BLOCK_KINDS, type AssistantPart, type ReaderBlock, type ToolCallView } from "../core/reader/reader-block";
import { isReaderFilter, type ReaderFilter } from "../core/reader/reader-filter";
import { isReaderImage, MAX_IMAGES_PER_BLOCK } from "../core/reader/reader-image";
import { isCount, isOptionalCount, isOptionalString, isRecord, isString } from "./protocol-checks";

export type { AssistantPart, ReaderBlock, ReaderFilter, ToolCallView };

export const READER_STATE_VERSION = 1;

export const READER_LIMITS = {
  /** One block's text (the core cuts at 100k; a replacement or arguments may add some). */
  textChars: 400_000,
  pathChars: 4096,
  idChars: 256,
  titleChars: 4096,
  detailChars: 4096,
  labelChars: 1024,
  timestampChars: 64,
  parts: 2000,
  blocksPerMessage: 2000,
  noticeChars: 10_000,
} as const;

export interface ReaderState {
  version: 1;
  sessionPath: string;
  /** Session name or first request (shown in the header). */
  title: string;
  /** The branch shown ends here (null: an empty session). */
  leafId: string | null;
  /** Follows the session's current leaf as pi writes (false: a fixed branch). */
  follow: boolean;
  filter: ReaderFilter;
}

export type ReaderHostMessage =
  /** The newest page (after ready, a filter change, or a branch switch). */
  /** total: entries of the shown branch (after the filter); inFile: entries of the whole file (every branch). */
  | { type: "init"; state: ReaderState; blocks: ReaderBlock[]; start: number; total: number; inFile?: number; focusId?: string }
  /** An earlier page: these blocks go before the first shown one. */
  | { type: "earlier"; blocks: ReaderBlock[]; start: number }
  /** pi wrote new entries on the shown branch. */
  | { type: "append"; blocks: ReaderBlock[]; total: number; inFile?: number }
  /** Earlier blocks whose label or context edit changed (replaced in place, nothing else re-rendered). */
  | { type: "changed"; blocks: ReaderBlock[] }
  /** Scroll to an entry (already loaded) and mark it. */
  | { type: "reveal"; entryId: string }
  | { type: "notice"; text: string };

export type ReaderWebviewMessage =
  /** The page loaded; `anchorId`: the entry it was scrolled to before a reload (the page should hold it). */
  | { type: "ready"; anchorId?: string }
  /** The page of an init is rendered (the host logs the time to first render). */
  | { type: "shown"; blocks: number }
  | { type: "loadEarlier"; before: number }
  | { type: "revealEntry"; entryId: string }
  | { type: "openFile"; entryId: string; toolCallId: string; preview: boolean };

/** Where the page was scrolled: the first entry in view and its top's offset from the viewport's top, or the end (following pi's writes). */
export type ReaderScroll = { entryId: string; offset: number } | { atEnd: true };

/** What the webview saves with setState (a WebviewPanelSerializer receives it after a reload). */
export interface PersistedReaderState {
  reader: ReaderState;
  scroll?: ReaderScroll;
}

export function isReaderScroll(x: unknown): x is ReaderScroll {
  if (!isRecord(x)) return false;
  if (x.atEnd === true) return Object.keys(x).length === 1;
  return isId(x.entryId) && typeof x.offset === "number" && Number.isFinite(x.offset) && Math.abs(x.offset) < 1e7;
}

const isId = (x: unknown): x is string => isString(x, READER_LIMITS.idChars, false);

export function isToolCallView(x: unknown): x is ToolCallView {
  return (
    isRecord(x) &&
    isString(x.id, READER_LIMITS.idChars) &&
    isString(x.name, READER_LIMITS.titleChars) &&
    isString(x.args, READER_LIMITS.textChars) &&
    isOptionalString(x.command, READER_LIMITS.textChars) &&
    isOptionalString(x.path, READER_LIMITS.pathChars)
  );
}

function isPart(x: unknown): x is AssistantPart {
  if (!isRecord(x)) return false;
  if (x.type === "text" || x.type === "thinking") return isString(x.text, READER_LIMITS.textChars);
  return x.type === "toolCall" && isToolCallView(x.call);
}

function isEdit(x: unknown): boolean {
  return x === undefined || (isRecord(x) && isId(x.editId) && (x.replacement === undefined || isString(x.replacement, READER_LIMITS.textChars)));
}

export function isReaderBlock(x: unknown): x is ReaderBlock {
  return (
    isRecord(x) &&
    isId(x.id) &&
    typeof x.kind === "string" &&
    (READER_BLOCK_KINDS as readonly string[]).includes(x.kind) &&
    isString(x.timestamp, READER_LIMITS.timestampChars) &&
    isString(x.text, READER_LIMITS.textChars) &&
    (x.parts === undefined || (Array.isArray(x.parts) && x.parts.length <= READER_LIMITS.parts && x.parts.every(isPart))) &&
    isOptionalString(x.title, READER_LIMITS.titleChars) &&
    isOptionalCount(x.tokens) &&
    (x.isError === undefined || typeof x.isError === "boolean") &&
    isOptionalString(x.label, READER_LIMITS.labelChars) &&
    isEdit(x.edit) &&
    isOptionalString(x.detail, READER_LIMITS.detailChars) &&
    (x.images === undefined || (Array.isArray(x.images) && x.images.length <= MAX_IMAGES_PER_BLOCK && x.images.every(isReaderImage))) &&
    isOptionalCount(x.truncatedFrom)
  );
}

function isBlocks(x: unknown): x is ReaderBlock[] {
  return Array.isArray(x) && x.length <= READER_LIMITS.blocksPerMessage && x.every(isReaderBlock);
}

export function isReaderState(x: unknown): x is ReaderState {
  return (
    isRecord(x) &&
    x.version === READER_STATE_VERSION &&
    isString(x.sessionPath, READER_LIMITS.pathChars, false) &&
    isString(x.title, READER_LIMITS.titleChars) &&
    (x.leafId === null || isId(x.leafId)) &&
    typeof x.follow === "boolean" &&
    isReaderFilter(x.filter)
  );
}

export function isReaderHostMessage(x: unknown): x is ReaderHostMessage {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "init":
      return isReaderState(x.state) && isBlocks(x.blocks) && isCount(x.start) && isCount(x.total) && x.start + x.blocks.length <= x.total && (x.inFile === undefined || isCount(x.inFile)) && (x.focusId === undefined || isId(x.focusId));
    case "earlier":
      return isBlocks(x.blocks) && isCount(x.start);
    case "append":
      return isBlocks(x.blocks) && isCount(x.total) && (x.inFile === undefined || isCount(x.inFile));
    case "changed":
      return isBlocks(x.blocks);
    case "reveal":
      return isId(x.entryId);
    case "notice":
      return isString(x.text, READER_LIMITS.noticeChars);
    default:
      return false;
  }
}

export function isReaderWebviewMessage(x: unknown): x is ReaderWebviewMessage {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "ready":
      return x.anchorId === undefined || isId(x.anchorId);
    case "loadEarlier":
      return isCount(x.before);
    case "shown":
      return isCount(x.blocks);
    case "revealEntry":
      return isId(x.entryId);
    case "openFile":
      return isId(x.entryId) && isString(x.toolCallId, READER_LIMITS.idChars) && typeof x.preview === "boolean";
    default:
      return false;
  }
}

export function isPersistedReaderState(x: unknown): x is PersistedReaderState {
  return isRecord(x) && isReaderState(x.reader) && (x.scroll === undefined || isReaderScroll(x.scroll));
}
