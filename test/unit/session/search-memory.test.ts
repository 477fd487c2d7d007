// The search memory (search-memory.ts): its module is wasm/ compiled, its
// SIMD search finds what Buffer.lastIndexOf finds, wherever the window lies in
// a chunk (the memory's first and last bytes included), and its chunks are
// lent and given back. The module's skim of lines read in a chunk is checked
// against the JS skim in pi-layout-skimmer.test.ts.
import fc from "fast-check";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile, LITERALS } from "../../../scripts/build-wasm.mjs";
import { literalsSource } from "../../../scripts/wasm-literals.mjs";
import { openSession, openSessionSync } from "../../../src/core/session/open/open-session.js";
import { SEARCH_MEMORY_WASM } from "../../../src/core/session/skim/search-memory-module.js";
import { borrowSearchChunk, lastIndexInMemory, returnSearchChunk, SEARCH_CHUNK_BYTES, searchBuffer, searchChunksFree, skimInMemory, warnOnSearchModuleFailure } from "../../../src/core/session/skim/search-memory.js";
import { SkimmedEntry, skimPiLayout } from "../../../src/core/session/skim/pi-layout-skimmer.js";
import type { SliceableBuffer } from "../../../src/core/session/scan/scanned-values.js";
import { lastIndexIn, literal, pairStarts } from "../../../src/core/session/skim/skim-bytes.js";

const needles = ['"usage":', '"timestamp":'] as const;
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('"usage":', '"timestamp":', '"usage"', 'usage":', '"time', 'stamp":', '""usage":', '":', '"u', "ti", "me", '"', ":", "x", '"usage":"usage":', '"input":', "\u00e9") },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const bytes = fc.array(piece, { maxLength: 60 }).map((parts) => Buffer.from(parts.join("")));

/** Every chunk the memory has, borrowed for `body` and given back after it. */
function withAllChunks(body: (chunks: Buffer[]) => void): void {
  const chunks: Buffer[] = [];
  for (let c = borrowSearchChunk(); c !== null; c = borrowSearchChunk()) chunks.push(c);
  try {
    body(chunks);
  } finally {
    for (const c of chunks) returnSearchChunk(c);
  }
}

