// Rename and labels, as pi's appendSessionInfo / appendLabelChange write them:
// pi 0.73.1's SessionManager re-opens the file with the name and labels; the
// bytes before the append are unchanged; entries on a parent cycle are refused.

import { appendFileSync, copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { WriteRefusedError } from "../../../src/core/session/append/append.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { renameSession, runNavigate, setLabel, RunInputError } from "../../../src/core/write/index.js";
import { branchedSession, removeDir, sha, tempDir } from "./support/sessions.js";

const dir = tempDir("pi-sessions-curate-");
afterAll(() => removeDir(dir));

interface PiReader {
  getSessionName(): string | undefined;
  getLabel(id: string): string | undefined;
  getLeafId(): string | null;
  getEntries(): Record<string, unknown>[];
  buildSessionContext(): unknown;
}

/** pi 0.73.1 re-opening the file (a copy: pi may rewrite what it opens). */
function piReopen(path: string): PiReader {
  const copy = join(dir, `reopen-${Math.random().toString(36).slice(2)}.jsonl`);
  copyFileSync(path, copy);
  return SessionManager.open(copy) as unknown as PiReader;
}

interface PiWriter {
  appendSessionInfo(name: string): string;
  appendLabelChange(id: string, label: string | undefined): string;
  getEntry(id: string): unknown;
}

const keysOf = (entry: unknown): string[] => Object.keys(JSON.parse(JSON.stringify(entry)) as object);

describe("renameSession", () => {
  it("appends a session_info line with pi's keys under the leaf; pi 0.73.1 shows the name; earlier bytes unchanged", () => {
    const { path } = branchedSession(dir);
    const before = readFileSync(path);
    const session = openSessionSync(path);
    const leaf = session.index.leafId;
    const result = renameSession({ session, name: "  Parser refactor  " });
    expect(result).toMatchObject({ written: true, name: "Parser refactor", previousName: null });
    expect(result.entry).toMatchObject({ type: "session_info", parentId: leaf, name: "Parser refactor" });
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.subarray(before.length).toString("utf8")).toBe(`${JSON.stringify(result.entry)}\n`);
    const pi = piReopen(path);
    expect(pi.getSessionName()).toBe("Parser refactor");
    expect(pi.getLeafId()).toBe(result.entry.id);
    // pi's own entry has the same keys in the same order.
    const sm = SessionManager.inMemory("/p") as unknown as PiWriter;
    expect(keysOf(result.entry)).toEqual(keysOf(sm.getEntry(sm.appendSessionInfo("x"))));
  });

  it("writes pi 1.5's form: line breaks become one space (0.73 reads it back the same)", () => {
    const { path } = branchedSession(dir);
    const result = renameSession({ session: openSessionSync(path), name: "first\r\n\nsecond\nthird " });
    expect(result.name).toBe("first second third");
    expect(piReopen(path).getSessionName()).toBe("first second third");
    expect(openSessionSync(path).index.sessionName).toBe("first second third");
  });

  it("a later rename wins; an empty name is refused with the file unchanged", () => {
    const { path } = branchedSession(dir);
    renameSession({ session: openSessionSync(path), name: "one" });
    const second = renameSession({ session: openSessionSync(path), name: "two" });
    expect(second.previousName).toBe("one");
    expect(piReopen(path).getSessionName()).toBe("two");
    const hash = sha(path);
    expect(() => renameSession({ session: openSessionSync(path), name: " \n " })).toThrow(RunInputError);
    expect(sha(path)).toBe(hash);
  });

  it("dry run writes nothing", () => {
    const { path } = branchedSession(dir);
    const hash = sha(path);
    expect(renameSession({ session: openSessionSync(path), name: "x", dryRun: true }).written).toBe(false);
    expect(sha(path)).toBe(hash);
  });
});

