import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareFingerprint, fingerprintFile } from "../../../src/core/session/bytes/fingerprint.js";
import {
  openSession,
  openSessionSync,
  refreshSession,
  sessionFromBytes,
  type LoadedSession,
} from "../../../src/core/session/open/open-session.js";
import { generateRandomSession } from "../../support/random-session.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-open-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sameRead(a: LoadedSession, b: LoadedSession): void {
  expect(a.header).toEqual(b.header);
  expect(a.index.entries).toEqual(b.index.entries);
  expect(a.index.leafId).toBe(b.index.leafId);
  expect([...a.index.labels]).toEqual([...b.index.labels]);
  expect(a.index.sessionName).toBe(b.index.sessionName);
  expect(a.diagnostics.map(({ file: _file, ...d }) => d)).toEqual(b.diagnostics.map(({ file: _file, ...d }) => d));
}

describe("openSession / openSessionSync / sessionFromBytes", () => {
  it("read the same session", async () => {
    for (const seed of [7, 8, 9]) {
      const { path } = generateRandomSession(seed, join(dir, `same-${seed}`));
      const streamed = await openSession(path);
      sameRead(streamed, openSessionSync(path));
      sameRead(streamed, sessionFromBytes(readFileSync(path), path));
      expect(streamed.entries()).toEqual(sessionFromBytes(readFileSync(path)).entries());
    }
  });

  it("fingerprint exactly the bytes read (files of several read chunks, odd sizes)", async () => {
    for (const name of ["large-session.jsonl", "before-compaction.jsonl"]) {
      const path = new URL(`../../fixtures/pi-mono/${name}`, import.meta.url).pathname;
      const expected = fingerprintFile(path);
      expect((await openSession(path)).fingerprint).toEqual(expected);
      expect(openSessionSync(path).fingerprint).toEqual(expected);
      expect(sessionFromBytes(readFileSync(path)).fingerprint).toEqual({ ...expected, mtimeMs: 0 });
    }
  });

  it("give pi's getBranch for every entry as pathTo, and pi's entries as entries()", () => {
    const { path } = generateRandomSession(31, join(dir, "paths"));
    const copyDir = join(dir, "paths-pi");
    mkdirSync(copyDir);
    const copy = join(copyDir, "copy.jsonl");
    copyFileSync(path, copy);
    const sm = SessionManager.open(copy, copyDir);
    const s = openSessionSync(path);
    expect(s.entries()).toEqual(sm.getEntries());
    for (const m of s.index.entries) expect(s.pathTo(m.id)).toEqual(sm.getBranch(m.id));
    expect(s.pathTo()).toEqual(sm.getBranch());
    expect(s.pathTo(null)).toEqual([]);
    expect(s.pathTo("no-such-id")).toEqual([]);
  });

  it("materialise an entry from its line bytes, and rawLine is that line", () => {
    const { path } = generateRandomSession(12, join(dir, "raw"));
    const s = openSessionSync(path);
    const lines = readFileSync(path, "utf8").split("\n");
    for (const m of s.index.entries) {
      expect(s.rawLine(m.id)).toBe(lines[m.line - 1]);
      expect(s.entry(m.id)).toEqual(JSON.parse(lines[m.line - 1]!));
      expect(s.location(m.id)).toBe(m);
    }
    expect(s.entry("nope")).toBeUndefined();
  });

  it("materialise entries whose lines cross the file reader's block boundaries, in any order", () => {
    const path = join(dir, "blocks.jsonl");
    const lines = [JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "t", cwd: "/" })];
    for (let i = 0; i < 400; i++) {
      // Lengths from tiny to > 256 KiB, so lines start, end and span across block edges.
      const size = i % 97 === 0 ? 300_000 : (i * 7919) % 9000;
      lines.push(JSON.stringify({ type: "custom", id: `c${i}`, parentId: i ? `c${i - 1}` : null, timestamp: "t", customType: "x", data: "y".repeat(size) }));
    }
    writeFileSync(path, `${lines.join("\n")}\n`);
    const s = openSessionSync(path);
    const expected = (i: number): unknown => JSON.parse(lines[i + 1]!);
    const order = s.index.entries.map((_, i) => i);
    for (const i of [...order].reverse()) expect(s.entryAt(s.index.entries[i]!)).toEqual(expected(i));
    for (const i of order) expect(s.entry(`c${i}`)).toEqual(expected(i));
    expect(s.entries()).toEqual(order.map(expected));
  });

  it("name the file when it cannot be read at all", async () => {
    const missing = join(dir, "missing.jsonl");
    await expect(openSession(missing)).rejects.toThrow(`${missing}: cannot read session file: no such file`);
    expect(() => openSessionSync(missing)).toThrow(missing);
    expect(() => openSessionSync(dir)).toThrow(`${dir}: cannot read session file: is a directory`);
  });

  it("refuse to hand out a body from a file rewritten since it was read", () => {
    const path = join(dir, "changed.jsonl");
    const header = `${JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "t", cwd: "/" })}\n`;
    const entry = (id: string) => `${JSON.stringify({ type: "custom", id, parentId: null, timestamp: "t", customType: "x" })}\n`;
    writeFileSync(path, header + entry("aaaa0001") + entry("aaaa0002"));
    const s = openSessionSync(path);
    writeFileSync(path, header + entry("bbbb0001") + entry("bbbb0002"));
    expect(() => s.entry("aaaa0002")).toThrow(/line 3 no longer holds entry aaaa0002/);
  });
});

