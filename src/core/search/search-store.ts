// The search index on disk, under `<cache>/search/`:
//   manifest.json     one row per session file (path → FileState + where its data is), written atomically (temp + rename);
//   seg-<id>.bin      immutable segments, each written once (temp + rename) by one update: all the
//                     normalized texts it produced, then the original texts, then the entry tables.
// A row's data of each kind is a list of chunks (segment, offset, length) read in order: a
// session read in full has one chunk per kind; an appended read adds one chunk per kind in the
// new segment. Few files are created (one per update, not per session), processes never
// write to the same file, and the manifest is the commit: a segment nobody refers to any
// more (a rewritten or deleted session, a process that lost the race to save) is deleted
// once it is old enough that no other process can be about to commit it. When rows are
// spread over too many segments, the fragmented rows are copied into a fresh one.
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FileState, TextEntry } from "./file-indexer";

/** 3: each message's entry carries its time (a hit shows when its message was written). */
const MANIFEST_VERSION = 3;
const MANIFEST = "manifest.json";
/** Files nobody references are deleted once older than this (another process may be about to commit them). */
const ORPHAN_AGE_MS = 10 * 60 * 1000;

export interface Chunk {
  seg: string;
  off: number;
  len: number;
}

export type DataKind = "norm" | "orig" | "ents";

export interface Row extends FileState {
  norm: Chunk[];
  orig: Chunk[];
  ents: Chunk[];
}

function validChunks(v: unknown): boolean {
  return Array.isArray(v) && v.every((c: Chunk) => c && typeof c.seg === "string" && /^[0-9a-f]{16}$/.test(c.seg) && Number.isInteger(c.off) && Number.isInteger(c.len));
}

/** Collects one update's data and writes it as one segment. Chunks it hands out get their offsets at flush. */
export class SegmentWriter {
  private parts: Record<DataKind, Buffer[]> = { norm: [], orig: [], ents: [] };
  private sizes: Record<DataKind, number> = { norm: 0, orig: 0, ents: 0 };
  private pending: { chunk: Chunk; kind: DataKind; rel: number }[] = [];
  private id: string;

  constructor(private readonly store: SearchStore) {
    this.id = store.newKey();
  }

  get bytes(): number {
    return this.sizes.norm + this.sizes.orig + this.sizes.ents;
  }

  /** A chunk for `bytes` (null for none); valid after flush(). */
  add(kind: DataKind, bytes: Buffer): Chunk | null {
    if (bytes.length === 0) return null;
    const chunk: Chunk = { seg: this.id, off: -1, len: bytes.length };
    this.pending.push({ chunk, kind, rel: this.sizes[kind] });
    this.parts[kind].push(bytes);
    this.sizes[kind] += bytes.length;
    return chunk;
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const base: Record<DataKind, number> = { norm: 0, orig: this.sizes.norm, ents: this.sizes.norm + this.sizes.orig };
    this.store.writeSegment(this.id, Buffer.concat([...this.parts.norm, ...this.parts.orig, ...this.parts.ents], this.bytes));
    for (const p of this.pending) p.chunk.off = base[p.kind] + p.rel;
    this.parts = { norm: [], orig: [], ents: [] };
    this.sizes = { norm: 0, orig: 0, ents: 0 };
    this.pending = [];
    this.id = this.store.newKey();
  }
}

export class SearchStore {
  /** Open segment files while reading (closed by closeSegments). */
  private readonly fds = new Map<string, number>();

  constructor(readonly dir: string) {}

