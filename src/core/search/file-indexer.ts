// Reads a session file (or only the bytes appended since the last read) into
// what search needs, the way pi 1.5.2's buildSessionInfo reads it: lines
// JSON.parsed one by one (malformed lines skipped), the first value that
// parses must be the session header, the name from the last session_info, and
// the text of user/assistant messages (message-text.ts), taken from their
// lines without building the rest where a line has pi's shape
// (text-message-skim.ts). Lines that are not user/assistant messages are
// never parsed: after the header they are skimmed
// (line-skimmer's skimLine, as the catalogue reads them: the leading fields,
// and a long line's end found natively), because pi's search ignores them
// whether they parse or not — only their type and the message's role count,
// which pi writes first. The header, session_info lines and an unterminated
// last line are scanned exactly.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { scanLine } from "../session/scan/entry-scanner";
import { skimLine } from "../session/scan/line-skimmer";
import { scanFromValue, type LineScan } from "../session/scan/line-fields";
import { asBuffer, JsonlReader, type JsonlLine } from "../session/bytes/jsonl-reader";
import { FINGERPRINT_TAIL_BYTES, fingerprintOf, type FileFingerprint } from "../session/bytes/fingerprint";
import { NormalizedTextBuilder, PiOmits, searchableMessageText, sessionInfoName } from "./message-text";
import { skimTextMessage } from "./text-message-skim";
import { titleSlotOf } from "../session/format/title-slot";

/** What the index keeps about one session file (one manifest row). */
export interface FileState {
  fingerprint: FileFingerprint;
  /** Where an appended read continues (after the last line that counted); null: read it all again. */
  resume: number | null;
  /** The line number at `resume`. */
  resumeLine: number;
  /** The first value that parses was seen (pi decides on the header there). */
  seenFirst: boolean;
  /** Why pi 1.5.2 would not list this session (null: it would, once a header is seen). */
  omitted: string | null;
  id: string;
  cwd: string;
  name: string | null;
  /** The file starts with omp's title slot: its title is the name, and omp never reads session_info. */
  titleSlot?: true;
  nameEntryId: string | null;
  /** When the name was set (its entry's timestamp), null when not known. */
  nameTime?: number | null;
  headerTime: number | null;
  /** Latest user/assistant activity (pi's getMessageActivityTime), 0 when none. */
  activity: number;
  /** Messages with text (pi's allMessages.length). */
  messages: number;
  normStarted: boolean;
  normPending: boolean;
  /** Committed sizes of the data files. */
  normBytes: number;
  origBytes: number;
  origUnits: number;
  entsBytes: number;
}

/** One message with text: where its text is in the normalized and original texts. */
export interface TextEntry {
  id: string | null;
  role: string;
  line: number;
  /** Byte offset in the normalized text where this message's text starts. */
  normStart: number;
  /** UTF-16 offset in the original joined text. */
  origUnit: number;
  origByte: number;
  origByteLength: number;
  /** When the message was written (its entry's timestamp, else pi's activity time; ms, NaN when neither). */
  time: number;
}

export interface Appended {
  norm: string;
  orig: string;
  ents: TextEntry[];
}

export function emptyState(): FileState {
  return {
    fingerprint: fingerprintOf(0, new Uint8Array(0)),
    resume: 0,
    resumeLine: 1,
    seenFirst: false,
    omitted: null,
    id: "",
    cwd: "",
    name: null,
    nameEntryId: null,
    headerTime: null,
    activity: 0,
    messages: 0,
    normStarted: false,
    normPending: false,
    normBytes: 0,
    origBytes: 0,
    origUnits: 0,
    entsBytes: 0,
  };
}

/** pi lists it (a header was seen and nothing made its listing throw). */
export function isListed(s: FileState): boolean {
  return s.seenFirst && s.omitted === null;
}

/** pi's getSessionModifiedDate. */
export function modifiedMs(s: FileState): number {
  if (s.activity > 0) return s.activity;
  if (s.headerTime !== null) return s.headerTime;
  return s.fingerprint.mtimeMs;
}

class LineSink {
  readonly norm: string[] = [];
  readonly orig: string[] = [];
  readonly ents: TextEntry[] = [];
  private readonly normalizer: NormalizedTextBuilder;
  /** The last line seen was unterminated and counted (valid JSON): appends cannot continue after it. */
  tailCounted = false;

  constructor(readonly state: FileState) {
    this.normalizer = new NormalizedTextBuilder(state.normStarted, state.normPending);
  }

