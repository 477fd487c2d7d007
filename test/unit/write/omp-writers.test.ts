// Writers on omp sessions, loaded back by omp 18.3.4's own SessionManager
// (the oracle): label, navigate and rename (the title slot in place, as omp
// writes it) through omp's append protocol; every old entry kept; the intended
// leaf, labels, context and title; refusals leave the file byte-identical.

import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { titleSlotLine } from "../../support/omp/title-slot-line.js";
import { ompLockPath } from "../../../src/core/session/append/omp-publish-lock.js";
import { WriteRefusedError } from "../../../src/core/session/append/append.js";
import { openSession } from "../../../src/core/session/open/open-session.js";
import { serializeTitleSlot } from "../../../src/core/session/format/omp-title-slot-serialize.js";
import { forkSession, renameSession, runBranchSummary, runCompaction, runNavigate, setLabel } from "../../../src/core/write/index.js";
import { OMP_TITLE_CACHE_NOTICE } from "../../../src/core/write/rename-session.js";
import { nodeSqlite } from "../../../src/core/fs/index.js";
import { describeOmp, fastTempDir, type OmpLoadBack } from "../../support/omp/oracle.js";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { ompDiscovery } from "../../support/omp/discovery-oracle.js";

const dir = fastTempDir("omp-writers-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function copyOf(name: string): string {
  const path = join(dir, `${n++}-${name}.jsonl`);
  copyFileSync(join(OMP_FIXTURES_DIR, `${name}.jsonl`), path);
  return path;
}
const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0);

