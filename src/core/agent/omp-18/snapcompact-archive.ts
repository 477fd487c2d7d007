// A snapcompact archive (`preserveData.snapcompact`) turned back into the blocks
// the model sees after the summary's lead-in: the oldest text, the frames as
// images (newest first within a 3 MB base64 budget; a missing blob becomes
// omp's "unavailable here" notice), the newest text (@oh-my-pi/snapcompact
// getPreservedArchive / historyBlocks, 18.2.11 = the 18.3.4 bundle).

import { isRecord, type OmpMessage } from "./messages.js";

export const FRAME_TOKEN_ESTIMATE = 5024;
export const FRAME_DATA_BYTES_BUDGET = 3_000_000;
const NEWLINE_GLYPH = "\u2588";
const DIM_MARKERS = /[\u000e\u000f]/g;
const BLOB_REFERENCE_PREFIX = "blob:sha256:";

export interface ArchiveFrame {
  data: string;
  mimeType: string;
  cols: number;
  rows: number;
  chars: number;
  font?: string;
  variant?: string;
  detail?: string;
}

export interface Archive {
  frames: ArchiveFrame[];
  totalChars: number;
  truncatedChars: number;
  text?: string;
  textHead?: string;
  textTail?: string;
}

/** A frame payload priced before it is read (omp's LazyFrameData). */
export interface LazyFrameData {
  readonly bytes: number;
  read(): string;
}

export interface HistoryBlockOptions {
  maxFrameDataBytes?: number;
  resolveFrameData?: (data: string) => LazyFrameData | undefined;
}

export function getPreservedArchive(preserveData: unknown): Archive | undefined {
  const candidate = isRecord(preserveData) ? preserveData.snapcompact : undefined;
  if (!candidate || typeof candidate !== "object") return undefined;
  const archive = candidate as Record<string, unknown>;
  const frames = Array.isArray(archive.frames)
    ? (archive.frames as ArchiveFrame[]).filter(
        (frame) =>
          !!frame &&
          typeof frame.data === "string" &&
          frame.data.length > 0 &&
          typeof frame.mimeType === "string" &&
          typeof frame.cols === "number" &&
          typeof frame.rows === "number" &&
          typeof frame.chars === "number",
      )
    : [];
  const nonEmpty = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : undefined);
  const text = nonEmpty(archive.text);
  const textHead = nonEmpty(archive.textHead);
  const textTail = nonEmpty(archive.textTail);
  if (frames.length === 0 && text === undefined && textHead === undefined && textTail === undefined) return undefined;
  return {
    frames,
    totalChars: typeof archive.totalChars === "number" ? archive.totalChars : 0,
    truncatedChars: typeof archive.truncatedChars === "number" ? archive.truncatedChars : 0,
    ...(text !== undefined ? { text } : {}),
    ...(textHead !== undefined ? { textHead } : {}),
    ...(textTail !== undefined ? { textTail } : {}),
  };
}

// --- data URLs in archive text (snapcompact elideDataUrls, "archive" context) ---

const ELIDED_MARKER = String.raw`\[(?:…|\.{3})\d+ch elided(?:…|\.{3})\]`;
const MEDIA_TYPE_TOKEN = String.raw`[\w!#$%&'*+.^|~-]+`;
const DATA_URL_ATOM = new RegExp(
  String.raw`data:([A-Za-z][\w.+-]*\/[\w.+-]+(?:;${MEDIA_TYPE_TOKEN}=${MEDIA_TYPE_TOKEN})*);base64,` +
    String.raw`([A-Za-z0-9+/=]*(?:\s*${ELIDED_MARKER}\s*[A-Za-z0-9+/=]*)?)` +
    String.raw`(\s*\))?`,
  "gi",
);
const ELIDED_MARKER_RE = new RegExp(String.raw`\s*${ELIDED_MARKER}\s*`);
const MARKDOWN_WHITESPACE_CHAR = /\s/;

function adjacentMarkdownOpenerStart(text: string, dataIndex: number, cursor: number): number | undefined {
  let i = dataIndex;
  while (i > cursor && MARKDOWN_WHITESPACE_CHAR.test(text.charAt(i - 1))) i--;
  if (i - 2 < cursor || text.charAt(i - 1) !== "(" || text.charAt(i - 2) !== "]") return undefined;
  let opener = -1;
  for (let j = i - 3; j >= cursor; j--) {
    const c = text.charAt(j);
    if (c === "]" || c === "\n") break;
    if (c === "[") opener = j;
  }
  if (opener < 0) return undefined;
  return opener > cursor && text.charAt(opener - 1) === "!" ? opener - 1 : opener;
}

/** Every inline base64 data URL replaced by a placeholder (archive text may be cut anywhere, so every one is elided). */
export function elideArchiveDataUrls(text: string): string {
  if (!/;base64,/i.test(text)) return text;
  DATA_URL_ATOM.lastIndex = 0;
  let match = DATA_URL_ATOM.exec(text);
  if (match === null) return text;
  const out: string[] = [];
  let cursor = 0;
  while (match !== null) {
    const urlStart = match.index;
    const urlEnd = urlStart + match[0].length;
    const mime = match[1] ?? "";
    const payload = match[2] ?? "";
    const closer = match[3];
    const marker = ELIDED_MARKER_RE.exec(payload);
    const b64Chars = marker ? payload.length - marker[0].length + Number(/\d+/.exec(marker[0])?.[0] ?? 0) : payload.length;
    const placeholder = `[data URL omitted: ${mime}, ${b64Chars} base64 chars]`;
    const foundOpener = adjacentMarkdownOpenerStart(text, urlStart, cursor);
    const openerStart = foundOpener !== undefined && foundOpener >= cursor ? foundOpener : undefined;
    out.push(text.slice(cursor, openerStart ?? urlStart));
    if (openerStart !== undefined && closer !== undefined) out.push(placeholder);
    else out.push(openerStart !== undefined ? text.slice(openerStart, urlStart) : "", placeholder, closer ?? "");
    cursor = urlEnd;
    match = DATA_URL_ATOM.exec(text);
  }
  out.push(text.slice(cursor));
  return out.join("");
}

