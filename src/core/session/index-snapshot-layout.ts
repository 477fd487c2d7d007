// The bytes of an index snapshot (index-snapshot.ts): what a read of a session
// file built, so a later open takes it instead of reading the file again.
//
//   "PISNAP\r\n" | u32 format version | u32 header length | header JSON | pad to 8
//   | sections (typed arrays as they are in memory, each padded to 8)
//   | sha256 of everything before it (32 bytes)
//
// The header names the file it was built from (path, size, times, inode, tail
// hash), the read's resume point, the string tables and where each section is.
// The few objects (header entry, diagnostics, rare fields, labels) go through
// v8's serializer, which keeps what JSON would not (-0, undefined, Map order).
// Decoding checks the checksum and every structural invariant the index relies
// on (positions in range, a hash table with a free slot, …): a damaged, old or
// foreign file is rejected, never half-trusted.

import { createHash } from "node:crypto";
import { endianness } from "node:os";
import { deserialize, serialize } from "node:v8";
import type { ColumnsState, RareFields } from "./entry-columns.js";
import type { BuilderSnapshot } from "./session-builder.js";
import type { IndexState } from "./session-index.js";

export const SNAPSHOT_FORMAT_VERSION = 1;
const MAGIC = Buffer.from("PISNAP\r\n", "latin1");
const CHECKSUM_BYTES = 32;
const ISO_LENGTH = 24;
const SPEND_WIDTH = 5;

/** What the snapshot was built from: the file as it was read. */
export interface SnapshotSource {
  path: string;
  skim: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  tailHash: string;
  tailLength: number;
  /** sha256 of the first `headLength` (≤ 4 KiB) bytes (a rewrite changes the header before anything else). */
  headHash: string;
  headLength: number;
}

export interface SnapshotContent {
  source: SnapshotSource;
  /** Where the builder continues (BuilderSnapshot minus its index, which is `index`). */
  resume: { offset: number; line: number };
  builder: Omit<BuilderSnapshot, "index">;
  index: IndexState;
}

type Kind = "i32" | "f64" | "u32" | "u8";
interface SectionRef {
  name: string;
  kind: Kind;
  offset: number;
  length: number;
}

interface Header {
  source: SnapshotSource;
  resume: { offset: number; line: number };
  count: number;
  endian: string;
  idEncoding: "latin1" | "utf16le";
  types: string[];
  roles: (string | null)[];
  sections: SectionRef[];
}

const BYTES: Record<Kind, number> = { i32: 4, f64: 8, u32: 4, u8: 1 };

/** Whole numbers in [0, 2^32): such a Float64 column is stored as u32. */
function fitsU32(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (!(v >= 0 && v < 4294967296 && Math.floor(v) === v)) return false;
  }
  return true;
}

function codes(values: readonly (string | undefined)[], count: number): { table: (string | null)[]; codes: Uint8Array | Uint32Array } {
  const table: (string | null)[] = [];
  const codeOf = new Map<string | undefined, number>();
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const v = values[i];
    let c = codeOf.get(v);
    if (c === undefined) {
      c = table.length;
      table.push(v ?? null);
      codeOf.set(v, c);
    }
    out[i] = c;
  }
  return { table, codes: table.length <= 256 ? new Uint8Array(out) : out };
}

function bytesOf(a: ArrayBufferView): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** The snapshot's bytes, in pieces to be written one after the other. */
export function encodeSnapshot(c: SnapshotContent): Buffer[] {
  const cols = c.index.columns;
  const n = cols.count;
  const types = codes(cols.types, n);
  const roles = codes(cols.roles, n);
  const joined = cols.ids.length === n ? cols.ids.join("") : cols.ids.slice(0, n).join("");
  // eslint-disable-next-line no-control-regex
  const idEncoding = /^[\u0000-\u00ff]*$/.test(joined) ? "latin1" : "utf16le";
  const idLengths = new Uint32Array(n);
  for (let i = 0; i < n; i++) idLengths[i] = cols.ids[i]!.length;
  const narrow = (a: Float64Array): [Kind, ArrayBufferView] => (fitsU32(a) ? ["u32", new Uint32Array(a)] : ["f64", a]);
  const objects = serialize({
    builder: c.builder,
    rare: cols.rare,
    labels: c.index.labels,
    duplicateDiagnostics: c.index.duplicateDiagnostics,
    name: c.index.name,
    messages: c.index.messages,
    activity: c.index.activity,
    spent: c.index.spent,
  });
  const parts: [string, Kind, ArrayBufferView][] = [
    ["parents", "i32", cols.parents],
    ["times", "f64", cols.times],
    ["stamps", "u8", cols.stamps],
    ["lines", ...narrow(cols.lines)],
    ["offsets", ...narrow(cols.offsets)],
    ["lengths", ...narrow(cols.lengths)],
    ["activity", "f64", cols.activity],
    ["spends", "f64", cols.spends],
    ["flags", "u8", cols.flags],
    ["types", types.codes instanceof Uint8Array ? "u8" : "u32", types.codes],
    ["roles", roles.codes instanceof Uint8Array ? "u8" : "u32", roles.codes],
    ["idLengths", "u32", idLengths],
    ["idChars", "u8", Buffer.from(joined, idEncoding)],
    ["slots", "i32", c.index.idTable.slots],
    ["hashes", "i32", c.index.idTable.hashes],
    ["objects", "u8", objects],
  ];
  const sections: SectionRef[] = [];
  let at = 0;
  for (const [name, kind, data] of parts) {
    sections.push({ name, kind, offset: at, length: data.byteLength / BYTES[kind] });
    at += pad8(data.byteLength);
  }
  const header: Header = {
    source: c.source,
    resume: c.resume,
    count: n,
    endian: endianness(),
    idEncoding,
    types: types.table as string[],
    roles: roles.table,
    sections,
  };
  const headerJson = Buffer.from(JSON.stringify(header), "utf8");
  const prefix = Buffer.alloc(pad8(MAGIC.length + 8 + headerJson.length));
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(SNAPSHOT_FORMAT_VERSION, MAGIC.length);
  prefix.writeUInt32LE(headerJson.length, MAGIC.length + 4);
  headerJson.copy(prefix, MAGIC.length + 8);
  const pieces: Buffer[] = [prefix];
  for (const [, , data] of parts) {
    pieces.push(bytesOf(data));
    const padding = pad8(data.byteLength) - data.byteLength;
    if (padding > 0) pieces.push(Buffer.alloc(padding));
  }
  const hash = createHash("sha256");
  for (const p of pieces) hash.update(p);
  pieces.push(hash.digest());
  return pieces;
}