describe("setLabel", () => {
  it("labels any entry (off the current branch too); pi 0.73.1 shows it; the line is pi's; earlier bytes unchanged", () => {
    const { path, ids } = branchedSession(dir);
    const before = readFileSync(path);
    const session = openSessionSync(path);
    const result = setLabel({ session, targetId: ids.a2!, label: " checkpoint " });
    expect(result).toMatchObject({ written: true, label: "checkpoint", targetId: ids.a2, previousLabel: null });
    expect(result.entry).toMatchObject({ type: "label", parentId: session.index.leafId, targetId: ids.a2, label: "checkpoint" });
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const pi = piReopen(path);
    expect(pi.getLabel(ids.a2!)).toBe("checkpoint");
    const sm = SessionManager.inMemory("/p") as unknown as PiWriter & { appendMessage(m: unknown): string };
    const first = sm.appendMessage({ role: "user", content: "hi", timestamp: 1 });
    expect(keysOf(result.entry)).toEqual(keysOf(sm.getEntry(sm.appendLabelChange(first, "L"))));
  });

  it("clearing writes the label line without `label`, as pi's undefined; pi shows no label", () => {
    const { path, ids } = branchedSession(dir);
    setLabel({ session: openSessionSync(path), targetId: ids.u1!, label: "start" });
    const cleared = setLabel({ session: openSessionSync(path), targetId: ids.u1!, label: undefined });
    expect(cleared).toMatchObject({ label: null, previousLabel: "start" });
    const lastLine = readFileSync(path, "utf8").trimEnd().split("\n").at(-1)!;
    expect(Object.keys(JSON.parse(lastLine) as object)).toEqual(["type", "id", "parentId", "timestamp", "targetId"]);
    expect(piReopen(path).getLabel(ids.u1!)).toBeUndefined();
    // A blank label clears too (pi's /tree label editor trims and clears on empty).
    setLabel({ session: openSessionSync(path), targetId: ids.u1!, label: "again" });
    expect(setLabel({ session: openSessionSync(path), targetId: ids.u1!, label: "   " }).label).toBeNull();
    expect(piReopen(path).getLabel(ids.u1!)).toBeUndefined();
  });

  it("an unknown target is refused with the file unchanged", () => {
    const { path } = branchedSession(dir);
    const hash = sha(path);
    expect(() => setLabel({ session: openSessionSync(path), targetId: "nope0000", label: "x" })).toThrow(/no entry with id 'nope0000'/);
    expect(sha(path)).toBe(hash);
  });
});

/** A session whose last two entries are each other's parent: the leaf is on a parent cycle. */
function cycleSession(): { path: string; ids: Record<string, string> } {
  const built = branchedSession(dir);
  const t = new Date().toISOString();
  appendFileSync(
    built.path,
    `${JSON.stringify({ type: "custom", customType: "x", id: "cyc00001", parentId: "cyc00002", timestamp: t })}\n` +
      `${JSON.stringify({ type: "custom", customType: "x", id: "cyc00002", parentId: "cyc00001", timestamp: t })}\n`,
  );
  return built;
}

describe("no writer creates a leaf on a parent cycle", () => {
  const writers: [string, (path: string, ids: Record<string, string>) => unknown][] = [
    ["rename", (path) => renameSession({ session: openSessionSync(path), name: "x" })],
    ["label", (path, ids) => setLabel({ session: openSessionSync(path), targetId: ids.u1!, label: "x" })],
    ["navigate to a cycle entry", (path) => runNavigate({ session: openSessionSync(path), targetId: "cyc00001" })],
  ];
  it.each(writers)("%s: refused (parent-cycle), file unchanged", (_name, write) => {
    const { path, ids } = cycleSession();
    const hash = sha(path);
    let error: unknown;
    try {
      write(path, ids);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteRefusedError);
    expect((error as WriteRefusedError).reason).toBe("parent-cycle");
    expect((error as Error).message).toMatch(/parentId cycle/);
    expect(sha(path)).toBe(hash);
  });

  it("a self-parented leaf is a cycle for pi too (its getBranch loops): refused", () => {
    const { path } = branchedSession(dir);
    appendFileSync(path, `${JSON.stringify({ type: "custom", customType: "x", id: "self0001", parentId: "self0001", timestamp: new Date().toISOString() })}\n`);
    const hash = sha(path);
    expect(() => renameSession({ session: openSessionSync(path), name: "x" })).toThrow(/parentId cycle/);
    expect(sha(path)).toBe(hash);
  });

  it("navigating away from a cycle to a reachable entry still works (the new leaf's chain is simple)", () => {
    const { path, ids } = cycleSession();
    const moved = runNavigate({ session: openSessionSync(path), targetId: ids.a2b! });
    expect(moved.written).toBe(true);
  });
});