describeOmp("writers on omp sessions, loaded back by omp 18.3.4", (oracle) => {
  async function back(path: string): Promise<OmpLoadBack> {
    const loaded = await oracle().loadBack(path);
    if ("error" in loaded) throw new Error(loaded.error);
    return loaded;
  }

  async function keepsEveryEntry(path: string, before: string[], added: number): Promise<OmpLoadBack> {
    const after = lines(path);
    // Appends only (line 1, the slot, may be rewritten by a rename).
    expect(after.slice(1, before.length)).toEqual(before.slice(1));
    expect(after.length).toBe(before.length + added);
    const loaded = await back(path);
    expect(loaded.malformedRecords).toBe(0);
    return loaded;
  }

  it("label: set and cleared as omp's appendLabelChange; omp's leaf is the label entry, the lock is gone", async () => {
    const path = copyOf("omp-soft-compaction-branch-summary");
    const before = lines(path);
    const target = (await back(path)).branch[2]!;
    const set = setLabel({ session: await openSession(path), targetId: target, label: "  checkpoint  " });
    expect(set.written).toBe(true);
    let loaded = await keepsEveryEntry(path, before, 1);
    expect(loaded.labels[target]).toBe("checkpoint");
    expect(loaded.leafId).toBe(set.entry.id);
    setLabel({ session: await openSession(path), targetId: target, label: "" });
    loaded = await keepsEveryEntry(path, before, 2);
    expect(loaded.labels[target]).toBeUndefined();
    expect(() => readFileSync(ompLockPath(path))).toThrow();
  });

  it("navigate: a namespaced custom entry under the target; omp resumes there with the target's context", async () => {
    const path = copyOf("omp-soft-compaction-branch-summary");
    const before = lines(path);
    const original = await back(path);
    // An assistant answer on the abandoned branch (before the branch summary): not on the current path.
    const session = await openSession(path);
    const offPath = original.entries.find((e) => e.type === "message" && (e.message as { role: string }).role === "assistant" && !original.branch.includes(e.id))!;
    const result = runNavigate({ session, targetId: offPath.id });
    expect(result.written).toBe(true);
    const loaded = await keepsEveryEntry(path, before, 1);
    expect(loaded.leafId).toBe(result.entry!.id);
    expect(loaded.branch.at(-2)).toBe(offPath.id);
    const targetContext = await oracle().answers({ file: join(OMP_FIXTURES_DIR, "omp-soft-compaction-branch-summary.jsonl"), leaves: [offPath.id] });
    expect(loaded.llm).toEqual(targetContext.leaves[0]!.llm);
  });

  it("rename: the 256-byte slot rewritten in place and a title_change appended; omp's name and /resume title are the new one", async () => {
    const home = join(dir, "rename-home");
    const folder = join(home, ".omp", "agent", "sessions", "-proj");
    mkdirSync(folder, { recursive: true });
    const path = join(folder, "2026-11-23T22-32-57-180Z_01a20a8a.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), path);
    const before = lines(path);
    const size = readFileSync(path).length;
    const result = renameSession({ session: await openSession(path), name: "Renamed\nby  pi-sessions", now: () => new Date("2026-11-28T08:00:00.000Z") });
    expect(result).toMatchObject({ written: true, agent: "omp", name: "Renamed by pi-sessions", previousName: null });
    const after = readFileSync(path);
    expect(after.subarray(0, 256).toString("utf8")).toBe(serializeTitleSlot({ title: "Renamed by pi-sessions", source: "user", updatedAt: "2026-11-28T08:00:00.000Z" }));
    expect(after.length).toBe(size + Buffer.byteLength(lines(path).at(-1)!) + 1);
    const loaded = await keepsEveryEntry(path, before, 1);
    expect(loaded.title).toBe("Renamed by pi-sessions");
    expect(loaded.titleSource).toBe("user");
    const change = loaded.entries.at(-1)!;
    expect(change).toMatchObject({ type: "title_change", title: "Renamed by pi-sessions", source: "user" });
    expect(loaded.llm.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    const listed = await ompDiscovery({ HOME: home, TMPDIR: dir });
    expect(listed.listAll.map((s) => s.title)).toEqual(["Renamed by pi-sessions"]);
    // A second rename records the previous title.
    const again = renameSession({ session: await openSession(path), name: "Second" });
    expect(again.previousName).toBe("Renamed by pi-sessions");
    expect((await back(path)).entries.at(-1)).toMatchObject({ type: "title_change", title: "Second", previousTitle: "Renamed by pi-sessions" });
  });

  it("rename on Node 20 after omp named the session: omp's /resume shows our name; its welcome screen keeps the title it cached in history.db, also after omp opens the session (the notice says so)", async () => {
    const home = join(dir, "title-cache-home");
    const folder = join(home, ".omp", "agent", "sessions", "-proj");
    mkdirSync(folder, { recursive: true });
    const path = join(folder, "2026-11-23T22-32-57-180Z_01a20a8a-7a5c-7328-b37d-344f0d311926.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), path);
    const env = { HOME: home, TMPDIR: dir };
    const named = await ompDiscovery(env, { renameByOmp: [{ path, title: "Named by omp" }], recentDirs: [folder] });
    expect(named.recent[folder]!.map((s) => s.name)).toEqual(["Named by omp"]);
    // This Node has no SQLite (Node 20): omp's cache cannot be updated, and the rename says so.
    // (With SQLite it is updated: omp-sqlite-stores.test.ts.)
    expect(nodeSqlite()).toBeUndefined();
    const ours = renameSession({ session: await openSession(path), name: "Named by pi-sessions", ompAgentDir: join(home, ".omp", "agent") });
    expect(ours).toMatchObject({ previousName: "Named by omp", notice: OMP_TITLE_CACHE_NOTICE });
    const after = await ompDiscovery(env, { renameByOmp: [{ path }], recentDirs: [folder] });
    expect(after.listAll.map((s) => s.title)).toEqual(["Named by pi-sessions"]);
    expect(after.recent[folder]!.map((s) => s.name)).toEqual(["Named by omp"]);
    // Never named before: omp cached no title, so nothing is stale and nothing is said.
    const fresh = copyOf("omp-simple");
    expect(renameSession({ session: await openSession(fresh), name: "First name" }).notice).toBeUndefined();
  });

  it("rename: a long title is cut to the slot by code points, as omp cuts it", async () => {
    const path = copyOf("omp-simple");
    const long = "é🙂".repeat(100);
    const result = renameSession({ session: await openSession(path), name: long });
    const loaded = await back(path);
    expect(loaded.title).toBe(result.name);
    expect(result.name.length).toBeLessThan(long.length);
    expect(readFileSync(path).subarray(0, 256).at(-1)).toBe(0x0a);
  });

  it("rename of an omp-resumed pi file (no slot) is refused, nothing written", async () => {
    const path = copyOf("pi073-digest-compaction-resumed-by-omp");
    const hash = sha(path);
    const session = await openSession(path);
    expect(() => renameSession({ session, name: "x", agent: "omp" })).toThrow(/no title slot/);
    expect(() => renameSession({ session, name: "x", agent: "omp" })).toThrow(WriteRefusedError);
    expect(sha(path)).toBe(hash);
  });

  it("an omp file whose last entry lacks its newline gets one before ours (omp would lose the next entry otherwise)", async () => {
    const path = copyOf("omp-simple");
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.slice(0, -1));
    const before = lines(path);
    const target = (await back(path)).branch[1]!;
    setLabel({ session: await openSession(path), targetId: target, label: "x" });
    expect(readFileSync(path, "utf8").startsWith(text)).toBe(true);
    const loaded = await keepsEveryEntry(path, before, 1);
    expect(loaded.labels[target]).toBe("x");
  });

  it("a truncated last line, a live omp lock: refused, the file byte-identical", async () => {
    const truncated = copyOf("omp-simple");
    writeFileSync(truncated, readFileSync(truncated, "utf8").slice(0, -20));
    let hash = sha(truncated);
    const session = await openSession(truncated);
    expect(() => setLabel({ session, targetId: session.index.leafId!, label: "x" })).toThrow(WriteRefusedError);
    expect(sha(truncated)).toBe(hash);

    const locked = copyOf("omp-simple");
    writeFileSync(ompLockPath(locked), `${process.pid}:${Date.now()}\n`);
    hash = sha(locked);
    const s2 = await openSession(locked);
    expect(() => setLabel({ session: s2, targetId: s2.index.leafId!, label: "x" })).toThrow(/publish lock/);
    expect(sha(locked)).toBe(hash);
    expect(readFileSync(ompLockPath(locked), "utf8")).toMatch(/^\d+:\d+\n$/);
  });

  it("a stale omp lock (dead pid; contentless and old) is taken over", async () => {
    const path = copyOf("omp-simple");
    writeFileSync(ompLockPath(path), "999999999:1\n");
    const s = await openSession(path);
    expect(setLabel({ session: s, targetId: s.index.leafId!, label: "a" }).written).toBe(true);
    writeFileSync(ompLockPath(path), "");
    const { utimesSync } = await import("node:fs");
    utimesSync(ompLockPath(path), new Date(Date.now() - 5000), new Date(Date.now() - 5000));
    const s2 = await openSession(path);
    expect(setLabel({ session: s2, targetId: s2.index.leafId!, label: "b" }).written).toBe(true);
    expect(() => readFileSync(ompLockPath(path))).toThrow();
  });
});

describeOmp("compaction on omp sessions, loaded back by omp 18.3.4", (oracle) => {
  const FIXTURES = ["omp-simple", "omp-soft-compaction-branch-summary", "omp-soft-handoff-reset", "omp-snapcompact", "pi073-digest-compaction-resumed-by-omp"] as const;

  it.each(FIXTURES)("%s: omp's own cut (keep 2000), omp's entry shape and <files> block; omp loads every old entry, our entry as the leaf, context = omp's summary template + kept + later", async (name) => {
    const path = copyOf(name);
    const agentDir = join(dir, `agent-${name}`);
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "config.yml"), "compaction:\n  keepRecentTokens: 2000\n");
    const before = lines(path);
    const omp = await oracle().answers({ file: path, settings: [{ keepRecentTokens: 2000 }] });
    const prep = omp.leaves[0]!.preparations[0]!;
    const session = await openSession(path);
    const result = await runCompaction({ session, agentDir: join(dir, "pi-agent"), ompAgentDir: agentDir, summarizer: { digest: true }, trustProject: false });
    expect(result).toMatchObject({ written: true, agent: "omp" });
    const entry = result.entry!;
    expect(entry.firstKeptEntryId).toBe(prep.firstKeptEntryId);
    expect(entry.tokensBefore).toBe(prep.tokensBefore);
    expect(entry).toMatchObject({ fromExtension: true });
    for (const key of ["method", "fromHook", "usage", "systemMessage"]) expect(entry).not.toHaveProperty(key);
    if (prep.filesBlock) expect(entry.summary.endsWith(prep.filesBlock.trim())).toBe(true);
    const after = lines(path);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBe(before.length + 1);
    const loaded = await oracle().loadBack(path);
    if ("error" in loaded) throw new Error(loaded.error);
    expect(loaded.leafId).toBe(entry.id);
    expect(loaded.malformedRecords).toBe(0);
    const kept = prep.recentMessages;
    expect(loaded.context.messages[0]!.role).toBe("compactionSummary");
    expect(loaded.context.messages.length).toBe(1 + kept);
    expect(String((loaded.llm[0]!.content as { text: string }[])[0]!.text)).toMatch(/^Prior model work\/tool state available\./);
  });
});