  line(l: JsonlLine): void {
    if (this.state.omitted !== null) return;
    const end = l.start + l.length;
    // pi reads with readline on a utf8 stream, which keeps a BOM: its first line then never parses.
    if (l.line === 1 && l.offset === 3) return;
    // A line that looks like a user/assistant message is JSON.parsed at once (it will be anyway,
    // for its text); others are only scanned. Both are exact; the guess only picks the cheaper one.
    let parsed: { value: unknown } | undefined;
    let scan: LineScan;
    const textMessage = looksLikeTextMessage(l.bytes, l.start, end);
    if (textMessage && this.state.seenFirst && l.terminated) {
      const skimmed = skimTextMessage(asBuffer(l.bytes), l.start, end);
      if (skimmed) {
        if (!Number.isNaN(skimmed.activity)) this.state.activity = Math.max(this.state.activity, skimmed.activity);
        if (skimmed.text) this.addText(skimmed.id, skimmed.role, skimmed.text, l.line, Number.isNaN(skimmed.time) ? skimmed.activity : skimmed.time);
        return;
      }
    }
    if (textMessage) {
      try {
        parsed = { value: JSON.parse(asBuffer(l.bytes).toString("utf8", l.start, end)) };
      } catch {
        return; // pi skips lines that do not parse
      }
      scan = scanFromValue(parsed.value);
    } else if (this.state.seenFirst && l.terminated) {
      scan = skimLine(l.bytes, l.start, end);
    } else {
      scan = scanLine(l.bytes, l.start, end);
    }
    if (scan.kind === "blank" || scan.kind === "invalid") return;
    if (!l.terminated) this.tailCounted = true;
    const value = (): unknown => (parsed ??= { value: JSON.parse(asBuffer(l.bytes).toString("utf8", l.start, end)) }).value;
    try {
      if (scan.kind === "value") {
        // pi: `if (!entry) continue` skips null, false, 0 and ""; anything else is an entry without a type.
        if (value() && !this.state.seenFirst) this.header(undefined);
        return;
      }
      const f = scan.fields;
      // omp's title slot on line 1: its title is the session's name, the header is the next line.
      if (!this.state.seenFirst && l.line === 1 && f.type === "title") {
        const slot = titleSlotOf(value());
        if (slot) {
          this.state.name = slot.title.trim() ? slot.title : null;
          this.state.titleSlot = true;
          return;
        }
      }
      if (!this.state.seenFirst) return this.header(f);
      if (f.type === "session_info" && !this.state.titleSlot) {
        this.state.name = sessionInfoName(f.name) ?? null;
        this.state.nameEntryId = typeof f.id === "string" ? f.id : null;
        const named = typeof f.timestamp === "string" ? new Date(f.timestamp).getTime() : Number.NaN;
        this.state.nameTime = Number.isNaN(named) ? null : named;
      }
      if (f.type !== "message") return;
      const m = f.message;
      if (!m || !m.isObject) {
        // Not an object: pi throws on a missing or null message, and skips other values.
        searchableMessageText((value() as { message?: unknown }).message);
        return;
      }
      if (typeof m.role !== "string" || !m.hasContent || (m.role !== "user" && m.role !== "assistant")) return;
      const activity = typeof m.timestamp === "number" ? m.timestamp : new Date(f.timestamp as string).getTime();
      if (!Number.isNaN(activity)) this.state.activity = Math.max(this.state.activity, activity);
      const entry = value() as { id?: unknown; message?: unknown };
      const text = searchableMessageText(entry.message);
      const written = typeof f.timestamp === "string" ? new Date(f.timestamp).getTime() : Number.NaN;
      if (text) this.addText(typeof entry.id === "string" ? entry.id : null, text.role, text.text, l.line, Number.isNaN(written) ? activity : written);
    } catch (e) {
      if (e instanceof PiOmits) this.state.omitted = e.message;
      else throw e;
    }
  }

  private header(f: Record<string, unknown> | undefined): void {
    const s = this.state;
    s.seenFirst = true;
    if (!f || f.type !== "session") {
      s.omitted = "the first entry is not a session header";
      return;
    }
    if (typeof f.id !== "string") {
      s.omitted = "the session header has no string id";
      return;
    }
    s.id = f.id;
    s.cwd = typeof f.cwd === "string" ? f.cwd : "";
    const t = typeof f.timestamp === "string" ? new Date(f.timestamp).getTime() : NaN;
    s.headerTime = Number.isNaN(t) ? null : t;
  }

