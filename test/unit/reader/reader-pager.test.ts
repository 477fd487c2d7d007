// The reader's pages and live extension over real session bytes (our reader
// core), including pi 1.5 files written by pi 1.5.2's SessionManager
// (test/fixtures/reader: copies of shared fixtures 02 and 03).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { entryBlock, leafBelow, ReaderPager } from "../../../src/core/reader";
import { sessionFromBytes } from "../../../src/core/session/open/open-session";
import { assistant, conversation, jsonl, label, user, type Line } from "./support/session-text";

const bytes = (lines: readonly Line[]) => new TextEncoder().encode(jsonl(lines));
const fixture = (name: string) => sessionFromBytes(readFileSync(fileURLToPath(new URL(`../../fixtures/reader/${name}`, import.meta.url))), name);

describe("pages from the end", () => {
  const lines = conversation(30);
  const session = sessionFromBytes(bytes(lines));

  it("the newest page holds the last entries in order and says where it starts", () => {
    const pager = new ReaderPager(session, session.index.leafId, "all");
    expect(pager.total).toBe(120);
    const page = pager.pageBefore(undefined, 10);
    expect(page.blocks.map((b) => b.id)).toEqual(lines.slice(-10).map((l) => l.id));
    expect(page.start).toBe(110);
    expect(page.total).toBe(120);
  });

  it("earlier pages chain down to the first entry without gaps or repeats", () => {
    const pager = new ReaderPager(session, session.index.leafId, "all");
    const seen: string[] = [];
    let end = pager.total;
    while (end > 0) {
      const page = pager.pageBefore(end, 7);
      expect(page.start + page.blocks.length).toBe(end);
      seen.unshift(...page.blocks.map((b) => b.id));
      end = page.start;
    }
    expect(seen).toEqual(lines.slice(1).map((l) => l.id));
  });

  it("a page stops early when its text is long", () => {
    const pager = new ReaderPager(session, session.index.leafId, "all");
    expect(pager.pageBefore(undefined, 40, 50).blocks.length).toBeLessThan(5);
  });

  it("blocks: user and assistant text, tool calls with their path, folded results", () => {
    const pager = new ReaderPager(session, session.index.leafId, "all");
    const [u, a, r] = pager.blocks(0, 3);
    expect(u).toMatchObject({ kind: "user", text: "Question 0: read src/file0.ts" });
    expect(a?.kind).toBe("assistant");
    expect(a?.parts?.[1]).toEqual({ type: "toolCall", call: { id: "call0", name: "read", args: JSON.stringify({ path: "src/file0.ts" }, null, 2), path: "src/file0.ts" } });
    expect(r).toMatchObject({ kind: "toolResult", title: "read", text: "contents of file 0", isError: false });
  });

  it("filters: user messages only, no tool results, labelled", () => {
    const labelled = sessionFromBytes(bytes([...lines, label("l1", "b29", "a3", "keep")]));
    const user = new ReaderPager(labelled, labelled.index.leafId, "user");
    expect(user.blocks(0, user.total).every((b) => b.kind === "user")).toBe(true);
    expect(user.total).toBe(30);
    const noResults = new ReaderPager(labelled, labelled.index.leafId, "no-tool-results");
    expect(noResults.blocks(0, noResults.total).some((b) => b.kind === "toolResult")).toBe(false);
    expect(noResults.total).toBe(91);
    const marked = new ReaderPager(labelled, labelled.index.leafId, "labelled");
    expect(marked.blocks(0, marked.total)).toEqual([expect.objectContaining({ id: "a3", label: "keep" })]);
  });
});

describe("live: extend after pi appends", () => {
  const lines = conversation(3);

  it("appends only the new entries; a new label changes its earlier target", () => {
    const before = sessionFromBytes(bytes(lines));
    const pager = new ReaderPager(before, before.index.leafId, "all");
    const after = sessionFromBytes(bytes([...lines, user("u9", "b2", "more"), label("l9", "u9", "a1", "important"), assistant("a9", "l9", "ok")]));
    const extension = pager.extend(after, true);
    expect(extension?.appended.map((b) => b.id)).toEqual(["u9", "l9", "a9"]);
    expect(extension?.changed).toEqual([expect.objectContaining({ id: "a1", label: "important" })]);
    expect(pager.total).toBe(15);
    expect(pager.leafId).toBe("a9");
  });

  it("nothing new: nothing appended", () => {
    const session = sessionFromBytes(bytes(lines));
    const pager = new ReaderPager(session, session.index.leafId, "all");
    expect(pager.extend(session, true)).toEqual({ appended: [], changed: [] });
  });

  it("the leaf moved to another branch: no extension (the reader starts over)", () => {
    const before = sessionFromBytes(bytes(lines));
    const pager = new ReaderPager(before, before.index.leafId, "all");
    const after = sessionFromBytes(bytes([...lines, user("x1", "a1", "another way")]));
    expect(pager.extend(after, true)).toBeUndefined();
  });

  it("a fixed branch ignores appends elsewhere", () => {
    const before = sessionFromBytes(bytes(lines));
    const pager = new ReaderPager(before, "b1", "all");
    const after = sessionFromBytes(bytes([...lines, user("u9", "b2", "more")]));
    expect(pager.extend(after, false)).toEqual({ appended: [], changed: [] });
    expect(leafBelow(after, "a1")).toBe("u9");
  });
});

