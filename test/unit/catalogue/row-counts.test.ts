// The in-memory counts omp rows are carried with: kept for the most recently
// read or carried rows only, valid for one offset and one head of the file.

import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headHash, RowCounts } from "../../../src/core/catalogue/row-counts.js";
import type { IncrementalUsage } from "../../../src/core/tokens/context-token-rule.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-row-counts-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (tokens: number): IncrementalUsage => ({ usage: { tokens, source: "estimate", messageCount: 1 }, append: () => undefined });

function withFile<T>(text: string, use: (fd: number, path: string) => T): T {
  const path = join(dir, "f.jsonl");
  writeFileSync(path, text);
  const fd = openSync(path, "r+");
  try {
    return use(fd, path);
  } finally {
    closeSync(fd);
  }
}

describe("RowCounts", () => {
  it("keeps the counts of the most recently kept rows only", () => {
    const counts = new RowCounts(2);
    withFile("x".repeat(300), (fd) => {
      const head = headHash(fd, 300);
      counts.keep("a", count(1), 300, head);
      counts.keep("b", count(2), 300, head);
      counts.keep("a", count(3), 300, head);
      counts.keep("c", count(4), 300, head);
      expect(counts.size).toBe(2);
      expect(counts.take("b", 300, fd)).toBeUndefined();
      expect(counts.take("a", 300, fd)?.count.usage.tokens).toBe(3);
      expect(counts.take("c", 300, fd)?.count.usage.tokens).toBe(4);
    });
  });

  it("gives a count only at the offset it is up to, and only while the file's first 256 bytes are as they were; taken once", () => {
    const counts = new RowCounts();
    withFile("s".repeat(256) + "rest\n", (fd) => {
      counts.keep("p", count(1), 261, headHash(fd, 261));
      expect(counts.take("p", 200, fd)).toBeUndefined();
      expect(counts.size).toBe(0);
      counts.keep("p", count(1), 261, headHash(fd, 261));
      expect(counts.take("p", 261, fd)?.count.usage.tokens).toBe(1);
      expect(counts.take("p", 261, fd)).toBeUndefined();
      counts.keep("p", count(1), 261, headHash(fd, 261));
      // omp's rename: the slot rewritten in place, the size unchanged.
      writeSync(fd, "t", 255);
      expect(counts.take("p", 261, fd)).toBeUndefined();
      // A byte past the head is not the head.
      counts.keep("p", count(1), 261, headHash(fd, 261));
      writeSync(fd, "R", 256);
      expect(counts.take("p", 261, fd)).toBeDefined();
    });
  });
});
