// Reading an index snapshot (layout: index-snapshot-layout.ts) section by
// section, each into an array of its own (the columns with room for appends),
// which the opened index then owns: no buffer of the whole file is made, nor
// copied from. Decoding checks the checksum and every structural invariant the
// index relies on (positions in range, a hash table with a free slot, …): a
// damaged, old or foreign file is rejected, never half-trusted.

import { createHash } from "node:crypto";
import { readSync } from "node:fs";
import { endianness } from "node:os";
import { deserialize } from "node:v8";
import type { ColumnsState, RareFields } from "../index/entry-columns.js";
import { BYTES, CHECKSUM_BYTES, ISO_LENGTH, MAGIC, pad8, SNAPSHOT_FORMAT_VERSION, SPEND_WIDTH, type Header, type SnapshotContent } from "./index-snapshot-layout.js";
import type { IndexState } from "../index/session-index.js";

class Rejected extends Error {}

function check(ok: boolean, why: string): asserts ok {
  if (!ok) throw new Rejected(why);
}

/** Where a snapshot's bytes come from: `read` fills `into` from `position`, or throws. */
export interface SnapshotBytes {
  size: number;
  read(into: Uint8Array, position: number): void;
}

/** The first `size` bytes of an open file. */
export function bytesOfFile(fd: number, size: number): SnapshotBytes {
  return {
    size,
    read(into, position) {
      check(position + into.length <= size, "cut short");
      for (let done = 0; done < into.length; ) {
        const n = readSync(fd, into, done, into.length - done, position + done);
        check(n > 0, "cut short");
        done += n;
      }
    },
  };
}

function bytesOfBuffer(file: Buffer): SnapshotBytes {
  return {
    size: file.length,
    read(into, position) {
      check(position + into.length <= file.length, "cut short");
      into.set(file.subarray(position, position + into.length));
    },
  };
}

/** Room a column gets past the snapshot's entries (what a live session's appends fill without growing). */
export function snapshotRoom(count: number): number {
  return Math.max(1024, Math.ceil(count / 32));
}

/** The columns read with room (elements per entry); lines, offsets and lengths get theirs as Float64Arrays (f64 below). */
const ROOMY: Record<string, number> = { parents: 1, times: 1, stamps: ISO_LENGTH, activity: 1, spends: SPEND_WIDTH, flags: 1, lines: 1, offsets: 1, lengths: 1 };

/** The content of snapshot bytes (a file's, or in memory), or why they are not a usable snapshot. */
export function decodeSnapshot(file: Buffer | SnapshotBytes): SnapshotContent | string {
  try {
    return decode(Buffer.isBuffer(file) ? bytesOfBuffer(file) : file);
  } catch (e) {
    return e instanceof Rejected ? e.message : `unreadable: ${e instanceof Error ? e.message : String(e)}`;
  }
}

type View = ArrayBufferView & ArrayLike<number>;

/** The checked bytes: the header, and each section in an array of its own (`length`: its elements in the file). */
function readSections(src: SnapshotBytes): { header: Header; section: Map<string, { view: View; length: number }> } {
  const start = Buffer.alloc(MAGIC.length + 8);
  check(src.size >= start.length + CHECKSUM_BYTES, "not an index snapshot");
  src.read(start, 0);
  check(start.subarray(0, MAGIC.length).equals(MAGIC), "not an index snapshot");
  check(start.readUInt32LE(MAGIC.length) === SNAPSHOT_FORMAT_VERSION, "another format version");
  const body = src.size - CHECKSUM_BYTES;
  const headerEnd = start.length + start.readUInt32LE(MAGIC.length + 4);
  const base = pad8(headerEnd);
  check(base <= body, "header out of bounds");
  const prefix = Buffer.alloc(base);
  src.read(prefix, 0);
  const hash = createHash("sha256").update(prefix);
  // Not trusted before the checksum matches: only bounds are taken from it until then.
  const header = JSON.parse(prefix.toString("utf8", start.length, headerEnd)) as Header;
  // Each entry takes bytes in the file: a count beyond them (damage) allocates no room.
  check(header !== null && typeof header === "object" && Array.isArray(header.sections) && Number.isSafeInteger(header.count) && header.count >= 0 && header.count <= body, "header");
  const room = snapshotRoom(header.count);
  // The sections tile the body in order (as encodeSnapshot writes them): reading them reads (and hashes) every byte.
  let at = 0;
  for (const s of header.sections) {
    const width = BYTES[s.kind];
    check(width !== undefined && s.offset === at && Number.isSafeInteger(s.length) && s.length >= 0, `bad section ${s.name}`);
    at += pad8(s.length * width);
    check(base + at <= body, `section ${s.name} out of bounds`);
  }
  check(base + at === body, "sections do not fill the snapshot");
  const section = new Map<string, { view: View; length: number }>();
  const padding = Buffer.alloc(8);
  let position = base;
  for (const s of header.sections) {
    const per = ROOMY[s.name];
    const capacity = s.length + (per !== undefined && s.kind !== "u32" ? room * per : 0);
    const view: View =
      s.kind === "i32" ? new Int32Array(capacity)
      : s.kind === "f64" ? new Float64Array(capacity)
      : s.kind === "u32" ? new Uint32Array(capacity)
      : new Uint8Array(capacity);
    const bytes = new Uint8Array(view.buffer, 0, s.length * BYTES[s.kind]);
    src.read(bytes, position);
    hash.update(bytes);
    const pad = padding.subarray(0, pad8(bytes.length) - bytes.length);
    src.read(pad, position + bytes.length);
    hash.update(pad);
    position += bytes.length + pad.length;
    section.set(s.name, { view, length: s.length });
  }
  const checksum = Buffer.alloc(CHECKSUM_BYTES);
  src.read(checksum, body);
  check(hash.digest().equals(checksum), "checksum mismatch");
  return { header, section };
}