describeOmp("branch summaries on omp sessions, loaded back by omp 18.3.4", (oracle) => {
  async function back(path: string): Promise<OmpLoadBack> {
    const loaded = await oracle().loadBack(path);
    if ("error" in loaded) throw new Error(loaded.error);
    return loaded;
  }
  async function keepsEveryEntry(path: string, before: string[], added: number): Promise<OmpLoadBack> {
    const after = lines(path);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBe(before.length + added);
    const loaded = await back(path);
    expect(loaded.malformedRecords).toBe(0);
    return loaded;
  }
  it("leaving the branch for an earlier assistant answer: omp's abandoned entries, omp's entry shape (parentId = fromId = the new leaf) and text; omp's context ends with the branch-return summary", async () => {
    const path = copyOf("omp-soft-compaction-branch-summary");
    const before = lines(path);
    const original = await back(path);
    const assistants = original.branch.filter((id) => {
      const e = original.entries.find((x) => x.id === id)!;
      return e.type === "message" && (e.message as { role: string }).role === "assistant";
    });
    const target = assistants[assistants.length - 2]!;
    const omp = await oracle().answers({ file: path, branchPairs: [{ oldLeafId: original.leafId, targetId: target }], branchBudgets: [0] });
    const session = await openSession(path);
    const result = await runBranchSummary({ session, targetId: target, agentDir: join(dir, "pi-agent"), summarizer: { digest: true }, trustProject: false });
    expect(result).toMatchObject({ written: true, agent: "omp", newLeafId: target });
    expect(result.abandonedEntries).toBe(omp.branches[0]!.entryIds.length);
    const entry = result.entry!;
    expect(entry).toMatchObject({ parentId: target, fromId: target, fromExtension: true });
    expect(entry).not.toHaveProperty("fromHook");
    expect(entry.summary.startsWith("User explored another conversation branch, then returned here.\nExploration summary:")).toBe(true);
    const files = omp.branches[0]!.prepared[0]!.files;
    if (files.readFiles.length + files.modifiedFiles.length > 0) expect(entry.summary).toMatch(/<files>\n[\s\S]*\n<\/files>$/);
    else expect(entry.summary).not.toContain("<files>");
    const loaded = await keepsEveryEntry(path, before, 1);
    expect(loaded.leafId).toBe(entry.id);
    expect(loaded.context.messages.at(-1)!.role).toBe("branchSummary");
    const last = loaded.llm.at(-1)!;
    expect(String((last.content as { text: string }[])[0]!.text)).toMatch(/^Branch-return summary:\n\n<summary>\nUser explored another conversation branch, then returned here\.\nExploration summary:/);
  });
});

