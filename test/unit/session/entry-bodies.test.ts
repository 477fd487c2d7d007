// Parsed bodies are kept in an LRU bounded by line bytes: asking again for the
// same entries hands out the same objects without parsing, and the bound holds.
import { describe, expect, it } from "vitest";
import { EntryBodies, MemoryByteSource } from "../../../src/core/session/open/byte-source.js";
import { sessionFromBytes } from "../../../src/core/session/open/open-session.js";
import { FileModel } from "../../support/session-lines.js";

function bytes(entries: number): Uint8Array {
  const model = new FileModel();
  for (let i = 0; i < entries; i++) model.lines.push(model.line({ kind: i % 2 ? "assistant" : "user", parent: "leaf", pick: i, text: "some text ".repeat(5), usage: 10 }));
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
    const first = bodies.entries(metas);
    expect(bodies.heldBytes).toBeLessThanOrEqual(bound);
    expect(bodies.heldBytes).toBeGreaterThan(bound / 2);
    const last = metas[metas.length - 1]!;
    expect(bodies.entry(last)).toBe(first[first.length - 1]);
    const oldest = bodies.entry(metas[0]!);
    expect(oldest).not.toBe(first[0]);
    expect(oldest).toEqual(first[0]);
  });
});
