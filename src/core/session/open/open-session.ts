// The entry point for reading a session: stream the file once into an index
// of metas, and parse bodies later, on demand, from the line bytes. Reading
// never writes; content problems come back as diagnostics; only failures to
// read the file at all (missing, permission) throw, with the file named.

import { isUtf8 } from "node:buffer";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { readRange } from "../bytes/read-range.js";
import { open } from "node:fs/promises";
import { FileByteSource, MemoryByteSource } from "./byte-source.js";
import {
  FINGERPRINT_TAIL_BYTES,
  fingerprintOf,
  hashBytes,
  type FileChange,
  type FileFingerprint,
} from "../bytes/fingerprint.js";
import { headOfChunk, resumeFromSnapshot, snapshotContentOf, type IndexSnapshots, type SnapshotMatch } from "../snapshot/index-snapshot.js";
import { JsonlReader } from "../bytes/jsonl-reader.js";
import { borrowSearchChunk, returnSearchChunk, SEARCH_CHUNK_BYTES } from "../skim/search-memory.js";
import { SessionBuilder, type ResumePoint } from "../index/session-builder.js";
import { TailKeeper } from "../bytes/tail-keeper.js";
import { Session, type LoadedSession } from "./loaded-session.js";

export type { LoadedSession };

const CHUNK_BYTES = SEARCH_CHUNK_BYTES;
/**
 * The chunk every synchronous read fills (one read runs at a time; the reader
 * copies what it keeps): listing thousands of files does not allocate a
 * chunk per file, which grew the C heap of the host (freed 1 MB buffers raise
 * glibc's mmap threshold, so later ones land in the heap and fragment it).
 * A chunk of the search memory when one is free (long lines read there are skimmed by its module).
 */
let syncChunk: Buffer | undefined;

/** The one error for a file that cannot be read at all (missing, permission, a directory). */
export function cannotRead(path: string, e: unknown): Error {
  const code = (e as { code?: unknown }).code;
  const why =
    code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "is a directory" : undefined;
  return new Error(`${path}: cannot read session file: ${why ?? (e instanceof Error ? e.message : String(e))}`);
}

interface ReadPlan {
  builder: SessionBuilder;
  reader: JsonlReader;
  tail: TailKeeper;
  skim: boolean;
}

export interface OpenOptions {
  /**
   * Skim long lines: read only the fields the index needs (the leading ones,
   * and a message's trailing usage/timestamp) and find the line's end with a
   * native byte search, without validating the content between. Several times
   * faster on big sessions; a line damaged only in its middle is then indexed
   * where pi would skip it. Default false (every byte checked, exactly as pi).
   */
  skim?: boolean;
  /**
   * A folder of index snapshots (index-snapshot.ts): a big file is opened from
   * its snapshot when the snapshot provably describes it (reading only what
   * was appended since), and a snapshot is written after a read from scratch.
   */
  snapshots?: IndexSnapshots;
}

function planRead(resume: ResumePoint | null, options: OpenOptions = {}, fileBytes?: number): ReadPlan {
  const builder = new SessionBuilder(resume?.snapshot, { skim: options.skim, fileBytes });
  const reader = new JsonlReader(builder, resume?.offset ?? 0, resume?.line ?? 1);
  return { builder, reader, tail: new TailKeeper(), skim: resume?.snapshot.skim ?? options.skim ?? false };
}

/** Reads of at least this many bytes leave shapeKeeper behind them (a big read's optimised code is worth keeping). */
const KEEP_SHAPES_FROM_BYTES = 1024 * 1024;

/**
 * An unused read plan (builder, index, columns, id table, reader, its line …),
 * made after each big read and held until the next. V8's optimised read code
 * holds the hidden classes of the objects it was compiled for only weakly:
 * when the last object of a class dies (a read's objects die with it), the
 * next full GC frees the class and throws that code away, and every read of a
 * big file compiled its hot loop again (tens of ms per open). Made after the
 * read, the plan has the classes that read ended with (fields widened during
 * it included). It shares no state with any read.
 */
