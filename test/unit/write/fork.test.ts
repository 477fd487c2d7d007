// Fork / clone without pi: the new file against pi 0.73.1's own
// createBranchedSession, re-opened by pi's SessionManager with the source's
// context at the fork point; the source byte-identical; refusals leave no file.

import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSessionContext, SessionManager } from "@mariozechner/pi-coding-agent";
import { WriteRefusedError } from "../../../src/core/session/append/append.js";
import { piSessionDirForCwd } from "../../../src/core/discovery/discover.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { newSessionId } from "../../../src/core/session/format/session-id.js";
import { forkSession, RunInputError, setLabel } from "../../../src/core/write/index.js";
import { assistant, branchedSession, removeDir, sha, tempDir, user } from "./support/sessions.js";

const dir = tempDir("pi-sessions-fork-");
const agentDir = join(dir, "agent");
afterAll(() => removeDir(dir));

interface PiSession {
  getEntries(): Record<string, unknown>[];
  getLeafId(): string | null;
  getHeader(): Record<string, unknown> | null;
  getLabel(id: string): string | undefined;
  getSessionFile(): string;
  buildSessionContext(): unknown;
  createBranchedSession(leafId: string): string | undefined;
  appendMessage(m: unknown): string;
  appendLabelChange(id: string, label: string | undefined): string;
  branch(id: string): void;
}

const piOpenCopy = (path: string): PiSession => {
  const copy = join(dir, `copy-${Math.random().toString(36).slice(2)}.jsonl`);
  copyFileSync(path, copy);
  return SessionManager.open(copy) as unknown as PiSession;
};

/** The source's context at an entry, as pi builds it. */
const piContextAt = (path: string, id: string): unknown => buildSessionContext(piOpenCopy(path).getEntries() as never, id);

