// Index snapshots: a cache folder of what reading big session files built (the
// index, diagnostics, the builder's resume point), so opening such a file again
// takes the snapshot instead of reading 100 MB. A snapshot is used only when
// the file is provably the one it was built from (same inode, size, mtime,
// ctime and hash of its last 4 KiB), or that file with lines appended (same
// inode, same hash of the 4 KiB before the snapshot's end): then only the
// appended bytes are read, as a live tail is. Anything else — a rewrite, a
// truncation, a damaged, old-format or foreign snapshot — is ignored and the
// file read from scratch (the snapshot then replaced). Snapshots are written
// after the result (the caller says when: `defer`), atomically (temp + rename),
// never for a read that cannot be resumed; failures to write are ignored (one
// log line). The folder is kept under a size bound, least recently used first out.

import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readdirSync, statSync, unlinkSync, utimesSync, type Stats } from "node:fs";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FINGERPRINT_TAIL_BYTES, hashBytes } from "../bytes/fingerprint.js";
import type { FileFingerprint } from "../bytes/fingerprint.js";
import { bytesOfFile, decodeSnapshot, snapshotRoom } from "./index-snapshot-decode.js";
import { encodeSnapshot, type SnapshotContent, type SnapshotSource } from "./index-snapshot-layout.js";
import { readRange } from "../bytes/read-range.js";
import type { ResumePoint } from "../index/session-builder.js";
import { SessionIndex } from "../index/session-index.js";

/** Files smaller than this are read from scratch (reading them costs less than a snapshot's upkeep). */
export const SNAPSHOT_MIN_FILE_BYTES = 8 * 1024 * 1024;
/** The folder's bound (total bytes of snapshots). */
export const SNAPSHOT_FOLDER_MAX_BYTES = 256 * 1024 * 1024;
/** A snapshot used for a grown file is replaced when at least this much was appended since. */
export const SNAPSHOT_REWRITE_APPENDED_BYTES = 1024 * 1024;
const SUFFIX = ".pisnap";
/** Temp files of writers that died are removed after this long. */
const STALE_TEMP_MS = 10 * 60 * 1000;

export interface IndexSnapshotOptions {
  minFileBytes?: number;
  rewriteAppendedBytes?: number;
  maxFolderBytes?: number;
  /** Runs a write later, off the path of the first result (default: the next turn of the event loop). */
  defer?: (write: () => void) => void;
  /** Told once, on the first failure to write (never on a snapshot that is not used). */
  log?: (line: string) => void;
  /**
   * Who builds snapshots in another process (index-child-client.ts), when
   * there is one now: a big file with no usable snapshot is then indexed and
   * snapshotted there, and opened here from the snapshot; rewrites go there too.
   */
  builder?: () => SnapshotBuilder | undefined;
}

/** What a builder is asked: the snapshot of `path`, with these rules. */
export interface SnapshotBuildRequest {
  path: string;
  skim: boolean;
  dir: string;
  minFileBytes: number;
  rewriteAppendedBytes: number;
  maxFolderBytes: number;
}

/** "unavailable": nothing was done (no process to do it); the caller does the work itself. */
export type SnapshotBuildResult = "written" | "current" | "not-written" | "unavailable";

export interface SnapshotBuilder {
  readonly available: boolean;
  /** Never rejects. */
  build(request: SnapshotBuildRequest): Promise<SnapshotBuildResult>;
}

/** What a matching snapshot gives a read: its content, and whether the file grew since. */
export interface SnapshotMatch {
  content: SnapshotContent;
  grown: boolean;
}


/** The bytes at both ends of what the snapshot read are still there. */
function sameEnds(fd: number, s: SnapshotSource): boolean {
  const tail = readRange(fd, s.size - s.tailLength, s.tailLength);
  if (tail.length !== s.tailLength || hashBytes(tail) !== s.tailHash) return false;
  const head = readRange(fd, 0, s.headLength);
  return head.length === s.headLength && hashBytes(head) === s.headHash;
}

export class IndexSnapshots {
  readonly minFileBytes: number;
  readonly rewriteAppendedBytes: number;
  /** What opens found (exact: the file as snapshotted; grown: appended since) and what was written. */
  readonly stats = { exact: 0, grown: 0, written: 0, builtElsewhere: 0 };
  private readonly maxFolderBytes: number;
  private readonly defer: (write: () => void) => void;
  private readonly pending = new Set<() => void>();
  private readonly running = new Set<Promise<void>>();
  /** The size at which the builder last wrote no snapshot of a file (not asked again at that size). */
  private readonly notBuilt = new Map<string, number>();
  private logged = false;