  private addText(id: string | null, role: string, text: string, line: number, time: number): void {
    const s = this.state;
    if (s.messages > 0) {
      this.normalizer.push(" ");
      this.orig.push(" ");
      s.origUnits += 1;
      s.origBytes += 1;
    }
    const { emitted, lead } = this.normalizer.push(text);
    const byteLength = Buffer.byteLength(text);
    this.ents.push({ id, role, line, normStart: s.normBytes + lead, origUnit: s.origUnits, origByte: s.origBytes, origByteLength: byteLength, time });
    if (emitted) {
      this.norm.push(emitted);
      s.normBytes += Buffer.byteLength(emitted);
    }
    this.orig.push(text);
    s.origUnits += text.length;
    s.origBytes += byteLength;
    s.messages += 1;
  }

  finish(): void {
    this.state.normStarted = this.normalizer.started;
    this.state.normPending = this.normalizer.pending;
  }
}

const CHUNK_BYTES = 1024 * 1024;
/** One read buffer for every file (reads are synchronous, so never shared by two at once). */
let readBuffer: Buffer | null = null;

const ROLE = Buffer.from('"role":"');
const USER = Buffer.from('user"');
const ASSISTANT = Buffer.from('assistant"');
const GUESS_BYTES = 512;

/** pi writes `"role":"user"` / `"role":"assistant"` near the start of a message line. */
function looksLikeTextMessage(bytes: Uint8Array, start: number, end: number): boolean {
  const b = asBuffer(bytes);
  const head = b.subarray(start, Math.min(end, start + GUESS_BYTES));
  for (let at = head.indexOf(ROLE); at >= 0; at = head.indexOf(ROLE, at + 1)) {
    const v = start + at + ROLE.length;
    if (startsWith(b, v, end, USER) || startsWith(b, v, end, ASSISTANT)) return true;
  }
  return false;
}

function startsWith(b: Buffer, at: number, end: number, word: Buffer): boolean {
  if (at + word.length > end) return false;
  for (let i = 0; i < word.length; i++) if (b[at + i] !== word[i]) return false;
  return true;
}

/**
 * Reads `path` from `from.resume` (appended bytes only) or from the start (from = null),
 * returning the new state and the text to append. The state's data sizes already count the appended text.
 */
export function readSessionText(path: string, from: FileState | null): { state: FileState; appended: Appended } {
  const base = from && from.resume !== null ? from : null;
  const state: FileState = base ? { ...base, fingerprint: { ...base.fingerprint } } : emptyState();
  const start = base ? base.resume! : 0;
  const sink = new LineSink(state);
  const reader = new JsonlReader((l) => sink.line(l), start, base ? base.resumeLine : 1);
  const fd = openSync(path, "r");
  let position = start;
  let tail: Uint8Array = new Uint8Array(0);
  try {
    const stat = fstatSync(fd);
    const size = stat.size;
    const buffer = (readBuffer ??= Buffer.allocUnsafe(CHUNK_BYTES));
    while (position < size) {
      const bytesRead = readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      reader.push(chunk);
      tail = keepTail(tail, chunk);
      position += bytesRead;
    }
    const summary = reader.end();
    sink.finish();
    if (start > 0 && position - start < FINGERPRINT_TAIL_BYTES) {
      // The tail spans bytes read before: hash it from the file.
      const t = Math.min(FINGERPRINT_TAIL_BYTES, position);
      const bytes = Buffer.alloc(t);
      readSync(fd, bytes, 0, t, position - t);
      tail = bytes;
    }
    state.fingerprint = fingerprintOf(position, tail, stat.mtimeMs);
    state.resume = sink.tailCounted ? null : summary.completeUpTo;
    state.resumeLine = summary.nextLine;
  } finally {
    closeSync(fd);
  }
  return { state, appended: { norm: sink.norm.join(""), orig: sink.orig.join(""), ents: sink.ents } };
}

function keepTail(tail: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (chunk.length >= FINGERPRINT_TAIL_BYTES) return new Uint8Array(chunk.subarray(chunk.length - FINGERPRINT_TAIL_BYTES));
  const keep = Math.min(tail.length, FINGERPRINT_TAIL_BYTES - chunk.length);
  const next = new Uint8Array(keep + chunk.length);
  next.set(tail.subarray(tail.length - keep), 0);
  next.set(chunk, keep);
  return next;
}
