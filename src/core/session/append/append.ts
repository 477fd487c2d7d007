// Safe append: the only way this project adds entries to a session file.
// pi may be running in the same session and appending to it, so the file is
// opened with O_APPEND (never created, never truncated), checked on that same
// descriptor against the fingerprint taken when it was read (size, mtime,
// hash of the tail, complete last line), and written with ONE write of the
// complete line(s). Any refusal or error leaves the file byte-identical.
// An omp session is appended to the omp way (the plan's dialect): under omp's
// publish lock, and a last line missing its newline (a complete entry) gets
// one first — omp itself would glue its next entry to it and lose it.

import { randomUUID } from "node:crypto";
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { readRange } from "../bytes/read-range.js";
import type { LoadedSession } from "../open/open-session.js";
import { hashBytes } from "../bytes/fingerprint.js";
import type { PiVersion } from "../format/pi-version.js";
import { ancestorCycle, describeAncestorCycle } from "./ancestry.js";
import { OmpLockBusyError, withOmpPublishLock } from "./omp-publish-lock.js";
import { asWritten, buildEntry, serializeEntry, type EntryDraft, type WrittenEntry } from "../format/serialize-entry.js";

export type WriteRefusalReason =
  | "changed-on-disk"
  | "incomplete-last-line"
  | "missing-header"
  | "needs-migration"
  | "not-a-file"
  | "parent-cycle"
  | "bom-for-pi-1.5"
  | "omp-lock-busy"
  | "no-title-slot"
  | "omp-title-slot";

/** Whose append protocol a write follows: pi's (O_APPEND, a complete last line required) or omp's (its publish lock, a missing final newline added). */
export type AppendDialect = "pi" | "omp";


/** Writing was refused and nothing was written (CLI exit 3). */
export class WriteRefusedError extends Error {
  constructor(
    readonly reason: WriteRefusalReason,
    message: string,
    readonly path: string | undefined,
  ) {
    super(message);
    this.name = "WriteRefusedError";
  }
}

/** The file is not what was read: pi (or something else) wrote to it since. */
export class SessionChangedError extends WriteRefusedError {
  constructor(path: string, detail: string) {
    super(
      "changed-on-disk",
      `${path}: the session changed on disk since it was read (${detail}); pi may be running in it. Nothing was written: read it again and retry.`,
      path,
    );
    this.name = "SessionChangedError";
  }
}

export function isWriteRefusedError(value: unknown): value is WriteRefusedError {
  return value instanceof WriteRefusedError;
}

export interface PlanAppendOptions {
  /**
   * Parent of the first new entry. undefined: the file's last entry (where pi
   * resumes); null: a new root. Each further entry is the child of the one before.
   */
  parentId?: string | null;
  /** Clock for the entries' timestamps (tests). */
  now?: () => Date;
  /** Id source before the uniqueness check (tests); default 8 hex digits of a random UUID, as pi. */
  newId?: () => string;
  /** "1.5": a file starting with a UTF-8 BOM is refused (pi 1.5.2 cannot open it). Default "0.73". */
  piVersion?: PiVersion;
  /** Whose append protocol to follow; default "pi". */
  dialect?: AppendDialect;
}

export interface WritableOptions {
  piVersion?: PiVersion;
  dialect?: AppendDialect;
}

export interface PlannedAppend {
  readonly session: LoadedSession;
  /** The entries as they will be on disk (undefined fields dropped). */
  readonly entries: WrittenEntry[];
  /** The complete line(s), each ending in `\n`. */
  readonly text: string;
  readonly piVersion: PiVersion;
  readonly dialect: AppendDialect;
}

export interface AppendResult {
  entries: WrittenEntry[];
  /** File size before the write (where the new lines start). */
  offset: number;
  bytesWritten: number;
}

/**
 * Every refusal, checked before any model call so no call is wasted: what was
 * read (header, version) and the file now (unchanged, complete last line).
 * commitAppend checks all of it again on the descriptor it writes with.
 */