describe("pi 1.5 entries (files written by pi 1.5.2)", () => {
  it("context edits show on their target: omitted, or replaced with the replacement", () => {
    const session = fixture("02-context-edits.jsonl");
    const pager = new ReaderPager(session, session.index.leafId, "all");
    const blocks = new Map(pager.blocks(0, pager.total).map((b) => [b.id, b]));
    expect(blocks.get("7e5f9283")?.edit).toEqual({ editId: "2949660f" });
    expect(blocks.get("f451cb1d")?.edit).toEqual({ editId: "36ed7c0b" });
    expect(blocks.get("7e2faa11")?.edit).toEqual({ editId: "787a4f57", replacement: "Run the tests (short)." });
    expect(blocks.get("3c8100c6")?.edit).toEqual({ editId: "3270321b", replacement: "[test output elided]" });
    // The edits themselves are small marks; the system message is a folded system prompt.
    expect(blocks.get("2949660f")).toMatchObject({ kind: "mark", text: "context edit: omits 7e5f9283" });
    expect(blocks.get("14be90e2")).toMatchObject({ kind: "system" });
    expect(blocks.get("14be90e2")?.text).toContain("tools added: read, bash, edit, write");
  });

  it("usage entries are marks with their tokens", () => {
    const session = fixture("03-usage-and-metadata.jsonl");
    const pager = new ReaderPager(session, session.index.leafId, "all");
    const blocks = new Map(pager.blocks(0, pager.total).map((b) => [b.id, b]));
    expect(blocks.get("6a2aafdc")).toMatchObject({ kind: "mark", title: "usage", text: "usage cache_warm anthropic/claude-sonnet-4-5 · 3800 tokens" });
    expect(blocks.get("b6a6d38e")?.text).toContain("extension override");
  });
});

describe("entry blocks", () => {
  it("long text is cut with the full length noted; unknown entries keep their JSON", () => {
    const long = entryBlock({ type: "message", id: "x", parentId: null, timestamp: "", message: { role: "user", content: "y".repeat(200_000), timestamp: 0 } } as never);
    expect(long.text.length).toBe(100_000);
    expect(long.truncatedFrom).toBe(200_000);
    const odd = entryBlock({ type: "future_thing", id: "z", parentId: null, timestamp: "t", payload: { a: 1 } } as never);
    expect(odd).toMatchObject({ kind: "unknown", title: 'entry type "future_thing"' });
    expect(JSON.parse(odd.text)).toMatchObject({ payload: { a: 1 } });
  });

  it("bash-like tool calls carry their command", () => {
    const block = entryBlock(assistant("a", null, "", [{ id: "c", name: "bash", arguments: { command: "ls -la | grep x" } }]) as never);
    expect(block.parts?.[0]).toMatchObject({ type: "toolCall", call: { command: "ls -la | grep x" } });
  });
});

describe("the tail of a file, before it is indexed", () => {
  it("gives the same last blocks as the full index, from the last 2 KB only", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { tailBlocks } = await import("../../../src/core/reader");
    const lines = [...conversation(40), label("l1", "b39", "a39", "last answer")];
    const path = join(mkdtempSync(join(tmpdir(), "pi-sessions-tail-")), "s.jsonl");
    writeFileSync(path, jsonl(lines));
    const session = sessionFromBytes(bytes(lines));
    const full = new ReaderPager(session, session.index.leafId, "all").pageBefore(undefined, 40).blocks;
    const tail = tailBlocks(path, "all", 40, 2048);
    expect(tail.leafId).toBe("l1");
    expect(tail.blocks.length).toBeGreaterThan(3);
    expect(tail.blocks.length).toBeLessThan(40);
    expect(tail.blocks).toEqual(full.slice(-tail.blocks.length));
    expect(tailBlocks(path, "user", 40).blocks.every((b) => b.kind === "user")).toBe(true);
  });
});
