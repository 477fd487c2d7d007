// Read chunks that live in a small WebAssembly memory, where the skim's
// backward search for a message's tail (`"usage":`, `"timestamp":`: most of a
// tool result's bytes are searched for a usage pi 0.73 never writes there)
// runs with SIMD, 16 candidate starts per step: ~3× the JS search, about a
// tenth of a cold open of a big session. A read that borrows a chunk fills it
// with the file; lines in any other buffer are searched in JS (skim-bytes.ts),
// and so is everything where WebAssembly SIMD is not available.

import { SEARCH_MEMORY_WASM } from "./search-memory-module.js";

export const SEARCH_CHUNK_BYTES = 1024 * 1024;
/** Page 0 holds the needles; the chunks follow it (the memory's 65 pages: search-memory.wat). */
const NEEDLES_BYTES = 65536;
const CHUNKS = 4;
/** Room per needle in page 0. */
const NEEDLE_ROOM = 16;

type LastIndexOf = (from: number, to: number, needle: number, n: number) => number;

interface SearchMemory {
  buffer: ArrayBuffer;
  bytes: Uint8Array;
  lastIndexOf: LastIndexOf;
  /** Chunks not lent out. */
  free: Buffer[];
  needles: number;
}

function instantiate(): SearchMemory | null {
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(SEARCH_MEMORY_WASM, "base64")), {});
    const memory = instance.exports.memory as WebAssembly.Memory;
    const buffer = memory.buffer;
    if (buffer.byteLength < NEEDLES_BYTES + CHUNKS * SEARCH_CHUNK_BYTES) return null;
    const free: Buffer[] = [];
    for (let k = CHUNKS - 1; k >= 0; k--) free.push(Buffer.from(buffer, NEEDLES_BYTES + k * SEARCH_CHUNK_BYTES, SEARCH_CHUNK_BYTES));
    return { buffer, bytes: new Uint8Array(buffer), lastIndexOf: instance.exports.lastIndexOf as LastIndexOf, free, needles: 0 };
  } catch {
    // No WebAssembly, or no SIMD in it: every search runs in JS.
    return null;
  }
}

const memory = instantiate();

/** The memory's buffer (what a chunk's `.buffer` is), or null when there is none. */
export const searchBuffer: ArrayBuffer | null = memory?.buffer ?? null;

/** The needle's address in the search memory, or -1 (no memory, fewer than 8 or more than 16 bytes, or no room). */
export function placeNeedle(bytes: Uint8Array): number {
  if (memory === null || bytes.length < 8 || bytes.length > NEEDLE_ROOM || (memory.needles + 1) * NEEDLE_ROOM > NEEDLES_BYTES) return -1;
  const at = memory.needles++ * NEEDLE_ROOM;
  memory.bytes.set(bytes, at);
  return at;
}

/**
 * The last start of the n-byte needle at `needle` (placeNeedle) within [from,
 * to) of `b`, a view of the search memory (b.buffer === searchBuffer); -1 when
 * there is none.
 */
export function lastIndexInMemory(b: Uint8Array, needle: number, n: number, from: number, to: number): number {
  const o = b.byteOffset;
  const q = memory!.lastIndexOf(o + from, o + to, needle, n);
  return q < 0 ? -1 : q - o;
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