describe("search memory", () => {
  it("holds the module wasm/ compiles to (run `node scripts/build-wasm.mjs` after editing wasm/)", async () => {
    expect(SEARCH_MEMORY_WASM).toBe((await compile()).toString("base64"));
    expect(readFileSync(LITERALS, "utf8")).toBe(literalsSource());
  }, 60_000);

  it("is made on the Node this runs on (WebAssembly with SIMD), with chunks in its memory", () => {
    expect(searchBuffer).not.toBeNull();
    withAllChunks((chunks) => {
      expect(chunks.length).toBeGreaterThanOrEqual(2);
      for (const c of chunks) {
        expect(c.buffer).toBe(searchBuffer);
        expect(c.length).toBe(SEARCH_CHUNK_BYTES);
      }
      // No two chunks share a byte, and the last one ends where the memory does.
      const starts = chunks.map((c) => c.byteOffset).sort((a, b) => a - b);
      for (let k = 1; k < starts.length; k++) expect(starts[k]! - starts[k - 1]!).toBeGreaterThanOrEqual(SEARCH_CHUNK_BYTES);
      expect(starts[starts.length - 1]! + SEARCH_CHUNK_BYTES).toBe(searchBuffer!.byteLength);
    });
  });

  it("finds what lastIndexOf finds in the window, for every window of bytes dense in needle pieces, at a chunk's start, inside it and at the memory's end", () => {
    withAllChunks((chunks) => {
      const last = chunks.reduce((a, c) => (c.byteOffset > a.byteOffset ? c : a));
      fc.assert(
        fc.property(bytes, fc.nat(), fc.nat(), fc.constantFrom("start", "inside", "end"), fc.nat(1000), (b, x, y, where, shift) => {
          const from = b.length === 0 ? 0 : x % (b.length + 1);
          const to = from + (b.length - from === 0 ? 0 : y % (b.length - from + 1));
          const at = where === "start" ? 0 : where === "end" ? SEARCH_CHUNK_BYTES - b.length : 17 + shift;
          const chunk = where === "end" ? last : chunks[0]!;
          // Bytes that would match around the window: a search must not look past its edges.
          chunk.fill('"usage":"timestamp":', Math.max(0, at - 64), Math.min(SEARCH_CHUNK_BYTES, at + b.length + 64));
          b.copy(chunk, at);
          const view = chunk.subarray(at, at + b.length);
          for (const n of needles) {
            const native = b.subarray(from, to).lastIndexOf(n);
            expect(lastIndexInMemory(view, n, from, to)).toBe(native >= 0 ? from + native : -1);
          }
        }),
        { numRuns: 3000 },
      );
    });
  });

  it("finds the last of many needles in a long window, and none in a window of near misses", () => {
    withAllChunks(([chunk]) => {
      for (const n of needles) {
        const text = `${"x".repeat(5000)}${n}${"y".repeat(3)}${n}${"z".repeat(4001)}`;
        chunk!.write(text, 100, "latin1");
        expect(lastIndexInMemory(chunk!, n, 100, 100 + text.length)).toBe(100 + text.lastIndexOf(n));
        const misses = `${n.slice(0, -1)}?${n.slice(1)}`.repeat(700);
        chunk!.write(misses, 100, "latin1");
        expect(lastIndexInMemory(chunk!, n, 100, 100 + misses.length)).toBe(-1);
      }
    });
  });

  it("skims a line that ends at the memory's last byte, cut anywhere, without reading past it (as the JS skim reads it, or declining)", () => {
    withAllChunks((chunks) => {
      const last = chunks.reduce((a, c) => (c.byteOffset > a.byteOffset ? c : a));
      const usage = '{"input":12,"output":3,"cacheRead":0,"cacheWrite":5,"totalTokens":20,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0.3,"total":0.6000000000000001}}';
      const lines = [
        `{"type":"message","id":"0000000b","parentId":"0000000a","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"${"x".repeat(400)}"}],"api":"a","provider":"p","model":"m","usage":${usage},"stopReason":"stop","timestamp":1735689600000}}`,
        `{"type":"message","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"${"y".repeat(400)}"}],"isError":false,"timestamp":1735689600000},"id":"0000000c","parentId":null}`,
      ];
      let read = 0;
      for (const line of lines) {
        const whole = Buffer.from(line);
        for (let cut = 256; cut <= whole.length; cut++) {
          const b = whole.subarray(0, cut) as SliceableBuffer;
          const at = SEARCH_CHUNK_BYTES - b.length;
          b.copy(last, at);
          const there = last.subarray(at) as SliceableBuffer;
          const m = new SkimmedEntry();
          const plain = new SkimmedEntry();
          if (skimInMemory(there, 0, there.length, m)) {
            read++;
            expect(skimPiLayout(b, 0, b.length, plain)).toBe(true);
            expect(m.idStart).toBe(plain.idStart);
            expect(m.time).toBe(plain.time);
            expect(m.cost).toBe(plain.cost);
          }
        }
      }
      // The whole lines are read (the cut ones are declined).
      expect(read).toBe(lines.length);
    });
  });

  it("lends each chunk to one borrower at a time and takes back only its own chunks, once", () => {
    const free = searchChunksFree();
    const a = borrowSearchChunk()!;
    const b = borrowSearchChunk()!;
    expect(a.byteOffset).not.toBe(b.byteOffset);
    expect(searchChunksFree()).toBe(free - 2);
    returnSearchChunk(a);
    returnSearchChunk(a);
    returnSearchChunk(Buffer.alloc(SEARCH_CHUNK_BYTES));
    returnSearchChunk(a.subarray(0, 10));
    expect(searchChunksFree()).toBe(free - 1);
    returnSearchChunk(b);
    expect(searchChunksFree()).toBe(free);
  });

  it("an open gives its chunk back, also when it fails, and reads the same when no chunk is free", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-search-memory-"));
    try {
      const file = join(dir, "s.jsonl");
      const lines = [JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" })];
      for (let i = 0; i < 3000; i++) {
        const usage = { input: i, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: i + 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 * i } };
        const message = i % 2 === 0
          ? { role: "toolResult", toolCallId: `c${i}`, toolName: "bash", content: [{ type: "text", text: `"usage": ${"o".repeat(i % 700)}` }], isError: false, timestamp: 1700000000000 + i }
          : { role: "assistant", content: [{ type: "text", text: "a".repeat(i % 500) }], api: "anthropic-messages", provider: "anthropic", model: "m", usage, stopReason: "stop", timestamp: 1700000000000 + i };
        lines.push(JSON.stringify({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: new Date(1700000000000 + i).toISOString(), message }));
      }
      writeFileSync(file, `${lines.join("\n")}\n`);
      const sync = openSessionSync(file, { skim: true });
      const free = searchChunksFree();
      const opened = await Promise.all([openSession(file, { skim: true }), openSession(file, { skim: true })]);
      expect(searchChunksFree()).toBe(free);
      await expect(openSession(dir, { skim: true })).rejects.toThrow(/is a directory/);
      expect(searchChunksFree()).toBe(free);
      let starved: Awaited<ReturnType<typeof openSession>> | undefined;
      const chunks: Buffer[] = [];
      for (let c = borrowSearchChunk(); c !== null; c = borrowSearchChunk()) chunks.push(c);
      try {
        starved = await openSession(file, { skim: true });
      } finally {
        for (const c of chunks) returnSearchChunk(c);
      }
      const exact = openSessionSync(file);
      for (const s of [sync, ...opened, starved]) {
        expect(s.index.entries).toEqual(exact.index.entries);
        expect(s.index.totalSpend).toEqual(exact.index.totalSpend);
      }
      expect(exact.index.totalSpend.input).toBe((3000 / 2) * (3000 / 2));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Last: the module stays off after it.
  it("a module that traps (a bug) is turned off with one log line, and every line is then read in JavaScript, to the same result", () => {
    const lines: string[] = [];
    warnOnSearchModuleFailure((m) => lines.push(m));
    withAllChunks((chunks) => {
      const last = chunks.reduce((a, c) => (c.byteOffset > a.byteOffset ? c : a));
      const line = Buffer.from(`{"type":"message","id":"0000000b","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"${"y".repeat(400)}"}],"isError":false,"timestamp":1735689600000}}`);
      const at = SEARCH_CHUNK_BYTES - line.length;
      line.copy(last, at);
      const there = last.subarray(at) as SliceableBuffer;
      const m = new SkimmedEntry();
      expect(skimInMemory(there, 0, there.length, m)).toBe(true);
      // A line said to end past the memory's end: the module reads there and traps.
      expect(skimInMemory(there, 0, there.length + 64, new SkimmedEntry())).toBe(false);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/WebAssembly module failed .*skimmed in JavaScript/);
      // Off from now on: the module is not asked; the JS skim and search read the line as before.
      expect(skimInMemory(there, 0, there.length, new SkimmedEntry())).toBe(false);
      const again = new SkimmedEntry();
      expect(skimPiLayout(there, 0, there.length, again)).toBe(true);
      expect({ ...again, parentHash: 0 }).toEqual({ ...m, parentHash: 0 });
      const timestamp = literal('"timestamp":');
      expect(lastIndexIn(there, timestamp, pairStarts(timestamp.bytes), 0, there.length)).toBe(line.lastIndexOf('"timestamp":'));
      expect(lines).toHaveLength(1);
    });
  });
});