describeOmp("forks of omp sessions, opened by omp 18.3.4", (oracle) => {
  it("a new omp file (slot, header, path, labels) in omp's folder for the cwd; omp opens it with the source's context at the fork point", async () => {
    const source = copyOf("omp-soft-compaction-branch-summary");
    const hash = sha(source);
    const agentDir = join(dir, "fork-agent");
    const sourceBack = await oracle().loadBack(source);
    if ("error" in sourceBack) throw new Error(sourceBack.error);
    const atId = sourceBack.branch[sourceBack.branch.length - 3]!;
    const result = forkSession({ session: await openSession(source), atId, agentDir: join(dir, "pi-agent"), ompAgentDir: agentDir, cwd: join(dir, "fork-cwd") });
    expect(result.written).toBe(true);
    expect(result.path.startsWith(join(agentDir, "sessions"))).toBe(true);
    expect(sha(source)).toBe(hash);
    const bytes = readFileSync(result.path);
    expect(bytes.subarray(0, 256).at(-1)).toBe(0x0a);
    const loaded = await oracle().loadBack(result.path);
    if ("error" in loaded) throw new Error(loaded.error);
    expect(loaded.header).toMatchObject({ type: "session", version: 3, parentSession: source });
    expect(loaded.titleSlot).not.toBeNull();
    const sourceAt = await oracle().answers({ file: source, leaves: [atId] });
    expect(loaded.llm).toEqual(sourceAt.leaves[0]!.llm);
    for (const [target, label] of Object.entries(sourceBack.labels)) if (sourceAt.leaves[0]!.path.includes(target)) expect(loaded.labels[target]).toBe(label);
  });
});


describe("bad omp input is never written to", () => {
  const cases: [string, string][] = [
    ["a slot only (omp would start a new session there)", `${titleSlotLine({ title: "" })}\n`],
    ["an empty file", ""],
    ["a slot, then no header (omp refuses to resume it)", `${titleSlotLine({ title: "x" })}\n{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi","timestamp":1}}\n`],
  ];
  it.each(cases)("%s: every writer refuses, the file byte-identical", async (_name, text) => {
    const path = join(dir, `bad-${n++}.jsonl`);
    writeFileSync(path, text);
    const hash = sha(path);
    const session = await openSession(path);
    const attempts: (() => unknown)[] = [
      () => renameSession({ session, name: "x", agent: "omp" }),
      () => setLabel({ session, targetId: "m1", label: "x", agent: "omp" }),
      () => runNavigate({ session, targetId: "m1", agent: "omp" }),
      () => forkSession({ session, agentDir: join(dir, "pi-agent"), ompAgentDir: join(dir, "fork-bad"), agent: "omp" }),
    ];
    for (const attempt of attempts) expect(attempt).toThrow();
    await expect(runCompaction({ session, agentDir: join(dir, "pi-agent"), ompAgentDir: join(dir, "a"), summarizer: { digest: true }, agent: "omp" })).rejects.toThrow();
    expect(sha(path)).toBe(hash);
  });
});
