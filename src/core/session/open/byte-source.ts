// Where an entry's bytes come from when its body is needed: the index keeps
// metas only, and bodies are parsed on demand from the line's bytes, read from
// memory or from the file by offset. An LRU cache bounded by line bytes keeps
// recent bodies, so asking for the same entries again does not parse again; a
// batch larger than that bound (a whole branch of a big session: a compaction,
// an export) is read through without being kept, since only its tail would fit
// and it would push out what the views asked for.

import { closeSync, openSync } from "node:fs";
import { readRange } from "../bytes/read-range.js";
import type { EntryLocation, LineLocation } from "../format/entry-meta.js";
import { ByteBoundedLru } from "../bytes/byte-bounded-lru.js";
import { asBuffer } from "../bytes/jsonl-reader.js";
import type { SessionEntry } from "../format/types.js";

export interface ByteSource {
  /**
   * Bytes [offset, offset + length); throws an Error naming the file when it cannot read them all.
   * With `scratch`, a copy may be read into it (valid until the next read into it).
   */
  read(offset: number, length: number, scratch?: Buffer): Uint8Array;
}

export class MemoryByteSource implements ByteSource {
  constructor(private readonly bytes: Uint8Array) {}

  read(offset: number, length: number): Uint8Array {
    if (offset + length > this.bytes.length) throw new Error(`read past the end of the session bytes (${offset}+${length})`);
    return this.bytes.subarray(offset, offset + length);
  }
}

/** Lines are read in blocks of this size, so visiting entries in file order costs one read per block. */
const READ_BLOCK = 256 * 1024;

export class FileByteSource implements ByteSource {
  private block: { offset: number; bytes: Uint8Array } | null = null;

  constructor(readonly path: string) {}

  read(offset: number, length: number, scratch?: Buffer): Uint8Array {
    const cached = this.block;
    if (cached && offset >= cached.offset && offset + length <= cached.offset + cached.bytes.length) {
      return cached.bytes.subarray(offset - cached.offset, offset - cached.offset + length);
    }
    if (length >= READ_BLOCK) return this.readExactly(offset, length, scratch);
    const blockStart = offset - (offset % READ_BLOCK);
    const blockLength = offset + length - blockStart <= READ_BLOCK ? READ_BLOCK : offset + length - blockStart;
    const bytes = this.readUpTo(blockStart, blockLength);
    if (offset + length > blockStart + bytes.length) {
      throw new Error(`${this.path}: the file is shorter than when it was read (it changed); reload it`);
    }
    this.block = { offset: blockStart, bytes };
    return bytes.subarray(offset - blockStart, offset - blockStart + length);
  }

  private readExactly(offset: number, length: number, scratch?: Buffer): Uint8Array {
    const bytes = this.readUpTo(offset, length, scratch);
    if (bytes.length < length) throw new Error(`${this.path}: the file is shorter than when it was read (it changed); reload it`);
    return bytes;
  }

  /** Up to `length` bytes at `offset` (fewer at the end of the file). */
  private readUpTo(offset: number, length: number, scratch?: Buffer): Uint8Array {
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch (e) {
      throw new Error(`${this.path}: cannot open session file: ${e instanceof Error ? e.message : String(e)}`);
    }
    try {
      return readRange(fd, offset, length, scratch);
    } finally {
      closeSync(fd);
    }
  }
}

/** Ranges closer than this are read in one go when many bodies are needed. */
const COALESCE_GAP = 64 * 1024;
const MAX_BLOCK = 8 * 1024 * 1024;

/** Line bytes of parsed bodies kept by default (parsed, they take roughly 2–3× that on the heap). */
export const DEFAULT_BODY_CACHE_BYTES = 16 * 1024 * 1024;

/** Parses entry bodies from their line bytes, checking each still holds the entry the index expects. */
export class EntryBodies {
  /** By line offset, least recently used first. */
  private readonly cache: ByteBoundedLru<SessionEntry>;

  constructor(
    private readonly source: ByteSource,
    private readonly describeSource: string,
    private readonly maxBytes = DEFAULT_BODY_CACHE_BYTES,
  ) {
    this.cache = new ByteBoundedLru(maxBytes);
  }

  /** Line bytes of the bodies held now. */
  get heldBytes(): number {
    return this.cache.heldBytes;
  }

  /** The text of a line (without its line break). */
  rawText(loc: LineLocation): string {
    return asBuffer(this.source.read(loc.offset, loc.length)).toString("utf8");
  }

