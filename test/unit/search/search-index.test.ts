// The search index: appended bytes only, rewrites, deletions, a corrupt cache,
// pi's matching quirks, snippets, and the regex time limit.
import { appendFileSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/core/search/search-index";
import { SearchStore } from "../../../src/core/search/search-store";
import { buildSessionInfo } from "../../support/pi15-session-search";
import { appendLines, header, messageLine, nameLine, removeDir, tempDir, writeSession } from "./support";

const dirs: string[] = [];
function fresh(): { dir: string; index: SearchIndex; cache: string } {
  const dir = tempDir();
  dirs.push(dir);
  const cache = join(dir, "cache");
  return { dir, index: new SearchIndex(cache), cache };
}
afterAll(() => dirs.forEach(removeDir));

describe("search index", () => {
  it("finds a message appended later by reading only the appended bytes", async () => {
    const { dir, index } = fresh();
    const s = writeSession(dir, { messages: [{ role: "user", text: "hello there" }] });
    expect((await index.search([s.path], "zebra")).total).toBe(0);
    const before = statSync(s.path).size;
    const line = messageLine("e9", "e1", { role: "assistant", text: "A Zebra crossed." }, Date.UTC(2026, 5, 1));
    appendLines(s.path, [line]);
    const appendedBytes = statSync(s.path).size - before;
    const stats = await index.update([s.path]);
    expect(stats).toMatchObject({ appended: 1, rebuilt: 0, bytesRead: appendedBytes });
    const result = await index.search([s.path], "zebra");
    expect(result.sessions.map((h) => h.matches)).toEqual([[{ entryId: "e9", line: 3, role: "assistant", snippet: "A Zebra crossed.", highlight: [2, 7], time: Date.UTC(2026, 5, 1) }]]);
    // Unchanged files are not read at all.
    expect(await index.update([s.path])).toMatchObject({ unchanged: 1, bytesRead: 0 });
  });

  it("a phrase spanning two messages matches (pi joins message texts with a space)", async () => {
    const { dir, index } = fresh();
    const s = writeSession(dir, { messages: [{ role: "user", text: "please fix the" }, { role: "assistant", text: "Parser   now" }] });
    const hit = (await index.search([s.path], '"the parser"')).sessions[0];
    expect(hit?.fields).toEqual(["messages"]);
    // Continued across an append too: the joining space and white-space runs carry over.
    appendLines(s.path, [messageLine("e3", "e2", { role: "user", text: "\n  works  " }, Date.UTC(2026, 5, 1))]);
    expect((await index.search([s.path], '"now works"')).total).toBe(1);
    expect((await index.search([s.path], '"parser now works"')).total).toBe(1);
  });

  it("a rewritten file is read again (fingerprint mismatch), a deleted one is dropped", async () => {
    const { dir, index, cache } = fresh();
    const store = new SearchStore(cache);
    const a = writeSession(dir, { messages: [{ role: "user", text: "alpha topic" }] });
    const b = writeSession(dir, { messages: [{ role: "user", text: "beta topic" }] });
    expect((await index.search([a.path, b.path], "topic")).total).toBe(2);
    // Same size, different content: a rewrite, not an append.
    writeFileSync(a.path, `${header("s-rw", "/p")}\n${messageLine("e1", null, { role: "user", text: "gamma topic" }, Date.UTC(2026, 0, 1))}\n`);
    expect((await index.update([a.path, b.path])).rebuilt).toBe(1);
    expect((await index.search([a.path, b.path], "alpha")).total).toBe(0);
    expect((await index.search([a.path, b.path], "gamma")).sessions.map((h) => h.id)).toEqual(["s-rw"]);
    rmSync(b.path);
    expect((await index.update([a.path, b.path])).removed).toBe(1);
    expect([...store.load().keys()]).toEqual([a.path]);
    expect((await index.search([a.path], "topic")).total).toBe(1);
    // Segments nobody refers to any more go once they are old enough.
    const later = Date.now() + 60 * 60 * 1000;
    store.collectGarbage(store.load(), later);
    const live = new Set([...store.load().values()].flatMap((r) => [...r.norm, ...r.orig, ...r.ents].map((c) => c.seg)));
    expect(readdirSync(cache).filter((f) => f.startsWith("seg-")).map((f) => f.slice(4, 20)).sort()).toEqual([...live].sort());
  });

  it("a file truncated and regrown to a larger size is rebuilt, not appended to", async () => {
    const { dir, index } = fresh();
    const s = writeSession(dir, { messages: [{ role: "user", text: "original words" }] });
    await index.update([s.path]);
    writeFileSync(s.path, `${header("s-new", "/p")}\n${messageLine("e1", null, { role: "user", text: "completely different and longer text here" }, Date.UTC(2026, 0, 1))}\n`);
    expect(await index.update([s.path])).toMatchObject({ rebuilt: 1, appended: 0 });
    expect((await index.search([s.path], "original")).total).toBe(0);
  });

  it("survives a corrupt manifest and missing or short data files (rebuilt)", async () => {
    const { dir, index, cache } = fresh();
    const s = writeSession(dir, { messages: [{ role: "user", text: "needle in here" }] });
    await index.update([s.path]);
    writeFileSync(join(cache, "manifest.json"), "{ not json");
    const again = new SearchIndex(cache);
    expect((await again.search([s.path], "needle")).total).toBe(1);
    for (const f of readdirSync(cache)) if (f.startsWith("seg-")) truncateSync(join(cache, f), 2);
    const third = new SearchIndex(cache);
    expect((await third.search([s.path], "needle")).total).toBe(1);
  });

  it("keeps pi's listing rules: no header, a header that is not first, a message without message", async () => {
    const { dir, index } = fresh();
    const noHeader = join(dir, "no-header.jsonl");
    writeFileSync(noHeader, `${messageLine("e1", null, { role: "user", text: "needle" }, 1)}\n`);
    const late = join(dir, "late.jsonl");
    writeFileSync(late, `{broken\n${header("late", "/p")}\n${messageLine("e1", null, { role: "user", text: "needle" }, 1)}\n`);
    const throws = join(dir, "throws.jsonl");
    writeFileSync(throws, `${header("t", "/p")}\n${messageLine("e1", null, { role: "user", text: "needle" }, 1)}\n{"type":"message","id":"x"}\n`);
    const bom = join(dir, "bom.jsonl");
    writeFileSync(bom, `\uFEFF${header("b", "/p")}\n${messageLine("e1", null, { role: "user", text: "needle" }, 1)}\n`);
    const result = await index.search([noHeader, late, throws, bom], "needle");
    // Malformed lines are skipped, so `late` is listed; the others pi 1.5.2 does not list at all.
    expect(result.sessions.map((h) => h.id)).toEqual(["late"]);
    expect([noHeader, late, throws, bom].map((p) => buildSessionInfo(p)?.id ?? null)).toEqual([null, "late", null, null]);
  });

  it("matches name, id and cwd like pi, and ranks a name match first", async () => {
    const { dir, index } = fresh();
    const byText = writeSession(dir, { id: "aaaa-1", messages: [{ role: "user", text: "deploy the thing" }] });
    const byName = writeSession(dir, { id: "bbbb-2", name: "Deploy plan", messages: [{ role: "user", text: "x" }] });
    const byCwd = writeSession(dir, { id: "cccc-3", cwd: "/srv/deploy", messages: [{ role: "user", text: "y" }] });
    const result = await index.search([byText.path, byName.path, byCwd.path], "deploy");
    expect(result.sessions[0]?.path).toBe(byName.path);
    expect(result.sessions[0]?.matches[0]).toMatchObject({ entryId: "n2", role: "session_info", snippet: "Deploy plan", highlight: [0, 6] });
    expect(new Set(result.sessions.map((h) => h.path))).toEqual(new Set([byText.path, byName.path, byCwd.path]));
    expect((await index.search([byText.path, byName.path, byCwd.path], "bbbb")).sessions.map((h) => h.fields)).toEqual([["id"]]);
    // Words not found literally fall back to fuzzy in name and cwd only (not message text).
    expect((await index.search([byText.path, byName.path, byCwd.path], "dpl")).sessions.map((h) => h.path).sort()).toEqual([byName.path, byCwd.path].sort());
  });

  it("tool results and thinking are not searched (pi searches user/assistant text only)", async () => {
    const { dir, index } = fresh();
    const s = writeSession(dir, { messages: [{ role: "user", text: "run it" }, { role: "toolResult", text: "secret-output" }] });
    expect((await index.search([s.path], "secret-output")).total).toBe(0);
  });

  it("a later session_info without a name clears the name", async () => {
    const { dir, index } = fresh();
    const s = writeSession(dir, { name: "Zanzibar", messages: [{ role: "user", text: "x" }] });
    expect((await index.search([s.path], "zanzibar")).total).toBe(1);
    appendFileSync(s.path, `${JSON.stringify({ type: "session_info", id: "n9", parentId: null, timestamp: "2026-01-01T00:00:00.000Z" })}\n`);
    expect((await index.search([s.path], "zanzibar")).total).toBe(0);
  });

  it("re: with a catastrophic pattern is stopped per session and says so", async () => {
    const { dir, index } = fresh();
    const slow = writeSession(dir, { messages: [{ role: "user", text: `${"a".repeat(40)}!` }] });
    const ok = writeSession(dir, { messages: [{ role: "user", text: "aaaa" }] });
    const started = Date.now();
    const result = await index.search([slow.path, ok.path], "re:^(a+)+$", { regex: { perSessionMs: 300 } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.truncated).toBe("regex time limit");
    expect(result.notSearched).toEqual([slow.path]);
    expect(result.sessions.map((h) => h.path)).toEqual([ok.path]);
  });

  it("re: with a catastrophic pattern on a session name is stopped too, and the next query runs", async () => {
    const { dir, index } = fresh();
    const slow = writeSession(dir, { name: `${"a".repeat(40)}!`, messages: [{ role: "user", text: "hello" }] });
    const ok = writeSession(dir, { name: "aaaa", messages: [{ role: "user", text: "hello" }] });
    const result = await index.search([slow.path, ok.path], "re:^(a+)+$", { regex: { perSessionMs: 300 } });
    expect(result.notSearched).toEqual([slow.path]);
    expect(result.sessions.map((h) => h.path)).toEqual([ok.path]);
    const next = await index.search([slow.path, ok.path], "re:hel+o");
    expect(next.truncated).toBeUndefined();
    expect(next.sessions.map((h) => h.path).sort()).toEqual([slow.path, ok.path].sort());
  });

  it("a cancelled re: query leaves nothing behind: the next query runs on a fresh worker and blames no session", async () => {
    const { dir, index } = fresh();
    const slow = writeSession(dir, { messages: [{ role: "user", text: `hello ${"a".repeat(40)}!` }] });
    const ok = writeSession(dir, { messages: [{ role: "user", text: "hello aaaa" }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    // No per-session limit to speak of: only the cancel stops it (the worker stays stuck in the slow session).
    const cancelled = await index.search([slow.path, ok.path], "re:(a+)+$", { signal: controller.signal, regex: { perSessionMs: 60_000, totalMs: 60_000 } });
    expect(cancelled.truncated).toBe("cancelled");
    const next = await index.search([slow.path, ok.path], "re:hel+o", { regex: { perSessionMs: 300 } });
    expect(next.truncated).toBeUndefined();
    expect(next.notSearched).toEqual([]);
    expect(next.sessions.map((h) => h.path).sort()).toEqual([slow.path, ok.path].sort());
  });

  it("re: asked for the first sessions only stops once they are known, in pi's order", async () => {
    const { dir, index } = fresh();
    const paths: string[] = [];
    for (let i = 0; i < 8; i++) {
      paths.push(writeSession(dir, { name: i === 5 ? "the alpha session" : undefined, messages: [{ role: "user", text: i % 2 ? "alpha here" : "beta" }], startTime: Date.UTC(2026, 3, 1 + i) }).path);
    }
    const all = await index.search(paths, "re:alpha");
    expect(all.total).toBe(4);
    expect(all.totalIsLowerBound).toBeUndefined();
    const first = await index.search(paths, "re:alpha", { limit: 2, firstOnly: true });
    expect(first.sessions.map((h) => h.path)).toEqual(all.sessions.slice(0, 2).map((h) => h.path));
    // The name match first (pi's rank), then the most recent message match.
    expect(first.sessions.map((h) => h.path)).toEqual([paths[5], paths[7]]);
    expect(first.sessions[0]!.matches.map((m) => m.role)).toContain("session_info");
    expect(first.totalIsLowerBound).toBe(true);
    expect(first.total).toBeLessThan(4);
    const enough = await index.search(paths, "re:alpha", { limit: 10, firstOnly: true });
    expect(enough.sessions.map((h) => h.path)).toEqual(all.sessions.map((h) => h.path));
    expect(enough.totalIsLowerBound).toBeUndefined();
  });

  it("an invalid regex is an error and matches nothing", async () => {
    const { dir, index } = fresh();
    const s = writeSession(dir, { messages: [{ role: "user", text: "(" }] });
    const result = await index.search([s.path], "re:(");
    expect(result.error).toMatch(/Invalid regular expression/);
    expect(result.sessions).toEqual([]);
  });

  it("a line still being written is not indexed until complete, then appended", async () => {
    const { dir, index } = fresh();
    const s = writeSession(dir, { messages: [{ role: "user", text: "start" }] });
    const line = messageLine("e2", "e1", { role: "assistant", text: "finally complete" }, Date.UTC(2026, 5, 1));
    appendFileSync(s.path, line.slice(0, 20));
    expect((await index.search([s.path], "complete")).total).toBe(0);
    appendFileSync(s.path, `${line.slice(20)}\n`);
    expect(await index.update([s.path])).toMatchObject({ appended: 1 });
    expect((await index.search([s.path], "complete")).total).toBe(1);
  });

  it("same size and content but a new mtime is re-read (the middle could have changed)", async () => {
    const { dir, index } = fresh();
    const s = writeSession(dir, { messages: [{ role: "user", text: "one" }] });
    await index.update([s.path]);
    utimesSync(s.path, new Date(), new Date(Date.now() + 5000));
    expect(await index.update([s.path])).toMatchObject({ rebuilt: 1 });
  });

  it("sessions of old files without entry ids give their line", async () => {
    const { dir, index } = fresh();
    const path = join(dir, "v1.jsonl");
    writeFileSync(path, `${JSON.stringify({ type: "session", id: "old", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" })}\n${JSON.stringify({ type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "legacy words", timestamp: 1 } })}\n`);
    expect((await index.search([path], "legacy")).sessions[0]?.matches).toEqual([{ entryId: null, line: 2, role: "user", snippet: "legacy words", highlight: [0, 6], time: Date.parse("2025-01-01T00:00:01.000Z") }]);
  });

  it("writes one segment per update, appends as new chunks, and compacts fragmented rows", async () => {
    const { dir, cache } = fresh();
    const index = new SearchIndex(cache, { maxSegments: 2 });
    const segments = (): string[] => readdirSync(cache).filter((f) => /^seg-.*\.bin$/.test(f));
    const a = writeSession(dir, { messages: [{ role: "user", text: "first words" }] });
    const b = writeSession(dir, { messages: [{ role: "user", text: "other words" }] });
    await index.update([a.path, b.path]);
    expect(segments()).toHaveLength(1);
    appendLines(a.path, [messageLine("e5", "e1", { role: "assistant", text: "later addition" }, Date.UTC(2026, 5, 1))]);
    await index.update([a.path, b.path]);
    expect(segments()).toHaveLength(2);
    // Another process reading the same cache sees both chunks of the grown session.
    expect((await new SearchIndex(cache).search([a.path, b.path], '"words later"')).sessions.map((h) => h.path)).toEqual([a.path]);
    appendLines(b.path, [messageLine("e6", "e1", { role: "assistant", text: "more" }, Date.UTC(2026, 5, 2))]);
    await index.update([a.path, b.path]);
    // Three segments referenced > 2: the fragmented rows were copied into a new one.
    const rows = new SearchStore(cache).load();
    expect(new Set([...rows.values()].flatMap((r) => [...r.norm, ...r.orig, ...r.ents].map((c) => c.seg))).size).toBeLessThanOrEqual(2);
    expect([...rows.values()].every((r) => r.norm.length === 1)).toBe(true);
    const again = new SearchIndex(cache);
    expect((await again.search([a.path, b.path], "addition")).sessions.map((h) => h.matches[0]?.entryId)).toEqual(["e5"]);
    expect((await again.search([a.path, b.path], "more")).sessions.map((h) => h.matches[0]?.entryId)).toEqual(["e6"]);
  });

  it("a long-lived index picks up what another process indexed since (manifest reloaded)", async () => {
    const { dir, index, cache } = fresh();
    const a = writeSession(dir, { messages: [{ role: "user", text: "shared words" }] });
    await index.update([a.path]);
    appendLines(a.path, [messageLine("e7", "e1", { role: "assistant", text: "cli indexed this" }, Date.UTC(2026, 5, 1))]);
    await new Promise((r) => setTimeout(r, 20));
    expect(await new SearchIndex(cache).update([a.path])).toMatchObject({ appended: 1 });
    // The first index did not read the appended bytes itself: the other process's row is reused.
    expect(await index.update([a.path])).toMatchObject({ unchanged: 1, appended: 0 });
    expect((await index.search([a.path], "cli")).total).toBe(1);
  });

  it("nameLine helper writes what pi reads as a name", () => {
    expect(JSON.parse(nameLine("n", null, "x")).type).toBe("session_info");
  });
});
