// The search index on disk, under `<cache>/search/`:
//   manifest.json   one row per session file (path → FileState + data key), written atomically (temp + rename);
//   <key>.norm      the session's message text, lowercased and whitespace-normalized (UTF-8), append-only;
//   <key>.orig      the same text as pi joins it (UTF-8), append-only;
//   <key>.ents      one JSON line per message with text (TextEntry), append-only.
// The manifest is the commit record: only the data sizes it names count, so a
// crash between writes leaves bytes that are ignored and later overwritten.
// Appends write at the committed position (not O_APPEND): two processes
// indexing the same appended bytes write the same bytes at the same place.
// A rewritten session gets a new key; unreferenced data files are deleted later.
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { FileState, TextEntry } from "./file-indexer";

const MANIFEST_VERSION = 1;
const MANIFEST = "manifest.json";
/** Data files nobody references are deleted once older than this (another process may be about to commit them). */
const ORPHAN_AGE_MS = 10 * 60 * 1000;

export interface Row extends FileState {
  key: string;
}

export type DataKind = "norm" | "orig" | "ents";

/**
 * All rows' normalized texts in one file (norm-pack-<id>.bin, indexed by norm-pack.json):
 * a read-optimised copy, so a search reads one file instead of one per session. A row
 * uses it only while its key and size still match; the per-session files stay the truth.
 */
export interface NormPack {
  id: string;
  bytes: Buffer;
  entries: Map<string, [number, number]>;
}

const PACK_INDEX = "norm-pack.json";

export class SearchStore {
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
      if (row && typeof row.key === "string" && /^[0-9a-f]{16}$/.test(row.key) && typeof row.normBytes === "number") rows.set(path, row);
    }
    return rows;
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

  path(key: string, kind: DataKind): string {
    return join(this.dir, `${key}.${kind}`);
  }

  /** Writes `bytes` at `position` of the data file (created when missing; nothing is created for no bytes). */
  write(key: string, kind: DataKind, position: number, bytes: Buffer): void {
    if (bytes.length === 0) return;
    const file = this.path(key, kind);
    let fd: number;
    if (position === 0) {
      try {
        fd = openSync(file, "w");
      } catch {
        mkdirSync(this.dir, { recursive: true });
        fd = openSync(file, "w");
      }
    } else {
      fd = openSync(file, "r+");
    }
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
    } finally {
      closeSync(fd);
    }
  }

  /** The committed bytes of a data file; null when it is missing or shorter (the row must be rebuilt). */
  read(key: string, kind: DataKind, length: number): Buffer | null {
    return length === 0 ? Buffer.alloc(0) : this.readRange(key, kind, 0, length);
  }

  /** `length` bytes at `position` of a data file; null when they are not all there. */
  readRange(key: string, kind: DataKind, position: number, length: number): Buffer | null {
    let fd: number;
    try {
      fd = openSync(this.path(key, kind), "r");
    } catch {
      return null;
    }
    try {
      const out = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, out, done, length - done, position + done);
        if (n === 0) return null;
        done += n;
      }
      return out;
    } finally {
      closeSync(fd);
    }
  }

  readEntries(row: Row): TextEntry[] | null {
    const bytes = this.read(row.key, "ents", row.entsBytes);
    if (!bytes) return null;
    const out: TextEntry[] = [];
    try {
      for (const line of bytes.toString("utf8").split("\n")) {
        if (!line) continue;
        const [id, role, lineNo, normStart, origUnit, origByte, origByteLength] = JSON.parse(line) as [string | null, string, number, number, number, number, number];
        out.push({ id, role, line: lineNo, normStart, origUnit, origByte, origByteLength });
      }
    } catch {
      return null;
    }
    return out;
  }

  static encodeEntries(ents: readonly TextEntry[]): string {
    return ents.map((e) => `${JSON.stringify([e.id, e.role, e.line, e.normStart, e.origUnit, e.origByte, e.origByteLength])}\n`).join("");
  }

  loadPack(): NormPack | null {
    try {
      const index = JSON.parse(readFileSync(join(this.dir, PACK_INDEX), "utf8")) as { version?: unknown; id?: unknown; size?: unknown; entries?: Record<string, [number, number]> };
      if (index.version !== MANIFEST_VERSION || typeof index.id !== "string" || !/^[0-9a-f]{16}$/.test(index.id) || !index.entries) return null;
      const bytes = readFileSync(join(this.dir, `norm-pack-${index.id}.bin`));
      if (bytes.length !== index.size) return null;
      return { id: index.id, bytes, entries: new Map(Object.entries(index.entries)) };
    } catch {
      return null;
    }
  }

  /** Writes a new pack of the rows' normalized texts (rows whose files are missing are left out). */
  writePack(rows: ReadonlyMap<string, Row>): NormPack {
    mkdirSync(this.dir, { recursive: true });
    const id = this.newKey();
    const parts: Buffer[] = [];
    const entries = new Map<string, [number, number]>();
    let size = 0;
    for (const row of rows.values()) {
      if (row.normBytes === 0 || entries.has(row.key)) continue;
      const bytes = this.read(row.key, "norm", row.normBytes);
      if (!bytes) continue;
      entries.set(row.key, [size, bytes.length]);
      parts.push(bytes);
      size += bytes.length;
    }
    const bytes = Buffer.concat(parts, size);
    const bin = join(this.dir, `norm-pack-${id}.bin`);
    writeFileSync(`${bin}.tmp`, bytes);
    renameSync(`${bin}.tmp`, bin);
    const tmp = join(this.dir, `${PACK_INDEX}.${process.pid}.${id}.tmp`);
    writeFileSync(tmp, JSON.stringify({ version: MANIFEST_VERSION, id, size, entries: Object.fromEntries(entries) }));
    renameSync(tmp, join(this.dir, PACK_INDEX));
    // Older packs: readers that loaded one hold its bytes in memory already.
    for (const name of readdirSync(this.dir)) {
      if (/^norm-pack-[0-9a-f]{16}\.bin$/.test(name) && name !== `norm-pack-${id}.bin`) {
        try {
          unlinkSync(join(this.dir, name));
        } catch {
          // Gone already.
        }
      }
    }
    return { id, bytes, entries };
  }

  remove(key: string): void {
    for (const kind of ["norm", "orig", "ents"] as const) {
      try {
        unlinkSync(this.path(key, kind));
      } catch {
        // Already gone.
      }
    }
  }

  /** Deletes data files no row refers to (older than a few minutes), and stale temp files. */
  collectGarbage(rows: ReadonlyMap<string, Row>, now = Date.now()): number {
    const live = new Set<string>();
    for (const row of rows.values()) live.add(row.key);
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const m = /^([0-9a-f]{16})\.(norm|orig|ents)$/.exec(name) ?? /^((?:manifest|norm-pack)\.json\.|norm-pack-).*\.tmp$/.exec(name);
      if (!m || live.has(m[1]!)) continue;
      const file = join(this.dir, name);
      try {
        if (now - statSync(file).mtimeMs < ORPHAN_AGE_MS) continue;
        unlinkSync(file);
        removed++;
      } catch {
        // Raced with another process: fine.
      }
    }
    return removed;
  }
}
