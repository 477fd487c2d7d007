// Read chunks that live in a small WebAssembly memory (module: wasm/skim.ts),
// where a long message line in pi's layout is skimmed by compiled code: the
// skim of pi-layout-skimmer.ts, with the backward search for the message's
// tail (`"usage":`, `"timestamp":`: most of a tool result's bytes are searched
// for a usage pi 0.73 never writes there) done with SIMD, 16 candidate starts
// per step. A read that borrows a chunk fills it with the file; lines in any
// other buffer, and lines the module declines, are skimmed in JS, and so is
// everything where WebAssembly SIMD is not available.

import type { SkimmedEntry } from "./pi-layout-skimmer.js";
import type { SliceableBuffer } from "./scanned-values.js";
import { SEARCH_MEMORY_WASM } from "./search-memory-module.js";

export const SEARCH_CHUNK_BYTES = 1024 * 1024;
/** Page 0: needles from 0, the skim's result from RESULT, the module's data from 49152; the chunks follow it (scripts/build-wasm.mjs). */
const NEEDLES_BYTES = 32768;
const CHUNKS_FROM = 65536;
const CHUNKS = 4;
/** Room per needle. */
const NEEDLE_ROOM = 16;
/** Where skimMessage writes what it read (wasm/skim.ts: f64s from 0, i32s from 56). */
const RESULT = 32768;
const F_MILLIS = RESULT / 8;
const I_ID_START = (RESULT + 56) / 4;

type LastIndexOf = (from: number, to: number, needle: number, n: number) => number;

interface SearchMemory {
  buffer: ArrayBuffer;
  bytes: Uint8Array;
  f64: Float64Array;
  i32: Int32Array;
  lastIndexOf: LastIndexOf;
  skimMessage: (start: number, end: number) => number;
  /** Chunks not lent out. */
  free: Buffer[];
  needles: number;
  /** The module trapped once: no line is given to it again. */
  failed: boolean;
}

function instantiate(): SearchMemory | null {
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(SEARCH_MEMORY_WASM, "base64")), {});
    const memory = instance.exports.memory as WebAssembly.Memory;
    const buffer = memory.buffer;
    if (buffer.byteLength !== CHUNKS_FROM + CHUNKS * SEARCH_CHUNK_BYTES) return null;
    const free: Buffer[] = [];
    for (let k = CHUNKS - 1; k >= 0; k--) free.push(Buffer.from(buffer, CHUNKS_FROM + k * SEARCH_CHUNK_BYTES, SEARCH_CHUNK_BYTES));
    const made: SearchMemory = {
      buffer,
      bytes: new Uint8Array(buffer),
      f64: new Float64Array(buffer, 0, CHUNKS_FROM / 8),
      i32: new Int32Array(buffer, 0, CHUNKS_FROM / 4),
      lastIndexOf: instance.exports.lastIndexOf as LastIndexOf,
      skimMessage: instance.exports.skimMessage as SearchMemory["skimMessage"],
      free,
      needles: 0,
      failed: false,
    };
    const setNeedles = instance.exports.setNeedles as (usage: number, timestamp: number) => void;
    setNeedles(placeIn(made, Buffer.from('"usage":')), placeIn(made, Buffer.from('"timestamp":')));
    return made;
  } catch {
    // No WebAssembly, or no SIMD in it: every search runs in JS.
    return null;
  }
}

const memory = instantiate();

/** The memory's buffer (what a chunk's `.buffer` is), or null when there is none. */
export const searchBuffer: ArrayBuffer | null = memory?.buffer ?? null;

function placeIn(m: SearchMemory, bytes: Uint8Array): number {
  if (bytes.length < 8 || bytes.length > NEEDLE_ROOM || (m.needles + 1) * NEEDLE_ROOM > NEEDLES_BYTES) return -1;
  const at = m.needles++ * NEEDLE_ROOM;
  m.bytes.set(bytes, at);
  return at;
}

/** The needle's address in the search memory, or -1 (no memory, fewer than 8 or more than 16 bytes, or no room). */
export function placeNeedle(bytes: Uint8Array): number {
  return memory === null ? -1 : placeIn(memory, bytes);
}

const ROLES = [undefined, "user", "assistant", "toolResult"] as const;