const shapeKeeper: ReadPlan[] = [];

function keepShapesOf(plan: ReadPlan, bytesRead: number): void {
  if (bytesRead >= KEEP_SHAPES_FROM_BYTES) shapeKeeper[0] = planRead(null, { skim: plan.skim }, 0);
}

interface FileRead {
  size: number;
  head: { hash: string; length: number } | undefined;
  stat: { mtimeMs: number; ino: number; ctimeMs: number };
  /** The read started at `resume` (the tail is then read from the file, unless nothing was read). */
  resume: ResumePoint | null;
  snapshot: SnapshotMatch | null;
}

function finishRead(path: string, plan: ReadPlan, read: FileRead, options: OpenOptions): Session {
  const built = plan.builder.finish(plan.reader.end());
  keepShapesOf(plan, read.size - (read.resume?.offset ?? 0));
  const { size, stat, snapshot } = read;
  const fingerprint =
    snapshot !== null && size === snapshot.content.source.size
      ? { size, mtimeMs: stat.mtimeMs, tailHash: snapshot.content.source.tailHash, tailLength: snapshot.content.source.tailLength }
      : read.resume !== null
        ? fingerprintFileAt(path, size, stat.mtimeMs)
        : fingerprintOf(size, plan.tail.bytes, stat.mtimeMs);
  const session = new Session(path, built, new FileByteSource(path), fingerprint, built.resume);
  session.skimmed = plan.skim;
  session.fileStat = { ino: stat.ino, ctimeMs: stat.ctimeMs };
  const source = snapshot?.content.source;
  session.head = source ? { hash: source.headHash, length: source.headLength } : read.head;
  const store = options.snapshots;
  session.snapshots = store;
  session.openedFromSnapshot = snapshot !== null;
  if (store && built.resume !== null && size >= store.minFileBytes && (snapshot === null || (snapshot.grown && size - snapshot.content.source.size >= store.rewriteAppendedBytes))) {
    store.offer(() => snapshotContentOf(session), { path, skim: plan.skim });
  }
  return session;
}

/** Fingerprint for a size we read up to, computed from the file (a tail read began mid-file). */
function fingerprintFileAt(path: string, size: number, mtimeMs: number): FileFingerprint {
  const fd = openSync(path, "r");
  try {
    const tailLength = Math.min(FINGERPRINT_TAIL_BYTES, size);
    return fingerprintOf(size, readRange(fd, size - tailLength, tailLength), mtimeMs);
  } finally {
    closeSync(fd);
  }
}

/** Reads the file from `resume` (or the start) up to its size when opened. */
function readSyncFrom(path: string, resume: ResumePoint | null, options: OpenOptions = {}): Session {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw cannotRead(path, e);
  }
  let plan!: ReadPlan;
  let position = 0;
  let stat: ReturnType<typeof fstatSync>;
  let snapshot: SnapshotMatch | null = null;
  let head: { hash: string; length: number } | undefined;
  try {
    stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (resume === null && options.snapshots) {
      snapshot = options.snapshots.find(path, options.skim ?? false, fd, stat);
      resume = resumeFromSnapshot(snapshot);
    }
    plan = planRead(resume, options, stat.size);
    position = resume?.offset ?? 0;
    const buffer = (syncChunk ??= borrowSearchChunk() ?? Buffer.allocUnsafe(CHUNK_BYTES));
    while (position < stat.size) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, stat.size - position), position);
      if (n === 0) break;
      const chunk = buffer.subarray(0, n);
      if (position === 0) head = headOfChunk(chunk, stat.size);
      plan.reader.push(chunk);
      plan.tail.push(chunk);
      position += n;
    }
  } catch (e) {
    throw cannotRead(path, e);
  } finally {
    closeSync(fd);
  }
  return finishRead(path, plan, { size: position, head, stat, resume, snapshot }, options);
}

/**
 * `handOver`: a big file with no usable snapshot is first indexed by the
 * snapshots' builder (another process), then opened from the snapshot it
 * wrote, reading only what was appended since (or from scratch, when it wrote none).
 */
