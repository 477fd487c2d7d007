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
// foreign file is rejected, never half-trusted (index-snapshot-decode.ts).

import { createHash } from "node:crypto";
import { endianness } from "node:os";
import { serialize } from "node:v8";
import type { BuilderSnapshot } from "../index/session-builder.js";
import type { IndexState } from "../index/session-index.js";

export const SNAPSHOT_FORMAT_VERSION = 1;
export const MAGIC = Buffer.from("PISNAP\r\n", "latin1");
export const CHECKSUM_BYTES = 32;
export const ISO_LENGTH = 24;
export const SPEND_WIDTH = 5;

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

export type Kind = "i32" | "f64" | "u32" | "u8";
interface SectionRef {
  name: string;
  kind: Kind;
  offset: number;
  length: number;
}

export interface Header {
  source: SnapshotSource;
  resume: { offset: number; line: number };
  count: number;
  endian: string;
  idEncoding: "latin1" | "utf16le";
  types: string[];
  roles: (string | null)[];
  sections: SectionRef[];
}

export const BYTES: Record<Kind, number> = { i32: 4, f64: 8, u32: 4, u8: 1 };

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

export function pad8(n: number): number {
  return (n + 7) & ~7;
}