  /** The rows on disk; an unreadable or foreign manifest reads as empty (everything is rebuilt). */
  load(): Map<string, Row> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(this.dir, MANIFEST), "utf8"));
    } catch {
      return new Map();
    }
    const m = parsed as { version?: unknown; rows?: unknown };
    if (m?.version !== MANIFEST_VERSION || typeof m.rows !== "object" || m.rows === null) return new Map();
    const rows = new Map<string, Row>();
    for (const [path, row] of Object.entries(m.rows as Record<string, Row>)) {
      if (row && typeof row.normBytes === "number" && validChunks(row.norm) && validChunks(row.orig) && validChunks(row.ents)) rows.set(path, row);
    }
    return rows;
  }

  /** When the manifest was last written (by any process); 0 when there is none. */
  manifestMtime(): number {
    try {
      return statSync(join(this.dir, MANIFEST)).mtimeMs;
    } catch {
      return 0;
    }
  }

  save(rows: ReadonlyMap<string, Row>): void {
    mkdirSync(this.dir, { recursive: true });
    const text = JSON.stringify({ version: MANIFEST_VERSION, rows: Object.fromEntries(rows) });
    const tmp = join(this.dir, `${MANIFEST}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(this.dir, MANIFEST));
  }

  newKey(): string {
    return randomBytes(8).toString("hex");
  }

  segmentPath(id: string): string {
    return join(this.dir, `seg-${id}.bin`);
  }

  writeSegment(id: string, bytes: Buffer): void {
    mkdirSync(this.dir, { recursive: true });
    const path = this.segmentPath(id);
    writeFileSync(`${path}.tmp`, bytes);
    renameSync(`${path}.tmp`, path);
  }

  private fd(seg: string): number | null {
    let fd = this.fds.get(seg);
    if (fd === undefined) {
      try {
        fd = openSync(this.segmentPath(seg), "r");
      } catch {
        return null;
      }
      this.fds.set(seg, fd);
    }
    return fd;
  }

  closeSegments(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** A row's data of one kind, `total` bytes; null when a segment is missing or short (the row must be rebuilt). */
  read(chunks: readonly Chunk[], total: number): Buffer | null {
    const out = Buffer.allocUnsafe(total);
    let at = 0;
    for (const c of chunks) {
      if (c.off < 0 || at + c.len > total) return null;
      const fd = this.fd(c.seg);
      if (fd === null) return null;
      let done = 0;
      while (done < c.len) {
        const n = readSync(fd, out, at + done, c.len - done, c.off + done);
        if (n === 0) return null;
        done += n;
      }
      at += c.len;
    }
    return at === total ? out : null;
  }

  readEntries(row: Row): TextEntry[] | null {
    const bytes = this.read(row.ents, row.entsBytes);
    if (!bytes) return null;
    const out: TextEntry[] = [];
    try {
      for (const line of bytes.toString("utf8").split("\n")) {
        if (!line) continue;
        const [id, role, lineNo, normStart, origUnit, origByte, origByteLength, time] = JSON.parse(line) as [string | null, string, number, number, number, number, number, number | null];
        out.push({ id, role, line: lineNo, normStart, origUnit, origByte, origByteLength, time: typeof time === "number" ? time : Number.NaN });
      }
    } catch {
      return null;
    }
    return out;
  }

  static encodeEntries(ents: readonly TextEntry[]): string {
    return ents.map((e) => `${JSON.stringify([e.id, e.role, e.line, e.normStart, e.origUnit, e.origByte, e.origByteLength, Number.isNaN(e.time) ? null : e.time])}\n`).join("");
  }

  /** Deletes segments no row refers to (older than a few minutes), and stale temp files. */
  collectGarbage(rows: ReadonlyMap<string, Row>, now = Date.now()): number {
    const live = new Set<string>();
    for (const row of rows.values()) for (const c of [...row.norm, ...row.orig, ...row.ents]) live.add(c.seg);
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const seg = /^seg-([0-9a-f]{16})\.bin$/.exec(name)?.[1];
      if (seg ? live.has(seg) : !name.endsWith(".tmp")) continue;
      const file = join(this.dir, name);
      try {
        if (now - statSync(file).mtimeMs < ORPHAN_AGE_MS) continue;
        if (seg) {
          const fd = this.fds.get(seg);
          if (fd !== undefined) closeSync(fd);
          this.fds.delete(seg);
        }
        unlinkSync(file);
        removed++;
      } catch {
        // Raced with another process: fine.
      }
    }
    return removed;
  }
}