export function checkWritable(session: LoadedSession, options: WritableOptions = {}): void {
  const path = checkReadState(session, options.dialect ?? "pi");
  withReadFd(path, (fd) => {
    verifyUnchanged(fd, session, path, options.dialect ?? "pi");
    refuseBomFor15(fd, path, options.piVersion);
  });
}

/**
 * The one check every writer passes through (planAppend): the new entries
 * hang under `parentId`, whose path to a root must be a simple chain.
 */
export function checkParentChain(session: LoadedSession, parentId: string | null): void {
  if (parentId === null) return;
  const cycle = ancestorCycle(session.index, parentId);
  if (cycle) {
    throw new WriteRefusedError("parent-cycle", `${session.path ?? "session"}: ${describeAncestorCycle(parentId, cycle)}. Nothing was written.`, session.path);
  }
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** pi 1.5.2's SessionManager.open rejects a file whose header line starts with a BOM; appending for a 1.5 user would not help. */
function refuseBomFor15(fd: number, path: string, piVersion: PiVersion | undefined): void {
  if (piVersion !== "1.5") return;
  const head = readRange(fd, 0, 3);
  if (head.length === 3 && UTF8_BOM.every((b, i) => head[i] === b)) {
    throw new WriteRefusedError(
      "bom-for-pi-1.5",
      `${path}:1: the file starts with a UTF-8 byte order mark, which pi 1.5 cannot open ("not a valid pi session"); nothing was written. Remove the first 3 bytes (the BOM) to use it with pi 1.5.`,
      path,
    );
  }
}

function checkReadState(session: LoadedSession, dialect: AppendDialect): string {
  const path = session.path;
  if (path === undefined) throw new WriteRefusedError("not-a-file", "the session was not read from a file; nothing to write to", undefined);
  if (session.headerMissing || !session.header) {
    throw new WriteRefusedError(
      "missing-header",
      `${path}:1: the first line is not a session header; pi treats this file as empty, so nothing is appended to it`,
      path,
    );
  }
  if (session.titleSlot && dialect !== "omp") {
    // Line 1 is omp's title slot: pi reads no header here, and omp's writes follow omp's own rules.
    throw new WriteRefusedError(
      "omp-title-slot",
      `${path}:1: omp's title slot: this is an omp session (pi treats it as empty); nothing was appended with pi's rules`,
      path,
    );
  }
  if (session.needsMigration) {
    throw new WriteRefusedError(
      "needs-migration",
      `${path}: version ${session.version} session file; it needs migration to version 3 first: run \`pi-sessions migrate ${path}\``,
      path,
    );
  }
  return path;
}

function generateId(taken: (id: string) => boolean, newId: () => string): string {
  for (let i = 0; i < 100; i++) {
    const id = newId();
    if (!taken(id)) return id;
  }
  // pi's fallback when 100 short ids collide.
  return randomUUID();
}

const shortId = (): string => randomUUID().slice(0, 8);

/** Assigns ids, parents and timestamps; writes nothing. */
export function planAppend(session: LoadedSession, drafts: readonly EntryDraft[], options: PlanAppendOptions = {}): PlannedAppend {
  if (drafts.length === 0) throw new Error("planAppend: no entries to append");
  let parentId = options.parentId === undefined ? session.index.leafId : options.parentId;
  if (parentId !== null && !session.index.get(parentId)) throw new Error(`${session.path ?? "session"}: no entry ${parentId} to append under`);
  checkParentChain(session, parentId);
  const now = options.now ?? (() => new Date());
  const fresh = new Set<string>();
  const entries: WrittenEntry[] = [];
  let text = "";
  for (const draft of drafts) {
    const id = generateId((candidate) => fresh.has(candidate) || session.index.get(candidate) !== undefined, options.newId ?? shortId);
    fresh.add(id);
    const entry = buildEntry(draft, { id, parentId, timestamp: now().toISOString() });
    text += serializeEntry(entry);
    entries.push(asWritten(entry));
    parentId = id;
  }
  return { session, entries, text, piVersion: options.piVersion ?? "0.73", dialect: options.dialect ?? "pi" };
}

/**
 * The file behind `fd` is byte-for-byte what `session` was read from, and ends
 * with a complete line — for omp, or with a last line that is a complete entry
 * and lacks only its newline (returned: the prefix the append needs).
 */
function verifyUnchanged(fd: number, session: LoadedSession, path: string, dialect: AppendDialect): { size: number; prefix: string } {
  const fp = session.fingerprint;
  const st = fstatSync(fd);
  if (!st.isFile()) throw new WriteRefusedError("not-a-file", `${path}: not a regular file`, path);
  if (st.size !== fp.size) throw new SessionChangedError(path, `size ${fp.size} → ${st.size} bytes`);
  const tail = readRange(fd, fp.size - fp.tailLength, fp.tailLength);
  if (tail.length !== fp.tailLength || hashBytes(tail) !== fp.tailHash) throw new SessionChangedError(path, "its last bytes differ");
  if (fp.mtimeMs !== 0 && st.mtimeMs !== fp.mtimeMs) throw new SessionChangedError(path, "same size but modified again");
  if (st.size > 0 && tail[tail.length - 1] !== 0x0a) {
    if (dialect === "omp" && lastLineIsComplete(fd, st.size)) return { size: st.size, prefix: "\n" };
    throw new WriteRefusedError(
      "incomplete-last-line",
      `${path}: the last line is incomplete (no final newline); pi may be writing it right now. Nothing was written: retry.`,
      path,
    );
  }
  return { size: st.size, prefix: "" };
}

const LAST_LINE_PROBE_BYTES = 64 * 1024;
const MAX_LAST_LINE_BYTES = 64 * 1024 * 1024;

/** Whether the bytes after the file's last newline are one complete JSON object (an entry written without its newline). */
function lastLineIsComplete(fd: number, size: number): boolean {
  let start = size;
  const chunks: Buffer[] = [];
  while (start > 0 && size - start < MAX_LAST_LINE_BYTES) {
    const from = Math.max(0, start - LAST_LINE_PROBE_BYTES);
    const chunk = readRange(fd, from, start - from);
    const nl = chunk.lastIndexOf(0x0a);
    if (nl >= 0) {
      chunks.unshift(chunk.subarray(nl + 1));
      start = -1;
      break;
    }
    chunks.unshift(chunk);
    start = from;
  }
  if (start > 0) return false;
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function withReadFd<T>(path: string, use: (fd: number) => T): T {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw missingFile(path, e);
  }
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

function missingFile(path: string, e: unknown): Error {
  const code = (e as { code?: unknown }).code;
  if (code === "ENOENT") return new SessionChangedError(path, "the file is gone");
  return new Error(`${path}: cannot open the session file for writing: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * Checks the file on an O_APPEND descriptor and appends the planned lines
 * with one write. Throws WriteRefusedError (nothing written) when the file
 * is not as read; on a failed or short write the file is cut back to its
 * size before the write, when nothing else was appended meanwhile.
 */
export function commitAppend(plan: PlannedAppend): AppendResult {
  const path = checkReadState(plan.session, plan.dialect);
  return plan.dialect === "omp" ? underOmpLock(path, () => appendNow(plan, path)) : appendNow(plan, path);
}

function underOmpLock<T>(path: string, task: () => T): T {
  try {
    return withOmpPublishLock(path, task);
  } catch (error) {
    if (error instanceof OmpLockBusyError) throw new WriteRefusedError("omp-lock-busy", error.message, path);
    throw error;
  }
}

/**
 * omp's rename of a file with a title slot (SessionManager.setSessionName):
 * under omp's publish lock, the `title_change` entry is appended, then the
 * 256-byte slot `slotLine` is written over line 1 in place. Line 1 must be a
 * valid slot of exactly 256 bytes now; on a failed slot write the appended
 * line is cut off again, so the file is as it was.
 */
export function commitOmpRename(plan: PlannedAppend, slotLine: string): AppendResult {
  const path = checkReadState(plan.session, "omp");
  const slot = Buffer.from(slotLine, "utf8");
  if (slot.length !== OMP_SLOT_BYTES || slot[OMP_SLOT_BYTES - 1] !== 0x0a) throw new Error("commitOmpRename: the slot line is not 256 bytes ending in a newline");
  return underOmpLock(path, () => {
    const head = withReadFd(path, (fd) => readRange(fd, 0, OMP_SLOT_BYTES));
    if (!isSlotLine(head)) {
      throw new WriteRefusedError("no-title-slot", `${path}:1: the first line is not omp's 256-byte title slot, so omp's name cannot be set in place; nothing was written`, path);
    }
    return appendNow({ ...plan, dialect: "omp" }, path, () => {
      const slotFd = openSync(path, constants.O_RDWR);
      try {
        const written = writeSync(slotFd, slot, 0, slot.length, 0);
        if (written !== slot.length) throw new Error(`short write of the title slot: ${written} of ${slot.length} bytes`);
        fsyncSync(slotFd);
      } catch (error) {
        writeSync(slotFd, head, 0, head.length, 0);
        throw error;
      } finally {
        closeSync(slotFd);
      }
    });
  });
}

const OMP_SLOT_BYTES = 256;

/** Exactly 256 bytes holding one JSON line that is omp's title slot (omp's parseTitleSlotObject). */
function isSlotLine(head: Uint8Array): boolean {
  if (head.length !== OMP_SLOT_BYTES || head[OMP_SLOT_BYTES - 1] !== 0x0a || head.subarray(0, OMP_SLOT_BYTES - 1).includes(0x0a)) return false;
  try {
    const v = JSON.parse(Buffer.from(head).toString("utf8")) as Record<string, unknown> | null;
    if (!v || typeof v !== "object" || v.type !== "title" || v.v !== 1) return false;
    if (typeof v.title !== "string" || typeof v.updatedAt !== "string" || typeof v.pad !== "string") return false;
    return v.source === undefined || v.source === "auto" || v.source === "user";
  } catch {
    return false;
  }
}

function appendNow(plan: PlannedAppend, path: string, then?: () => void): AppendResult {
  const session = plan.session;
  let fd: number;
  try {
    // No O_CREAT: a file deleted since it was read is not recreated.
    fd = openSync(path, constants.O_RDWR | constants.O_APPEND);
  } catch (e) {
    throw missingFile(path, e);
  }
  try {
    const { size, prefix } = verifyUnchanged(fd, session, path, plan.dialect);
    refuseBomFor15(fd, path, plan.piVersion);
    const bytes = Buffer.from(prefix + plan.text, "utf8");
    let written = 0;
    try {
      written = writeSync(fd, bytes, 0, bytes.length);
      if (written !== bytes.length) throw new Error(`short write: ${written} of ${bytes.length} bytes`);
      fsyncSync(fd);
      then?.();
    } catch (error) {
      undoPartialWrite(fd, size, written);
      if (error instanceof WriteRefusedError) throw error;
      throw new Error(`${path}: appending failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { entries: plan.entries, offset: size, bytesWritten: written };
  } finally {
    closeSync(fd);
  }
}

function undoPartialWrite(fd: number, sizeBefore: number, written: number): void {
  try {
    // Only our bytes are after sizeBefore when the size is exactly ours.
    if (fstatSync(fd).size === sizeBefore + written && written > 0) ftruncateSync(fd, sizeBefore);
  } catch {
    // The caller reports the write failure itself.
  }
}

/** planAppend + commitAppend. */
export function appendEntries(session: LoadedSession, drafts: readonly EntryDraft[], options: PlanAppendOptions = {}): AppendResult {
  return commitAppend(planAppend(session, drafts, options));
}