async function readAsyncFrom(path: string, resume: ResumePoint | null, options: OpenOptions = {}, handOver = true): Promise<Session> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (e) {
    throw cannotRead(path, e);
  }
  let plan!: ReadPlan;
  let position = 0;
  let stat: Awaited<ReturnType<typeof handle.stat>>;
  let snapshot: SnapshotMatch | null = null;
  let head: { hash: string; length: number } | undefined;
  let borrowed: Buffer | null = null;
  try {
    stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (resume === null && options.snapshots) {
      snapshot = options.snapshots.find(path, options.skim ?? false, handle.fd, stat);
      handOver &&= snapshot === null && options.snapshots.buildsElsewhere(path, stat.size);
      resume = resumeFromSnapshot(snapshot);
    } else handOver = false;
    plan = planRead(resume, options, stat.size);
    position = resume?.offset ?? 0;
    // A chunk of the search memory while the read lasts (long lines read there are skimmed by its module), else its own buffer.
    borrowed = handOver ? null : borrowSearchChunk();
    const buffer = borrowed ?? Buffer.allocUnsafe(handOver ? 0 : Math.min(CHUNK_BYTES, Math.max(1, stat.size - position)));
    while (!handOver && position < stat.size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, stat.size - position), position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (position === 0) head = headOfChunk(chunk, stat.size);
      plan.reader.push(chunk);
      plan.tail.push(chunk);
      position += bytesRead;
    }
  } catch (e) {
    throw cannotRead(path, e);
  } finally {
    if (borrowed) returnSearchChunk(borrowed);
    await handle.close();
  }
  if (handOver) {
    await options.snapshots!.buildElsewhere(path, options.skim ?? false, stat!.size);
    return readAsyncFrom(path, null, options, false);
  }
  return finishRead(path, plan, { size: position, head, stat, resume, snapshot }, options);
}

/** Streams the file into an index (bodies stay on disk). */
export function openSession(path: string, options: OpenOptions = {}): Promise<LoadedSession> {
  return readAsyncFrom(path, null, options);
}

export function openSessionSync(path: string, options: OpenOptions = {}): LoadedSession {
  return readSyncFrom(path, null, options);
}

/** A session from bytes in memory (kept as the body source); `path` is only used in messages. */
export function sessionFromBytes(bytes: Uint8Array, path?: string): LoadedSession {
  const plan = planRead(null);
  plan.reader.push(bytes);
  const built = plan.builder.finish(plan.reader.end());
  const tail = bytes.subarray(Math.max(0, bytes.length - FINGERPRINT_TAIL_BYTES));
  return new Session(path, built, new MemoryByteSource(bytes), fingerprintOf(bytes.length, tail), built.resume);
}

/** A session over a whole file's bytes (openSessionInMemory); a refresh reads the file anew, never appends to them. */
export function sessionOverFileBytes(path: string, bytes: Buffer, mtimeMs: number): LoadedSession {
  // The bytes are held for the bodies: the read also keeps what it vouches for about each line.
  const builder = new SessionBuilder(undefined, { lineFacts: true });
  const reader = new JsonlReader(builder);
  reader.push(bytes);
  const built = builder.finish(reader.end());
  const tail = bytes.subarray(Math.max(0, bytes.length - FINGERPRINT_TAIL_BYTES));
  const session = new Session(path, built, new MemoryByteSource(bytes), fingerprintOf(bytes.length, tail, mtimeMs), null);
  // One native pass (a few ms for 100 MB) instead of one per line read from these bytes.
  session.heldBytesAreUtf8 = isUtf8(bytes);
  return session;
}

/**
 * Brings a session up to date with its file: "unchanged" returns it as is;
 * "appended" reads only the new bytes, when the already-read prefix is
 * unchanged (tail hash) and the old read ended on a complete line, and extends
 * the SAME session in place (its index, diagnostics and body cache; nothing
 * read before is copied), so the cost follows the appended bytes, not the
 * file. Anything else re-reads the whole file into a new session ("rewritten").
 */