function pad8(n: number): number {
  return (n + 7) & ~7;
}

class Rejected extends Error {}

function check(ok: boolean, why: string): asserts ok {
  if (!ok) throw new Rejected(why);
}

/** The content of snapshot bytes, or why they are not a usable snapshot. */
export function decodeSnapshot(file: Buffer): SnapshotContent | string {
  try {
    return decode(file);
  } catch (e) {
    return e instanceof Rejected ? e.message : `unreadable: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function decode(file: Buffer): SnapshotContent {
  check(file.length >= MAGIC.length + 8 + CHECKSUM_BYTES && file.subarray(0, MAGIC.length).equals(MAGIC), "not an index snapshot");
  check(file.readUInt32LE(MAGIC.length) === SNAPSHOT_FORMAT_VERSION, "another format version");
  const body = file.length - CHECKSUM_BYTES;
  const digest = createHash("sha256").update(file.subarray(0, body)).digest();
  check(digest.equals(file.subarray(body)), "checksum mismatch");
  // Typed arrays are views of the file's bytes: they need an aligned start.
  const b = file.byteOffset % 8 === 0 ? file : Buffer.from(file);
  const headerLength = b.readUInt32LE(MAGIC.length + 4);
  const headerEnd = MAGIC.length + 8 + headerLength;
  check(headerEnd <= body, "header out of bounds");
  const header = JSON.parse(b.toString("utf8", MAGIC.length + 8, headerEnd)) as Header;
  check(header.endian === endianness(), "other byte order");
  const n = header.count;
  check(Number.isInteger(n) && n >= 0, "bad count");
  const base = pad8(headerEnd);
  const section = new Map<string, ArrayBufferView & ArrayLike<number>>();
  for (const s of header.sections) {
    const width = BYTES[s.kind];
    check(width !== undefined && Number.isInteger(s.offset) && s.offset % 8 === 0 && Number.isInteger(s.length) && s.length >= 0, `bad section ${s.name}`);
    const start = b.byteOffset + base + s.offset;
    check(base + s.offset + s.length * width <= body, `section ${s.name} out of bounds`);
    const view =
      s.kind === "i32" ? new Int32Array(b.buffer, start, s.length)
      : s.kind === "f64" ? new Float64Array(b.buffer, start, s.length)
      : s.kind === "u32" ? new Uint32Array(b.buffer, start, s.length)
      : new Uint8Array(b.buffer, start, s.length);
    section.set(s.name, view);
  }
  const get = (name: string, length: number): ArrayBufferView & ArrayLike<number> => {
    const v = section.get(name);
    check(v !== undefined && v.length === length, `section ${name} missing or of the wrong length`);
    return v;
  };
  const f64 = (name: string): Float64Array => {
    const v = get(name, n);
    return v instanceof Float64Array ? v : new Float64Array(v as Uint32Array);
  };
  const parents = get("parents", n) as Int32Array;
  check(parents instanceof Int32Array, "parents");
  const times = get("times", n) as Float64Array;
  const activity = get("activity", n) as Float64Array;
  const spends = get("spends", n * SPEND_WIDTH) as Float64Array;
  check(times instanceof Float64Array && activity instanceof Float64Array && spends instanceof Float64Array, "float columns");
  const stamps = get("stamps", n * ISO_LENGTH) as Uint8Array;
  const flags = get("flags", n) as Uint8Array;
  const idLengths = get("idLengths", n) as Uint32Array;
  const slots = section.get("slots");
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

  const chars = section.get("idChars") as Uint8Array | undefined;
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
