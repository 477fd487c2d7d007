// Our reader against pi 0.73.1's SessionManager on the same files: entry count,
// parent links, tree shape and child order (getTree), leaf, labels, session name,
// and for version 1 files the migrated parent chain and firstKeptEntryId targets
// (by position, since pi's migrated ids are random and ours deterministic).

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openSessionSync, sessionFromBytes } from "../../../src/core/session/open/open-session.js";
import { generateRandomSession } from "../../support/random-session.js";
import { ourView, piView } from "./support/tree-views.js";

const FIXTURES = new URL("../../fixtures/pi-mono/", import.meta.url);
const fixture = (name: string): string => new URL(name, FIXTURES).pathname;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-reader-diff-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.useRealTimers();
});

function expectSameAsPi(path: string, options: { sameIds: boolean }): void {
  const pi = piView(path);
  const ours = ourView(openSessionSync(path));
  expect(ours.count).toBe(pi.count);
  expect(ours.parents).toEqual(pi.parents);
  expect(ours.leafPos).toBe(pi.leafPos);
  expect(ours.tree).toEqual(pi.tree);
  expect(ours.labels).toEqual(pi.labels);
  expect(ours.name).toBe(pi.name);
  expect(ours.firstKept).toEqual(pi.firstKept);
  if (options.sameIds) expect(ours.ids).toEqual(pi.ids);
}

describe("version 1 fixtures (migrated in memory) read as pi reads them", () => {
  it.each(["large-session.jsonl", "before-compaction.jsonl"])("%s", (name) => {
    expectSameAsPi(fixture(name), { sameIds: false });
  });

  it("gives before-compaction.jsonl's legacy compactions the targets pi's golden values name", () => {
    // Golden (pi 0.73.1, by hand from the spec): compactions at entry indices 358 and 627 keep 292 and 550.
    const s = openSessionSync(fixture("before-compaction.jsonl"));
    const compactions = s.index.entries.filter((m) => m.type === "compaction");
    expect(compactions.map((m) => m.index)).toEqual([358, 627]);
    const kept = compactions.map((m) => s.index.get((s.entryAt(m) as { firstKeptEntryId: string }).firstKeptEntryId)!.index);
    expect(kept).toEqual([292, 550]);
  });

  it("gives the same ids every time, and ids derived from the header id and position", () => {
    const a = openSessionSync(fixture("large-session.jsonl"));
    const b = sessionFromBytes(readFileSync(fixture("large-session.jsonl")));
    expect(a.index.entries.map((m) => m.id)).toEqual(b.index.entries.map((m) => m.id));
    expect(new Set(a.index.entries.map((m) => m.id)).size).toBe(a.index.size);
    expect(a.index.entries.every((m) => /^[0-9a-f]{8}$/.test(m.id))).toBe(true);
    expect(a.version).toBe(1);
    expect(a.needsMigration).toBe(true);
    // Linear chain, as pi's migrateV1ToV2 builds it.
    a.index.entries.forEach((m, i) => expect(m.parentId).toBe(i === 0 ? null : a.index.entries[i - 1]!.id));
  });
});

/** Appends with pi's clock set, so sibling order depends on timestamps, not file order. */
function at(ms: number): void {
  vi.setSystemTime(new Date(Date.UTC(2025, 0, 1) + ms));
}

type PiMessage = Parameters<SessionManager["appendMessage"]>[0];
const user = (text: string): PiMessage => ({ role: "user", content: text, timestamp: 1 });
const assistant = (text: string): PiMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
  stopReason: "stop",
  timestamp: 2,
}) as PiMessage;

describe("sessions written by pi's SessionManager read as pi reads them", () => {
  it("branches appended out of time order, labels set/cleared/moved, names set and cleared", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    at(0);
    const sm = SessionManager.create("/work/project", join(dir, "a"));
    const u1 = sm.appendMessage(user("hello"));
    at(1000);
    const a1 = sm.appendMessage(assistant("hi"));
    at(9000);
    const late = sm.appendMessage(user("late branch, written first"));
    sm.appendMessage(assistant("ok"));
    sm.branch(a1);
    at(5000);
    const early = sm.appendMessage(user("early branch, written second"));
    sm.branch(a1);
    at(5000);
    sm.appendMessage(user("same time as the early branch"));
    sm.appendLabelChange(u1, "start");
    sm.appendLabelChange(late, "late");
    sm.appendLabelChange(late, undefined);
    sm.appendLabelChange(early, "first");
    sm.appendLabelChange(early, "renamed");
    sm.appendSessionInfo("  my session  ");
    sm.appendSessionInfo("");
    sm.appendSessionInfo("final name");
    sm.appendCustomEntry("ext-state", { n: 1 });
    sm.appendCustomMessageEntry("note", "custom content", true);
    const path = sm.getSessionFile()!;
    expectSameAsPi(path, { sameIds: true });
    const s = openSessionSync(path);
    expect(s.index.children(a1).map((m) => m.id)[0]).toBe(early);
    expect(s.index.branchPoints.map((m) => m.id)).toEqual([a1]);
    expect(s.index.sessionName).toBe("final name");
  });

  it("compactions, branch summaries, a reset leaf (second root) and an entry type pi does not know", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    at(0);
    const sm = SessionManager.create("/work/project", join(dir, "b"));
    const u1 = sm.appendMessage(user("one"));
    at(10);
    const a1 = sm.appendMessage(assistant("two"));
    at(20);
    sm.appendMessage(user("three"));
    at(30);
    sm.appendMessage(assistant("four"));
    at(40);
    sm.appendCompaction("summary", a1, 1234, { readFiles: [], modifiedFiles: [] });
    at(50);
    sm.appendMessage(user("after compaction"));
    at(60);
    sm.branchWithSummary(u1, "summary of the abandoned branch");
    at(70);
    sm.appendMessage(assistant("on the new branch"));
    sm.resetLeaf();
    at(80);
    sm.appendMessage(user("a second root"));
    (sm as unknown as { _appendEntry(e: object): void })._appendEntry({
      type: "context_edit",
      id: "ce000001",
      parentId: sm.getLeafId(),
      timestamp: new Date().toISOString(),
      targetId: u1,
      replacement: null,
    });
    const path = sm.getSessionFile()!;
    expectSameAsPi(path, { sameIds: true });
    const s = openSessionSync(path);
    expect(s.index.roots).toHaveLength(2);
    expect(s.index.get("ce000001")?.type).toBe("context_edit");
    expect(s.diagnostics.filter((d) => d.code === "unknown-entry-type")).toHaveLength(1);
  });

  it("50 random sessions from the shared generator", () => {
    for (let seed = 1001; seed <= 1050; seed++) {
      const generated = generateRandomSession(seed, join(dir, `random-${seed}`));
      expectSameAsPi(generated.path, { sameIds: true });
    }
  });
});