export async function refreshSession(
  s: LoadedSession,
): Promise<{ change: FileChange; session: LoadedSession }> {
  if (s.path === undefined) return { change: "unchanged", session: s };
  const path = s.path;
  let probe: AppendProbe;
  try {
    probe = probeAppend(path, s.fingerprint, s instanceof Session ? s.resume : null, s instanceof Session && s.fileStat.ino !== 0 ? s.fileStat.ino : undefined);
  } catch (e) {
    throw cannotRead(path, e);
  }
  if (probe.change === "unchanged") return { change: "unchanged", session: s };
  if (probe.change === "appended" && probe.appended !== undefined && s instanceof Session && s.resume !== null) {
    const resume = s.resume;
    // The resume snapshot is taken over: make sure nobody can use it twice.
    s.resume = null;
    const plan = planRead(resume);
    plan.reader.push(probe.appended);
    const built = plan.builder.finish(plan.reader.end());
    s.extended(built, probe.fingerprint);
    if (probe.stat) s.fileStat = probe.stat;
    return { change: "appended", session: s };
  }
  // Rewritten, or appended after a line we cannot continue from (incomplete last
  // line, a version 1/2 file): read it all again.
  const known = s instanceof Session ? s : undefined;
  return { change: probe.change, session: await readAsyncFrom(path, null, { skim: known?.skimmed ?? false, snapshots: known?.snapshots }) };
}

interface AppendProbe {
  change: FileChange;
  /** For "appended" from a resumable read: the new bytes, and the fingerprint after them. */
  appended?: Uint8Array;
  fingerprint: FileFingerprint;
  stat?: { ino: number; ctimeMs: number };
}

/** Appends larger than this are read again as a whole file (asynchronously) instead of in one synchronous read. */
const MAX_SYNC_APPEND = 16 * 1024 * 1024;

/**
 * One open of the file: how it changed since `fp`, and for a resumable append
 * the appended bytes (read synchronously: appends are small, and a thread-pool
 * round trip per read costs more than the read).
 */
function probeAppend(path: string, fp: FileFingerprint, resume: ResumePoint | null, ino: number | undefined): AppendProbe {
  const fd = openSync(path, "r");
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    // Another file at the same path (omp replaces a session by an atomic rename when it rewrites old
    // entries): whatever its bytes, it is read again, never continued from the old one's resume point.
    if (ino !== undefined && st.ino !== ino) return { change: "rewritten", fingerprint: fp };
    if (st.size < fp.size) return { change: "rewritten", fingerprint: fp };
    const oldTail = readRange(fd, fp.size - fp.tailLength, fp.tailLength);
    if (oldTail.length !== fp.tailLength || hashBytes(oldTail) !== fp.tailHash) return { change: "rewritten", fingerprint: fp };
    if (st.size === fp.size) return { change: st.mtimeMs === fp.mtimeMs ? "unchanged" : "rewritten", fingerprint: fp };
    const appendedLength = st.size - fp.size;
    if (resume === null || resume.offset !== fp.size || appendedLength > MAX_SYNC_APPEND) return { change: "appended", fingerprint: fp };
    const read = readRange(fd, fp.size, appendedLength);
    if (read.length !== appendedLength) return { change: "rewritten", fingerprint: fp };
    // A line still being written (pi's write seen half-way) waits for its newline: take complete lines only.
    const complete = read.lastIndexOf(0x0a) + 1;
    if (complete === 0) return { change: "unchanged", fingerprint: fp };
    const appended = read.subarray(0, complete);
    const tail =
      appended.length >= FINGERPRINT_TAIL_BYTES
        ? appended.subarray(appended.length - FINGERPRINT_TAIL_BYTES)
        : Buffer.concat([oldTail.subarray(Math.max(0, oldTail.length - (FINGERPRINT_TAIL_BYTES - appended.length))), appended]);
    return { change: "appended", appended, fingerprint: fingerprintOf(fp.size + complete, tail, st.mtimeMs), stat: { ino: st.ino, ctimeMs: st.ctimeMs } };
  } finally {
    closeSync(fd);
  }
}