  entry(meta: EntryLocation): SessionEntry {
    const cached = this.recall(meta);
    if (cached) return cached;
    const entry = this.parse(meta, this.source.read(meta.offset, meta.length), meta.offset);
    this.remember(meta, entry);
    return entry;
  }

  /** Bodies of many entries, in the order given; nearby lines are read together. Kept when they all fit in the cache. */
  entries(metas: readonly EntryLocation[]): SessionEntry[] {
    const out = new Array<SessionEntry>(metas.length);
    const missing: number[] = [];
    for (let i = 0; i < metas.length; i++) {
      const cached = this.recall(metas[i]!);
      if (cached) out[i] = cached;
      else missing.push(i);
    }
    const order = missing.sort((a, b) => metas[a]!.offset - metas[b]!.offset);
    let missingBytes = 0;
    for (const i of order) missingBytes += metas[i]!.length;
    const remember = missingBytes <= this.maxBytes;
    // Read into one buffer when the batch spans several blocks (a branch of 100 MB: a dozen of 8 MB):
    // a new buffer per block left glibc's heap holding ~50 MB after the batch was gone.
    let scratch: Buffer | undefined;
    let i = 0;
    while (i < order.length) {
      const first = metas[order[i]!]!;
      const blockStart = first.offset;
      let blockEnd = first.offset + first.length;
      let j = i + 1;
      while (j < order.length) {
        const m = metas[order[j]!]!;
        const end = m.offset + m.length;
        if (m.offset - blockEnd > COALESCE_GAP || end - blockStart > MAX_BLOCK) break;
        blockEnd = Math.max(blockEnd, end);
        j++;
      }
      if (scratch === undefined && missingBytes > MAX_BLOCK && blockEnd - blockStart >= READ_BLOCK) scratch = Buffer.allocUnsafeSlow(MAX_BLOCK);
      const block = this.source.read(blockStart, blockEnd - blockStart, scratch);
      for (let k = i; k < j; k++) {
        const m = metas[order[k]!]!;
        const entry = this.parse(m, block, blockStart);
        if (remember) this.remember(m, entry);
        out[order[k]!] = entry;
      }
      i = j;
    }
    return out;
  }

  /**
   * Bodies of many entries handed to `visit` in the order given, not kept:
   * consecutive lines close together in the file are read together.
   */
  each(metas: readonly EntryLocation[], visit: (entry: SessionEntry, position: number) => void): void {
    // One buffer for the blocks of this pass, as in entries() (a visit that reads more gets its own).
    let total = 0;
    for (const m of metas) total += m.length;
    let scratch: Buffer | undefined;
    let i = 0;
    while (i < metas.length) {
      const blockStart = metas[i]!.offset;
      let blockEnd = blockStart + metas[i]!.length;
      let j = i + 1;
      for (; j < metas.length; j++) {
        const m = metas[j]!;
        if (m.offset < blockEnd || m.offset - blockEnd > COALESCE_GAP || m.offset + m.length - blockStart > MAX_BLOCK) break;
        blockEnd = m.offset + m.length;
      }
      if (scratch === undefined && total > MAX_BLOCK && blockEnd - blockStart >= READ_BLOCK) scratch = Buffer.allocUnsafeSlow(MAX_BLOCK);
      const block = this.source.read(blockStart, blockEnd - blockStart, scratch);
      for (let k = i; k < j; k++) {
        const m = metas[k]!;
        visit(this.recall(m) ?? this.parse(m, block, blockStart), k);
      }
      i = j;
    }
  }

  private recall(meta: EntryLocation): SessionEntry | undefined {
    return this.cache.get(meta.offset);
  }

  private remember(meta: EntryLocation, entry: SessionEntry): void {
    if (meta.length > this.maxBytes / 4) return;
    this.cache.set(meta.offset, entry, meta.length);
  }

  private parse(meta: EntryLocation, bytes: Uint8Array, bytesOffset: number): SessionEntry {
    const start = meta.offset - bytesOffset;
    const text = asBuffer(bytes).toString("utf8", start, start + meta.length);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      try {
        // The first or last line may have been accepted after pi's whole-text trim.
        value = JSON.parse(text.trim());
      } catch {
        value = undefined;
      }
    }
    if (typeof value !== "object" || value === null || (value as { id?: unknown }).id !== meta.id) {
      throw new Error(
        `${this.describeSource}: line ${meta.line} no longer holds entry ${meta.id} (the file changed since it was read); reload it`,
      );
    }
    return value as SessionEntry;
  }
}