function toPlainText(text: string): string {
  return text.replace(DIM_MARKERS, "").replaceAll(NEWLINE_GLYPH, "\n");
}

/** The archive's source text as plain text (what a later summary is given). */
export function archiveSourceText(archive: Archive): string | undefined {
  const text = archive.text ?? [archive.textHead, archive.textTail].filter((p): p is string => typeof p === "string" && p.length > 0).join(NEWLINE_GLYPH);
  return text.length > 0 ? elideArchiveDataUrls(toPlainText(text)) : undefined;
}

export function frameDataBytes(frames: readonly Pick<ArchiveFrame, "data">[]): number {
  return frames.reduce((sum, frame) => sum + frame.data.length, 0);
}

type FrameSlot = { frame: ArchiveFrame } | { unavailable: true } | { omittedBytes: number };

function imagesWithinBudget(archive: Archive, options: HistoryBlockOptions): FrameSlot[] {
  const { maxFrameDataBytes, resolveFrameData } = options;
  const hasUnresolved = archive.frames.some((f) => f.data.startsWith(BLOB_REFERENCE_PREFIX));
  if (maxFrameDataBytes === undefined && !resolveFrameData && !hasUnresolved) return archive.frames.map((frame) => ({ frame }));
  let usedBytes = 0;
  const newestFirst: FrameSlot[] = [];
  for (let index = archive.frames.length - 1; index >= 0; index--) {
    const frame = archive.frames[index];
    if (!frame) continue;
    const lazy = resolveFrameData?.(frame.data);
    if (!lazy && (resolveFrameData || frame.data.startsWith(BLOB_REFERENCE_PREFIX))) {
      newestFirst.push({ unavailable: true });
      continue;
    }
    const bytes = lazy ? lazy.bytes : frame.data.length;
    if (maxFrameDataBytes !== undefined && usedBytes + bytes > maxFrameDataBytes) {
      newestFirst.push({ omittedBytes: bytes });
      continue;
    }
    usedBytes += bytes;
    newestFirst.push({ frame: lazy ? { ...frame, data: lazy.read() } : frame });
  }
  return newestFirst.reverse();
}

function formatFrameDataBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${(bytes / 1_000).toFixed(1)} KB`;
  return `${bytes} B`;
}

const plural = (n: number) => (n === 1 ? "" : "s");

function frameBlocks(slots: FrameSlot[]): OmpMessage[] {
  const blocks: OmpMessage[] = [];
  let pendingGap: "unavailable" | "budget" | undefined;
  let pendingFrames = 0;
  let pendingBytes = 0;
  const flushGap = (): void => {
    if (!pendingGap) return;
    const count = pendingFrames.toLocaleString("en-US");
    const text =
      pendingGap === "unavailable"
        ? `-------------- ${count} archived image frame${plural(pendingFrames)} unavailable here --------------`
        : [
            "-------------- snapcompact image middle omitted",
            `${count} archived image frame${plural(pendingFrames)} could not be included.${pendingBytes > 0 ? ` ${formatFrameDataBytes(pendingBytes)} of base64 exceeded the per-request snapcompact payload budget.` : ""} The compacted summary and visible text edges remain available.`,
            "--------------",
          ].join("\n");
    blocks.push({ type: "text", text });
    pendingGap = undefined;
    pendingFrames = 0;
    pendingBytes = 0;
  };
  for (const slot of slots) {
    if ("frame" in slot) {
      flushGap();
      const f = slot.frame;
      blocks.push({ type: "image", data: f.data, mimeType: f.mimeType, ...(f.detail ? { detail: f.detail } : {}) });
      continue;
    }
    const gap = "unavailable" in slot ? "unavailable" : "budget";
    if (pendingGap && pendingGap !== gap) flushGap();
    pendingGap = gap;
    pendingFrames++;
    if ("omittedBytes" in slot) pendingBytes += slot.omittedBytes;
  }
  flushGap();
  return blocks;
}

/** The archive's blocks, oldest to newest: text head, imaged middle, text tail. */
export function historyBlocks(archive: Archive, options: HistoryBlockOptions = {}): OmpMessage[] {
  const blocks: OmpMessage[] = [];
  const middle = frameBlocks(imagesWithinBudget(archive, options));
  const hasImages = middle.some((b) => b.type === "image");
  const hasOmittedImages = middle.some((b) => b.type === "text");
  if (archive.textHead) {
    blocks.push({ type: "text", text: elideArchiveDataUrls(toPlainText(archive.textHead)) + (hasImages ? "\n-------------- imaged middle below\n" : "") });
  }
  blocks.push(...middle);
  if (archive.textTail) {
    const prefix = hasImages
      ? "-------------- imaged middle above\n"
      : archive.truncatedChars > 0 || hasOmittedImages
        ? "\n-------------- middle history omitted above\n"
        : "";
    const tail = prefix + elideArchiveDataUrls(toPlainText(archive.textTail));
    const last = blocks[blocks.length - 1];
    if (last?.type === "text") last.text += tail;
    else blocks.push({ type: "text", text: tail });
  }
  return blocks;
}
