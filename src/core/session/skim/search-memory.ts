// Read chunks that live in a small WebAssembly memory (module: wasm/skim.ts),
// where a long message line in pi's layout is skimmed by compiled code: the
// skim of pi-layout-skimmer.ts, with the backward search for the message's
// tail (`"usage":`, `"timestamp":`: most of a tool result's bytes are searched
// for a usage pi 0.73 never writes there) done with SIMD, 16 candidate starts
// per step. A read that borrows a chunk fills it with the file; lines in any
// other buffer, and lines the module declines, are skimmed in JS, and so is
// everything where WebAssembly SIMD is not available.

import type { SkimmedEntry } from "./skimmed-entry.js";
import type { SliceableBuffer } from "../scan/scanned-values.js";
import { SEARCH_MEMORY_WASM } from "./search-memory-module.js";

export const SEARCH_CHUNK_BYTES = 1024 * 1024;
/** Page 0: the two needles the module searches for from 0, the skim's result (from the module's RESULT), the module's data from 49152; the chunks follow it (scripts/build-wasm.mjs). */
const NEEDLES = { '"usage":': 0, '"timestamp":': 16 } as const;
type Needle = keyof typeof NEEDLES;
const CHUNKS_FROM = 65536;
const CHUNKS = 4;
/** Where skimMessage writes each value it read, as an index into the f64 or i32 view of the memory (its layout is the module's: RESULT and R_* in wasm/skim.ts). */
interface ResultSlots {
  millis: number;
  time: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
  idStart: number;
  idEnd: number;
  idHash: number;
  parentStart: number;
  parentEnd: number;
  parentHash: number;
  stampStart: number;
  role: number;
  hasSpend: number;
  costStart: number;
  costEnd: number;
}

function resultSlots(exports: WebAssembly.Exports): ResultSlots {
  const at = (name: string): number => {
    const global = exports[name];
    if (!(global instanceof WebAssembly.Global)) throw new Error(`the search module exports no ${name}`);
    return (exports.RESULT as WebAssembly.Global).value + global.value;
  };
  const f64 = (name: string) => at(name) / 8;
  const i32 = (name: string) => at(name) / 4;
  return {
    millis: f64("R_MILLIS"),
    time: f64("R_TIME"),
    input: f64("R_INPUT"),
    output: f64("R_OUTPUT"),
    cacheRead: f64("R_CACHE_READ"),
    cacheWrite: f64("R_CACHE_WRITE"),
    cost: f64("R_COST"),
    idStart: i32("R_ID_START"),
    idEnd: i32("R_ID_END"),
    idHash: i32("R_ID_HASH"),
    parentStart: i32("R_PARENT_START"),
    parentEnd: i32("R_PARENT_END"),
    parentHash: i32("R_PARENT_HASH"),
    stampStart: i32("R_STAMP_START"),
    role: i32("R_ROLE"),
    hasSpend: i32("R_HAS_SPEND"),
    costStart: i32("R_COST_START"),
    costEnd: i32("R_COST_END"),
  };
}

type LastIndexOf = (from: number, to: number, needle: number, n: number) => number;

interface SearchMemory {
  buffer: ArrayBuffer;
  bytes: Uint8Array;
  f64: Float64Array;
  i32: Int32Array;
  lastIndexOf: LastIndexOf;
  skimMessage: (start: number, end: number) => number;
  slots: ResultSlots;
  /** Chunks not lent out. */
  free: Buffer[];
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
      slots: resultSlots(instance.exports),
      free,
      failed: false,
    };
    for (const [text, at] of Object.entries(NEEDLES)) made.bytes.set(Buffer.from(text), at);
    const setNeedles = instance.exports.setNeedles as (usage: number, timestamp: number) => void;
    setNeedles(NEEDLES['"usage":'], NEEDLES['"timestamp":']);
    return made;
  } catch {
    // No WebAssembly, or no SIMD in it: every search runs in JS.
    return null;
  }
}

const memory = instantiate();

/** The memory's buffer (what a chunk's `.buffer` is), or null when there is none. */
export const searchBuffer: ArrayBuffer | null = memory?.buffer ?? null;

/** The chunk inSearchMemory last found in the memory (a read's chunk holds many lines). */
let lastInMemory: Uint8Array | null = null;

/** Whether `b` is a view of the search memory (a read's chunk). Reading b.buffer is a runtime call: a chunk is asked once. */
export function inSearchMemory(b: Uint8Array): boolean {
  if (b === lastInMemory) return true;
  if (memory === null || b.buffer !== memory.buffer) return false;
  lastInMemory = b;
  return true;
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
  const at = mem.slots;
  searchModuleStats.lines++;
  m.type = "message";
  m.millis = f[at.millis]!;
  m.time = f[at.time]!;
  m.idStart = i[at.idStart]! - o;
  m.idEnd = i[at.idEnd]! - o;
  m.idHash = i[at.idHash]!;
  const parentStart = i[at.parentStart]!;
  m.parentStart = parentStart < 0 ? -1 : parentStart - o;
  m.parentEnd = parentStart < 0 ? -1 : i[at.parentEnd]! - o;
  m.parentHash = i[at.parentHash]!;
  m.stampStart = i[at.stampStart]! - o;
  m.role = ROLES[i[at.role]!];
  m.hasSpend = i[at.hasSpend] === 1;
  if (m.hasSpend) {
    m.input = f[at.input]!;
    m.output = f[at.output]!;
    m.cacheRead = f[at.cacheRead]!;
    m.cacheWrite = f[at.cacheWrite]!;
    const costStart = i[at.costStart]!;
    // cost.total with more than 15 digits or an exponent: read as skimPiLayout reads it (Number, finite).
    const cost = costStart < 0 ? f[at.cost]! : Number(b.latin1Slice(costStart - o, i[at.costEnd]! - o));
    m.cost = Number.isFinite(cost) ? cost : 0;
  }
  return true;
}

/**
 * The module's search (what skimMessage finds a message's tail with): the last
 * start of `needle` within [from, to) of `b`, a view of the search memory; -1
 * when there is none.
 */
export function lastIndexInMemory(b: Uint8Array, needle: Needle, from: number, to: number): number {
  const o = b.byteOffset;
  const q = memory!.lastIndexOf(o + from, o + to, NEEDLES[needle], needle.length);
  return q < 0 ? -1 : q - o;
}

let warn: (message: string) => void = (message) => console.error(`pi-sessions: ${message}`);

/** Where the one line about a failed module goes (the extension's log; stderr otherwise). */
export function warnOnSearchModuleFailure(to: (message: string) => void): void {
  warn = to;
}

/** The module trapped (a bug: it reads only inside the line it is given): every later line is skimmed in JS. */
function moduleFailed(e: unknown): void {
  if (memory !== null && !memory.failed) {
    memory.failed = true;
    warn(`the skim's WebAssembly module failed (${e instanceof Error ? e.message : String(e)}); sessions are skimmed in JavaScript from now on`);
  }
}

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