function decode(src: SnapshotBytes): SnapshotContent {
  const { header, section } = readSections(src);
  check(header.endian === endianness(), "other byte order");
  const n = header.count;
  const room = snapshotRoom(n);
  const sized = (name: string, length: number): View => {
    const s = section.get(name);
    check(s !== undefined && s.length === length, `section ${name} missing or of the wrong length`);
    return s.view;
  };
  /** The section's first `length` elements (a column's room left out). */
  const get = (name: string, length: number): View => {
    const v = sized(name, length);
    return v.length === length ? v : ((v as Uint8Array).subarray(0, length) as View);
  };
  /** A Float64 column with room (stored as u32 when its values fit). */
  const f64 = (name: string): Float64Array => {
    const v = sized(name, n);
    if (v instanceof Float64Array) return v;
    const wide = new Float64Array(n + room);
    wide.set(v as Uint32Array);
    return wide;
  };
  const parents = sized("parents", n) as Int32Array;
  check(parents instanceof Int32Array, "parents");
  const times = sized("times", n) as Float64Array;
  const activity = sized("activity", n) as Float64Array;
  const spends = sized("spends", n * SPEND_WIDTH) as Float64Array;
  check(times instanceof Float64Array && activity instanceof Float64Array && spends instanceof Float64Array, "float columns");
  const stamps = sized("stamps", n * ISO_LENGTH) as Uint8Array;
  const flags = sized("flags", n) as Uint8Array;
  const idLengths = get("idLengths", n) as Uint32Array;
  const slots = section.get("slots")?.view;
  const hashes = get("hashes", n);
  check(slots instanceof Int32Array && hashes instanceof Int32Array, "id table");

  const o = deserialize(get("objects", section.get("objects")?.length ?? -1) as Uint8Array) as Omit<IndexState, "columns" | "idTable"> & {
    builder: SnapshotContent["builder"];
    rare: Map<number, RareFields>;
  };
  check(o !== null && typeof o === "object" && o.rare instanceof Map && o.labels instanceof Map && Array.isArray(o.duplicateDiagnostics), "objects");
  const bs = o.builder;
  check(bs !== null && typeof bs === "object" && Array.isArray(bs.diagnostics) && bs.unknown?.entryTypes instanceof Set && bs.unknown.messageRoles instanceof Set, "builder state");
  check(typeof o.messages === "number" && typeof o.activity === "number" && typeof o.spent === "object" && o.spent !== null, "totals");

  const typeCodes = get("types", n);
  const roleCodes = get("roles", n);
  check(Array.isArray(header.types) && Array.isArray(header.roles), "string tables");
  const types = new Array<string>(n);
  const roles = new Array<string | undefined>(n);
  for (let i = 0; i < n; i++) {
    const t = header.types[typeCodes[i]!];
    check(typeof t === "string", "type code");
    types[i] = t;
    const r = header.roles[roleCodes[i]!];
    check(r !== undefined, "role code");
    roles[i] = r ?? undefined;
  }

  const chars = section.get("idChars")?.view as Uint8Array | undefined;
  check(chars !== undefined, "ids");
  const text = Buffer.from(chars.buffer, chars.byteOffset, chars.byteLength).toString(header.idEncoding === "latin1" ? "latin1" : "utf16le");
  const ids = new Array<string>(n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const end = at + idLengths[i]!;
    ids[i] = text.substring(at, end);
    at = end;
  }
  check(at === text.length, "id lengths");

  for (let i = 0; i < n; i++) {
    const p = parents[i]!;
    check(p >= -2 && p < i, "parent position");
    check(flags[i]! <= 3, "flags");
    if (p === -2) check(typeof o.rare.get(i)?.parentText === "string", "parent text");
    if (Number.isNaN(times[i]!)) check(typeof o.rare.get(i)?.timestampText === "string", "timestamp text");
  }
  for (const k of o.rare.keys()) check(Number.isInteger(k) && k >= 0 && k < n, "rare position");
  // The table's probes end at a free slot, and every slot names an entry.
  const size = slots.length;
  check(size >= 2 && (size & (size - 1)) === 0, "id table size");
  let used = 0;
  for (let k = 0; k < size; k++) {
    const v = slots[k]!;
    check(v >= 0 && v <= n, "id table slot");
    if (v !== 0) used++;
  }
  check(used < size, "id table full");

  const columns: ColumnsState = {
    count: n,
    ids,
    types,
    roles,
    parents,
    times,
    stamps,
    lines: f64("lines"),
    offsets: f64("offsets"),
    lengths: f64("lengths"),
    activity,
    spends,
    flags,
    rare: o.rare,
  };
  const resume = header.resume;
  check(Number.isInteger(resume?.offset) && Number.isInteger(resume?.line) && resume.offset >= 0 && resume.line >= 1, "resume point");
  check(typeof header.source?.path === "string" && typeof header.source.tailHash === "string" && typeof header.source.headHash === "string" && Number.isInteger(header.source.headLength), "source");
  return {
    source: header.source,
    resume,
    builder: bs,
    index: {
      columns,
      idTable: { slots, used, hashes },
      labels: o.labels,
      duplicateDiagnostics: o.duplicateDiagnostics,
      name: o.name,
      messages: o.messages,
      activity: o.activity,
      spent: o.spent,
    },
  };
}