/** Lines the module read (in this process, since it started). */
export const searchModuleStats = { lines: 0 };

/**
 * skimPiLayout of the line [start, end) of `b`, a view of the search memory,
 * by the module: true with `m` filled when it read the line, false when it
 * declined (the line is then skimmed in JS).
 */
export function skimInMemory(b: SliceableBuffer, start: number, end: number, m: SkimmedEntry): boolean {
  const mem = memory!;
  if (mem.failed) return false;
  const o = b.byteOffset;
  try {
    if (mem.skimMessage(o + start, o + end) === 0) return false;
  } catch (e) {
    moduleFailed(e);
    return false;
  }
  const f = mem.f64;
  const i = mem.i32;
  searchModuleStats.lines++;
  m.type = "message";
  m.millis = f[F_MILLIS]!;
  m.time = f[F_MILLIS + 1]!;
  m.idStart = i[I_ID_START]! - o;
  m.idEnd = i[I_ID_START + 1]! - o;
  m.idHash = i[I_ID_START + 2]!;
  const parentStart = i[I_ID_START + 3]!;
  m.parentStart = parentStart < 0 ? -1 : parentStart - o;
  m.parentEnd = parentStart < 0 ? -1 : i[I_ID_START + 4]! - o;
  m.parentHash = i[I_ID_START + 5]!;
  m.stampStart = i[I_ID_START + 6]! - o;
  m.role = ROLES[i[I_ID_START + 7]!];
  m.hasSpend = i[I_ID_START + 8] === 1;
  if (m.hasSpend) {
    m.input = f[F_MILLIS + 2]!;
    m.output = f[F_MILLIS + 3]!;
    m.cacheRead = f[F_MILLIS + 4]!;
    m.cacheWrite = f[F_MILLIS + 5]!;
    const costStart = i[I_ID_START + 9]!;
    // cost.total with more than 15 digits or an exponent: read as skimPiLayout reads it (Number, finite).
    const cost = costStart < 0 ? f[F_MILLIS + 6]! : Number(b.latin1Slice(costStart - o, i[I_ID_START + 10]! - o));
    m.cost = Number.isFinite(cost) ? cost : 0;
  }
  return true;
}

/**
 * The last start of the n-byte needle at `needle` (placeNeedle) within [from,
 * to) of `b`, a view of the search memory (b.buffer === searchBuffer); -1 when
 * there is none.
 */
export function lastIndexInMemory(b: Uint8Array, needle: number, n: number, from: number, to: number): number {
  const o = b.byteOffset;
  let q: number;
  try {
    q = memory!.lastIndexOf(o + from, o + to, needle, n);
  } catch (e) {
    return moduleFailed(e);
  }
  return q < 0 ? -1 : q - o;
}

let warn: (message: string) => void = (message) => console.error(`pi-sessions: ${message}`);

/** Where the one line about a failed module goes (the extension's log; stderr otherwise). */
export function warnOnSearchModuleFailure(to: (message: string) => void): void {
  warn = to;
}

/** The module trapped (a bug: it reads only inside the line it is given). Every later line is skimmed in JS; NOT_IN_MEMORY. */
function moduleFailed(e: unknown): number {
  if (memory !== null && !memory.failed) {
    memory.failed = true;
    warn(`the skim's WebAssembly module failed (${e instanceof Error ? e.message : String(e)}); sessions are skimmed in JavaScript from now on`);
  }
  return NOT_IN_MEMORY;
}

/** What lastIndexInMemory answers when the module cannot search (the caller searches in JS). */
export const NOT_IN_MEMORY = -2;

/** A chunk of SEARCH_CHUNK_BYTES in the search memory, lent until returnSearchChunk; null when none is free. */
export function borrowSearchChunk(): Buffer | null {
  return memory?.free.pop() ?? null;
}

/** Gives back a chunk borrowSearchChunk lent (anything else is ignored). */
export function returnSearchChunk(chunk: Uint8Array): void {
  if (memory === null || chunk.buffer !== memory.buffer || chunk.byteLength !== SEARCH_CHUNK_BYTES || memory.free.includes(chunk as Buffer)) return;
  memory.free.push(chunk as Buffer);
}

/** How many chunks are not lent out (0 without a search memory). */
export function searchChunksFree(): number {
  return memory?.free.length ?? 0;
}