  constructor(
    readonly dir: string,
    private readonly options: IndexSnapshotOptions = {},
  ) {
    this.minFileBytes = options.minFileBytes ?? SNAPSHOT_MIN_FILE_BYTES;
    this.rewriteAppendedBytes = options.rewriteAppendedBytes ?? SNAPSHOT_REWRITE_APPENDED_BYTES;
    this.maxFolderBytes = options.maxFolderBytes ?? SNAPSHOT_FOLDER_MAX_BYTES;
    this.defer = options.defer ?? ((write) => void setTimeout(write, 0));
  }

  fileOf(path: string, skim: boolean): string {
    const key = createHash("sha256").update(path).digest("hex").slice(0, 40);
    return join(this.dir, `${key}-${skim ? "skim" : "exact"}${SUFFIX}`);
  }

  /** The snapshot that describes the open file `fd` (stat `st`) now, or null (none, or not provably its). */
  find(path: string, skim: boolean, fd: number, st: Stats): SnapshotMatch | null {
    if (st.size < this.minFileBytes) return null;
    const file = this.fileOf(path, skim);
    let content: SnapshotContent | string;
    try {
      // Read section by section into the arrays the index will own (no buffer of the whole file).
      const snapshotFd = openSync(file, "r");
      try {
        content = decodeSnapshot(bytesOfFile(snapshotFd, fstatSync(snapshotFd).size));
      } finally {
        closeSync(snapshotFd);
      }
    } catch {
      return null;
    }
    if (typeof content === "string") return null;
    const s = content.source;
    if (s.path !== path || s.skim !== skim || content.builder.skim !== skim || s.ino !== st.ino || st.size < s.size) return null;
    if (content.resume.offset !== s.size || s.tailLength !== Math.min(FINGERPRINT_TAIL_BYTES, s.size) || s.headLength > s.size) return null;
    const grown = st.size > s.size;
    if (!grown && (st.mtimeMs !== s.mtimeMs || st.ctimeMs !== s.ctimeMs)) return null;
    if (!sameEnds(fd, s)) return null;
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // Only the eviction order suffers.
    }
    this.stats[grown ? "grown" : "exact"]++;
    return { content, grown };
  }

  /**
   * Whether a file of `size` bytes with no usable snapshot is indexed by the
   * builder (another process): not when the builder wrote none for it at that
   * size (a file that cannot be continued from, e.g. a version 1 file: the
   * caller reads it, as it would have).
   */
  buildsElsewhere(path: string, size: number): boolean {
    return size >= this.minFileBytes && this.notBuilt.get(path) !== size && this.builder() !== undefined;
  }

  /** Has the builder write the snapshot of `path` of `size` bytes ("unavailable" when there is none now). */
  async buildElsewhere(path: string, skim: boolean, size?: number): Promise<SnapshotBuildResult> {
    const builder = this.builder();
    if (!builder) return "unavailable";
    const result = await builder.build({ path, skim, dir: this.dir, minFileBytes: this.minFileBytes, rewriteAppendedBytes: this.rewriteAppendedBytes, maxFolderBytes: this.maxFolderBytes });
    if (result === "written") this.stats.builtElsewhere++;
    if (result === "not-written" && size !== undefined) this.notBuilt.set(path, size);
    else this.notBuilt.delete(path);
    return result;
  }

  /** The builder there is now, available or not. */
  get elsewhere(): SnapshotBuilder | undefined {
    return this.options.builder?.();
  }

  private builder(): SnapshotBuilder | undefined {
    const builder = this.options.builder?.();
    return builder?.available ? builder : undefined;
  }

  /**
   * Writes the snapshot `take()` gives when it runs (later, see `defer`): the
   * state then, so a session extended in the meantime is written as it is.
   * Given the file (`of`), a builder writes it when there is one (it reads
   * the file itself); this process encodes it only when there is none.
   */
  offer(take: () => SnapshotContent | null, of?: { path: string; skim: boolean }): void {
    const job = (): void => {
      if (!this.pending.delete(job)) return;
      const write = async (): Promise<void> => {
        if (of && (await this.buildElsewhere(of.path, of.skim)) !== "unavailable") return;
        await this.write(take);
      };
      const done = write().finally(() => this.running.delete(done));
      this.running.add(done);
    };
    this.pending.add(job);
    this.defer(job);
  }

  /** Runs the writes still waiting, and waits for every write to end. */
  async flush(): Promise<void> {
    for (const job of [...this.pending]) job();
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private async write(take: () => SnapshotContent | null): Promise<void> {
    let temp: string | undefined;
    try {
      const content = take();
      if (content === null || !this.stillDescribes(content.source)) return;
      const bytes = Buffer.concat(encodeSnapshot(content));
      await mkdir(this.dir, { recursive: true });
      const file = this.fileOf(content.source.path, content.source.skim);
      temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(temp, bytes, { flag: "wx" });
      await rename(temp, file);
      temp = undefined;
      this.stats.written++;
      this.bound(file);
    } catch (e) {
      if (temp !== undefined) await unlink(temp).catch(() => undefined);
      if (!this.logged) {
        this.logged = true;
        this.options.log?.(`index snapshot not written in ${this.dir}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  /** The file is still the one read (same inode, the bytes read unchanged at their end). */
  private stillDescribes(s: SnapshotSource): boolean {
    let fd: number;
    try {
      fd = openSync(s.path, "r");
    } catch {
      return false;
    }
    try {
      const st = fstatSync(fd);
      if (st.ino !== s.ino || st.size < s.size) return false;
      return sameEnds(fd, s);
    } finally {
      closeSync(fd);
    }
  }

  /** Removes the least recently used snapshots (and stale temp files) over the bound; `keep` stays. */
  private bound(keep: string): void {
    const files: { path: string; size: number; used: number }[] = [];
    const now = Date.now();
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name);
      try {
        const st = statSync(path);
        if (name.endsWith(".tmp")) {
          if (now - st.mtimeMs > STALE_TEMP_MS) unlinkSync(path);
        } else if (name.endsWith(SUFFIX)) files.push({ path, size: st.size, used: st.mtimeMs });
      } catch {
        // Gone meanwhile (another process).
      }
    }
    let total = files.reduce((sum, f) => sum + f.size, 0);
    files.sort((a, b) => a.used - b.used);
    for (const f of files) {
      if (total <= this.maxFolderBytes) break;
      if (f.path === keep) continue;
      try {
        unlinkSync(f.path);
        total -= f.size;
      } catch {
        // Another process removed it.
      }
    }
  }
}

/** What a read of a file knows that a snapshot of it needs (a loaded session, as it is now). */
export interface SnapshottableRead {
  path: string | undefined;
  resume: ResumePoint | null;
  fingerprint: FileFingerprint;
  fileStat: { ino: number; ctimeMs: number };
  head: { hash: string; length: number } | undefined;
}

/** What an index snapshot of the session as it is now holds (null when its read cannot be continued). */
export function snapshotContentOf(s: SnapshottableRead): SnapshotContent | null {
  const r = s.resume;
  const fp = s.fingerprint;
  if (r === null || s.path === undefined || r.offset !== fp.size || s.head === undefined) return null;
  const { index, ...builder } = r.snapshot;
  return {
    source: { path: s.path, skim: builder.skim, size: fp.size, mtimeMs: fp.mtimeMs, ctimeMs: s.fileStat.ctimeMs, ino: s.fileStat.ino, tailHash: fp.tailHash, tailLength: fp.tailLength, headHash: s.head.hash, headLength: s.head.length },
    resume: { offset: r.offset, line: r.line },
    builder,
    index: index.exportState(),
  };
}

/** The hash of a file's first ≤ 4 KiB from its first chunk read, when that chunk holds them. */
export function headOfChunk(chunk: Uint8Array, size: number): { hash: string; length: number } | undefined {
  const length = Math.min(FINGERPRINT_TAIL_BYTES, size);
  return chunk.length >= length ? { hash: hashBytes(chunk.subarray(0, length)), length } : undefined;
}

/**
 * The resume point a snapshot holds (its index taken over by the read that continues from it).
 * The decoded arrays are the index's own, its columns already with room for appends (a live
 * session's first append would otherwise double every column); the id table gets its room here.
 */
export function resumeFromSnapshot(match: SnapshotMatch | null): ResumePoint | null {
  if (match === null) return null;
  const { content } = match;
  const index = new SessionIndex([], content.index);
  const count = content.index.columns.count;
  index.reserve(count + snapshotRoom(count));
  return { offset: content.resume.offset, line: content.resume.line, snapshot: { ...content.builder, index } };
}