describe("refreshSession (live tail)", () => {
  type Writer = { appendMessage(m: unknown): string; getSessionFile(): string | undefined };
  const userMessage = (text: string) => ({ role: "user", content: text, timestamp: 1 });
  const answer = (text: string) => ({
    role: "assistant",
    content: [{ type: "text", text }],
    api: "a",
    provider: "p",
    model: "m",
    stopReason: "stop",
    timestamp: 2,
  });

  function piSession(name: string): { sm: Writer; path: string } {
    const sm = SessionManager.create("/work/project", join(dir, name)) as unknown as Writer;
    sm.appendMessage(userMessage("one"));
    sm.appendMessage(answer("two"));
    return { sm, path: sm.getSessionFile()! };
  }

  it("returns the same session when nothing changed", async () => {
    const { path } = piSession("r-unchanged");
    const s = await openSession(path);
    const r = await refreshSession(s);
    expect(r.change).toBe("unchanged");
    expect(r.session).toBe(s);
  });

  it("reads only the appended lines into the same session (extended in place) and ends equal to a fresh read", async () => {
    const { sm, path } = piSession("r-append");
    const s = await openSession(path);
    const before = s.index.entries.length;
    const index = s.index;
    sm.appendMessage(userMessage("three"));
    sm.appendMessage(answer("four"));
    const r = await refreshSession(s);
    expect(r.change).toBe("appended");
    sameRead(r.session, await openSession(path));
    expect(r.session.fingerprint).toEqual(fingerprintFile(path));
    expect(r.session).toBe(s);
    expect(r.session.index).toBe(index);
    expect(s.index.entries).toHaveLength(before + 2);
    expect(r.session.entries().map((e) => e.type === "message" && (e.message as { content: unknown }).content)).toContain("three");
    // And again, from the refreshed session.
    sm.appendMessage(userMessage("five"));
    const r2 = await refreshSession(r.session);
    expect(r2.change).toBe("appended");
    sameRead(r2.session, await openSession(path));
  });

  it("re-reads the whole file when it was rewritten", async () => {
    const { path } = piSession("r-rewrite");
    const s = await openSession(path);
    const { path: other } = piSession("r-rewrite-other");
    copyFileSync(other, path);
    const r = await refreshSession(s);
    expect(r.change).toBe("rewritten");
    sameRead(r.session, await openSession(path));
  });

  it("re-reads the whole file when the old read ended inside an unfinished line", async () => {
    const { path } = piSession("r-partial");
    const full = `${JSON.stringify({ type: "custom", id: "cccc0001", parentId: null, timestamp: "t", customType: "x" })}\n`;
    appendFileSync(path, full.slice(0, 30));
    const s = await openSession(path);
    expect(s.diagnostics.map((d) => d.code)).toContain("truncated-last-line");
    appendFileSync(path, full.slice(30));
    const r = await refreshSession(s);
    expect(r.change).toBe("appended");
    sameRead(r.session, await openSession(path));
    expect(r.session.index.get("cccc0001")).toBeDefined();
  });

  it("waits for the newline of a line seen half-written, then reads it as an append", async () => {
    const { path } = piSession("r-half");
    const s = await openSession(path);
    const index = s.index;
    const full = `${JSON.stringify({ type: "custom", id: "dddd0001", parentId: null, timestamp: "t", customType: "x" })}\n`;
    appendFileSync(path, full.slice(0, 25));
    const half = await refreshSession(s);
    expect(half.change).toBe("unchanged");
    expect(s.index.get("dddd0001")).toBeUndefined();
    appendFileSync(path, full.slice(25));
    const r = await refreshSession(s);
    expect(r.change).toBe("appended");
    expect(r.session.index).toBe(index);
    sameRead(r.session, await openSession(path));
    expect(r.session.fingerprint).toEqual(fingerprintFile(path));
  });

  it("throws naming the file when it is gone", async () => {
    const { path } = piSession("r-gone");
    const s = await openSession(path);
    rmSync(path);
    await expect(refreshSession(s)).rejects.toThrow(path);
  });
});

describe("fingerprints", () => {
  it("tell unchanged, appended and rewritten apart", () => {
    const path = join(dir, "fp.jsonl");
    writeFileSync(path, "a".repeat(5000) + "\n");
    const fp = fingerprintFile(path);
    expect(fp).toMatchObject({ size: 5001, tailLength: 4096 });
    expect(compareFingerprint(path, fp)).toBe("unchanged");
    appendFileSync(path, "b\n");
    expect(compareFingerprint(path, fp)).toBe("appended");
    writeFileSync(path, "a".repeat(4000) + "c".repeat(1000) + "\n");
    expect(compareFingerprint(path, fp)).toBe("rewritten");
    writeFileSync(path, "a".repeat(5000) + "\n");
    const same = fingerprintFile(path);
    utimesSync(path, new Date(0), new Date(same.mtimeMs + 5000));
    // Same bytes at the tail, same size, new mtime: the middle may have changed.
    expect(compareFingerprint(path, same)).toBe("rewritten");
    writeFileSync(path, "short\n");
    expect(compareFingerprint(path, same)).toBe("rewritten");
  });
});