describe("forkSession", () => {
  it("writes root→entry as a new file in pi's folder for the cwd; pi re-opens it with the source's context there; the source is byte-identical", () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    const result = forkSession({ session: openSessionSync(path), atId: ids.a2b!, agentDir });
    expect(sha(path)).toBe(hash);
    expect(result.written).toBe(true);
    expect(dirname(result.path)).toBe(piSessionDirForCwd("/work/project", agentDir));
    expect(basename(result.path)).toBe(`${result.header.timestamp.replace(/[:.]/g, "-")}_${result.header.id}.jsonl`);
    expect(result.header).toMatchObject({ type: "session", version: 3, cwd: "/work/project", parentSession: path });
    expect(result.header.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const pi = SessionManager.open(result.path) as unknown as PiSession;
    expect(pi.getHeader()).toEqual(result.header);
    expect(pi.getLeafId()).toBe(ids.a2b);
    expect(pi.getEntries().map((e) => e.id)).toEqual([ids.u1, ids.a1, ids.u2, ids.a2, ids.r2, ids.a2b]);
    expect(pi.buildSessionContext()).toEqual(piContextAt(path, ids.a2b!));
  });

  it("equals pi 0.73.1's own createBranchedSession (header keys, entries, labels with their times) on a path without label entries in it", () => {
    const { path, ids } = branchedSession(dir);
    // Labels set after the conversation (as /tree does): on the path, off it, one changed, one cleared.
    setLabel({ session: openSessionSync(path), targetId: ids.u1!, label: "start" });
    setLabel({ session: openSessionSync(path), targetId: ids.u2!, label: "old" });
    setLabel({ session: openSessionSync(path), targetId: ids.s1!, label: "side" });
    setLabel({ session: openSessionSync(path), targetId: ids.a1!, label: "plan" });
    setLabel({ session: openSessionSync(path), targetId: ids.u2!, label: "do it" });
    setLabel({ session: openSessionSync(path), targetId: ids.a1!, label: undefined });
    setLabel({ session: openSessionSync(path), targetId: ids.a1!, label: "plan again" });
    const ours = forkSession({ session: openSessionSync(path), atId: ids.a2b!, agentDir });
    const source = piOpenCopy(path);
    const theirsPath = source.createBranchedSession(ids.a2b!)!;
    const theirs = readFileSync(theirsPath, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = readFileSync(ours.path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(mine[0]!)).toEqual(Object.keys(theirs[0]!));
    const withoutLabelIds = (entries: Record<string, unknown>[]) => entries.slice(1).map((e) => (e.type === "label" ? { ...e, id: "L", parentId: "P" } : e));
    expect(withoutLabelIds(mine)).toEqual(withoutLabelIds(theirs));
    // The labels: pi's map order (u1, u2 kept its first place, a1 re-added after its clear), chained after the last entry.
    const labels = mine.filter((e) => e.type === "label");
    expect(labels.map((e) => [e.targetId, e.label])).toEqual([[ids.u1, "start"], [ids.u2, "do it"], [ids.a1, "plan again"]]);
    expect(labels[0]!.parentId).toBe(ids.a2b);
    expect(labels[1]!.parentId).toBe(labels[0]!.id);
    const pi = SessionManager.open(ours.path) as unknown as PiSession;
    expect([pi.getLabel(ids.u1!), pi.getLabel(ids.u2!), pi.getLabel(ids.a1!), pi.getLabel(ids.s1!)]).toEqual(["start", "do it", "plan again", undefined]);
    expect(pi.buildSessionContext()).toEqual(piContextAt(path, ids.a2b!));
  });

  it("a label entry inside the path: re-chained as pi 1.5 does, so pi 0.73 still gets the whole context (its own fork would leave a dangling parent)", () => {
    const sm = SessionManager.create("/work/project", dir) as unknown as PiSession;
    const u1 = sm.appendMessage(user("one"));
    const a1 = sm.appendMessage(assistant("reply one"));
    sm.appendLabelChange(u1, "mark"); // the label becomes the leaf: the next message hangs below it
    const u2 = sm.appendMessage(user("two"));
    const a2 = sm.appendMessage(assistant("reply two"));
    const path = sm.getSessionFile();
    const result = forkSession({ session: openSessionSync(path), atId: a2, agentDir });
    const entries = result.entries.filter((e) => e.type !== "label");
    expect(entries.map((e) => [e.id, e.parentId])).toEqual([[u1, null], [a1, u1], [u2, a1], [a2, u2]]);
    const pi = SessionManager.open(result.path) as unknown as PiSession;
    expect(pi.buildSessionContext()).toEqual(piContextAt(path, a2));
    expect(pi.getLabel(u1)).toBe("mark");
  });

  it("clone (no entry given) takes the leaf's branch; --cwd-like option moves it to another project's folder", () => {
    const { path, ids } = branchedSession(dir);
    const clone = forkSession({ session: openSessionSync(path), agentDir });
    expect(clone.atId).toBe(ids.s4);
    expect((SessionManager.open(clone.path) as unknown as PiSession).buildSessionContext()).toEqual(piOpenCopy(path).buildSessionContext());
    const moved = forkSession({ session: openSessionSync(path), agentDir, cwd: "/elsewhere/app" });
    expect(dirname(moved.path)).toBe(piSessionDirForCwd("/elsewhere/app", agentDir));
    expect(moved.header.cwd).toBe("/elsewhere/app");
  });

  it("refusals write no file and leave the source unchanged: unknown entry, no assistant message yet, a parent cycle", () => {
    const { path, ids } = branchedSession(dir);
    const forkDir = join(dir, "refusals");
    const hash = sha(path);
    expect(() => forkSession({ session: openSessionSync(path), atId: "nope0000", agentDir, sessionDir: forkDir })).toThrow(RunInputError);
    expect(() => forkSession({ session: openSessionSync(path), atId: ids.u1!, agentDir, sessionDir: forkDir })).toThrow(/no assistant message/);
    appendFileSync(
      path,
      `${JSON.stringify({ type: "custom", customType: "x", id: "cyc00001", parentId: "cyc00002", timestamp: "2025-01-01T00:00:00.000Z" })}\n` +
        `${JSON.stringify({ type: "custom", customType: "x", id: "cyc00002", parentId: "cyc00001", timestamp: "2025-01-01T00:00:00.000Z" })}\n`,
    );
    const cycleHash = sha(path);
    expect(hash).not.toBe(cycleHash);
    let error: unknown;
    try {
      forkSession({ session: openSessionSync(path), agentDir, sessionDir: forkDir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteRefusedError);
    expect((error as WriteRefusedError).reason).toBe("parent-cycle");
    expect(sha(path)).toBe(cycleHash);
    expect(existsSync(forkDir) ? readdirSync(forkDir) : []).toEqual([]);
  });

  it("dry run: the same plan, no file", () => {
    const { path, ids } = branchedSession(dir);
    const result = forkSession({ session: openSessionSync(path), atId: ids.a1!, agentDir, sessionDir: join(dir, "dry"), dryRun: true });
    expect(result.written).toBe(false);
    expect(result.entries.map((e) => e.id)).toEqual([ids.u1, ids.a1]);
    expect(existsSync(result.path)).toBe(false);
  });
});

describe("newSessionId", () => {
  it("is a UUID v7 whose first 48 bits are the time in ms (ids sort by creation)", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const id = newSessionId(at);
    expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(at.getTime());
    expect(newSessionId(new Date(at.getTime() + 1)) > id).toBe(true);
    expect(newSessionId(at)).not.toBe(id);
  });
});
