// Parsed bodies are kept in an LRU bounded by line bytes: asking again for the
// same entries hands out the same objects without parsing, and the bound holds;
// a batch larger than the bound is read through without being kept.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EntryBodies, FileByteSource, MemoryByteSource } from "../../../src/core/session/open/byte-source.js";
import { sessionFromBytes } from "../../../src/core/session/open/open-session.js";
import { FileModel } from "../../support/session-lines.js";

function bytes(entries: number, repeat = 5): Uint8Array {
  const model = new FileModel();
  for (let i = 0; i < entries; i++) model.lines.push(model.line({ kind: i % 2 ? "assistant" : "user", parent: "leaf", pick: i, text: `${i} ${"some text ".repeat(repeat)}`, usage: 10 }));
  return new TextEncoder().encode(model.text());
}

describe("EntryBodies", () => {
  it("answer a second request from the cache (same objects), one by one or many at once", () => {
    const b = bytes(50);
    const metas = sessionFromBytes(b).index.entries;
    const bodies = new EntryBodies(new MemoryByteSource(b), "mem", 1024 * 1024);
    const first = bodies.entries(metas);
    const again = bodies.entries(metas);
    again.forEach((e, i) => expect(e).toBe(first[i]));
    expect(bodies.entry(metas[7]!)).toBe(first[7]);
    expect(bodies.heldBytes).toBe(metas.reduce((n, m) => n + m.length, 0));
  });

  it("keep at most the bound in line bytes, dropping the least recently used", () => {
    const b = bytes(200);
    const metas = sessionFromBytes(b).index.entries;
    const bound = 4000;
    const bodies = new EntryBodies(new MemoryByteSource(b), "mem", bound);
    const first = metas.map((m) => bodies.entry(m));
    expect(bodies.heldBytes).toBeLessThanOrEqual(bound);
    expect(bodies.heldBytes).toBeGreaterThan(bound / 2);
    const last = metas[metas.length - 1]!;
    expect(bodies.entry(last)).toBe(first[first.length - 1]);
    const oldest = bodies.entry(metas[0]!);
    expect(oldest).not.toBe(first[0]);
    expect(oldest).toEqual(first[0]);
  });

  it("keep nothing of a batch larger than the bound (a whole branch read once), and keep what was held before it", () => {
    const b = bytes(200);
    const metas = sessionFromBytes(b).index.entries;
    const bound = 4000;
    const bodies = new EntryBodies(new MemoryByteSource(b), "mem", bound);
    const viewed = bodies.entry(metas[3]!);
    const held = bodies.heldBytes;
    const all = bodies.entries(metas);
    expect(all[3]).toBe(viewed);
    expect(bodies.heldBytes).toBe(held);
    const again = bodies.entry(metas[metas.length - 1]!);
    expect(again).not.toBe(all[all.length - 1]);
    expect(again).toEqual(all[all.length - 1]);
    const visited: unknown[] = [];
    bodies.each(metas, (entry) => visited.push(entry));
    expect(visited).toEqual(all);
    expect(bodies.heldBytes).toBe(held + metas[metas.length - 1]!.length);
  });

  it("read a batch of many blocks from the file (one buffer reused for them) into the same bodies as the bytes give", () => {
    // ~10 MB: more than one 8 MB block, lines of ~20 KB.
    const b = bytes(500, 2000);
    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-bodies-"));
    try {
      const path = join(dir, "s.jsonl");
      writeFileSync(path, b);
      const metas = sessionFromBytes(b).index.entries;
      const expected = new EntryBodies(new MemoryByteSource(b), "mem").entries(metas);
      expect(new EntryBodies(new FileByteSource(path), path, 1024).entries(metas)).toEqual(expected);
      const visited: unknown[] = [];
      new EntryBodies(new FileByteSource(path), path, 1024).each(metas, (entry) => visited.push(entry));
      expect(visited).toEqual(expected);
      expect(b.length).toBeGreaterThan(9 * 1024 * 1024);
      expect(JSON.stringify(visited[visited.length - 1])).toContain("499 some text");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
