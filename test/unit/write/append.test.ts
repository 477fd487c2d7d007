// Safe append against pi's own SessionManager (the oracle for key order and
// for reading the result back), and every refusal leaving the file
// byte-identical.

import { appendFileSync, copyFileSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { appendEntries, checkWritable, commitAppend, planAppend, SessionChangedError, WriteRefusedError } from "../../../src/core/session/append/append.js";
import { openSessionSync, sessionFromBytes } from "../../../src/core/session/open/open-session.js";
import { buildEntry, type EntryDraft } from "../../../src/core/session/format/serialize-entry.js";
import { branchedSession, piOpen, removeDir, sha, tempDir, user } from "./support/sessions.js";

const dir = tempDir();
afterAll(() => removeDir(dir));

const FIXTURE_V1 = resolve("test/fixtures/pi-mono/large-session.jsonl");

interface PiInMemory {
  appendMessage(m: unknown): string;
  appendCompaction(s: string, f: string, t: number, d?: unknown, h?: boolean): string;
  branchWithSummary(id: string | null, s: string, d?: unknown, h?: boolean): string;
  appendCustomEntry(t: string, d?: unknown): string;
  appendLabelChange(id: string, l: string | undefined): string;
  getEntry(id: string): unknown;
}

const keysAsWritten = (entry: unknown): string[] => Object.keys(JSON.parse(JSON.stringify(entry)) as object);

describe("new entries have pi's key order", () => {
  const sm = SessionManager.inMemory("/p") as unknown as PiInMemory;
  const first = sm.appendMessage(user("hi"));
  const at = { id: "abcd1234", parentId: first, timestamp: new Date().toISOString() };
  const cases: [string, () => string, EntryDraft][] = [
    [
      "compaction",
      () => sm.appendCompaction("S", first, 12, { readFiles: [], modifiedFiles: [] }, false),
      { type: "compaction", summary: "S", firstKeptEntryId: first, tokensBefore: 12, details: { readFiles: [], modifiedFiles: [] }, fromHook: false },
    ],
    [
      "branch_summary",
      () => sm.branchWithSummary(first, "B", { readFiles: [] }, true),
      { type: "branch_summary", fromId: first, summary: "B", details: { readFiles: [] }, fromHook: true },
    ],
    ["custom", () => sm.appendCustomEntry("x/y", { a: 1 }), { type: "custom", customType: "x/y", data: { a: 1 } }],
    ["label", () => sm.appendLabelChange(first, "L"), { type: "label", targetId: first, label: "L" }],
  ];
  it.each(cases)("%s", (_type, piAppend, draft) => {
    const piEntry = sm.getEntry(piAppend());
    expect(keysAsWritten(buildEntry(draft, at))).toEqual(keysAsWritten(piEntry));
  });

  it("drops undefined fields as pi's JSON.stringify does (compaction without details / fromHook)", () => {
    const piEntry = sm.getEntry(sm.appendCompaction("S", first, 1));
    expect(keysAsWritten(buildEntry({ type: "compaction", summary: "S", firstKeptEntryId: first, tokensBefore: 1 }, at))).toEqual(keysAsWritten(piEntry));
  });
});

describe("appendEntries", () => {
  it("appends complete lines as children of the leaf; pi reads them back and resumes at the last one", () => {
    const { path, ids } = branchedSession(dir);
    const before = readFileSync(path);
    const session = openSessionSync(path);
    const leaf = session.index.leafId!;
    expect(leaf).toBe(ids.s4);
    const result = appendEntries(session, [
      { type: "custom", customType: "test/one", data: { n: 1 } },
      { type: "label", targetId: ids.a1!, label: "here" },
    ]);
    const after = readFileSync(path);
    // Prefix unchanged, exactly the planned bytes added.
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const added = after.subarray(before.length).toString("utf8");
    expect(added.endsWith("\n")).toBe(true);
    const lines = added.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual(result.entries);
    expect(result.offset).toBe(before.length);
    expect(lines[0]!.parentId).toBe(leaf);
    expect(lines[1]!.parentId).toBe(lines[0]!.id);
    for (const line of lines) {
      expect(line.id).toMatch(/^[0-9a-f]{8}$/);
      expect(session.index.get(line.id as string)).toBeUndefined();
      expect(new Date(line.timestamp as string).toISOString()).toBe(line.timestamp);
    }
    const pi = piOpen(path, dir);
    expect(pi.leafId).toBe(lines[1]!.id);
    expect(pi.entries.slice(-2)).toEqual(lines);
    expect(SessionManager.open(pi.copy).getLabel(ids.a1!)).toBe("here");
  });

  it("takes an explicit parent (or null for a new root)", () => {
    const { path, ids } = branchedSession(dir);
    const session = openSessionSync(path);
    const [entry] = appendEntries(session, [{ type: "custom", customType: "t", data: null }], { parentId: ids.u2 }).entries;
    expect(entry!.parentId).toBe(ids.u2);
    const again = openSessionSync(path);
    const [root] = appendEntries(again, [{ type: "custom", customType: "t" }], { parentId: null }).entries;
    expect(root!.parentId).toBeNull();
  });

  it("skips an id already in the file (collision check, as pi's generateId)", () => {
    const { path, ids } = branchedSession(dir);
    const session = openSessionSync(path);
    const offered = [ids.u1!, ids.a1!, "0000beef"];
    const plan = planAppend(session, [{ type: "custom", customType: "t" }], { newId: () => offered.shift()! });
    expect(plan.entries[0]!.id).toBe("0000beef");
  });

  it("rejects an unknown parent before writing anything", () => {
    const { path } = branchedSession(dir);
    const hash = sha(path);
    expect(() => appendEntries(openSessionSync(path), [{ type: "custom", customType: "t" }], { parentId: "nope1234" })).toThrow(/no entry nope1234/);
    expect(sha(path)).toBe(hash);
  });
});

describe("refusals leave the file byte-identical", () => {
  const draft: EntryDraft[] = [{ type: "custom", customType: "t", data: 1 }];

  function refused(path: string, change: () => void, reason: string, message: RegExp): void {
    const session = openSessionSync(path);
    const plan = planAppend(session, draft);
    change();
    const hash = sha(path);
    let error: unknown;
    try {
      commitAppend(plan);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteRefusedError);
    expect((error as WriteRefusedError).reason).toBe(reason);
    expect((error as Error).message).toMatch(message);
    expect(sha(path)).toBe(hash);
  }

  it("a line appended since the read (pi is running)", () => {
    const { path } = branchedSession(dir);
    refused(path, () => appendFileSync(path, `${JSON.stringify({ type: "custom", customType: "pi", id: "feed0001", parentId: null, timestamp: new Date().toISOString() })}\n`), "changed-on-disk", /changed on disk.*pi may be running.*retry/s);
  });

  it("rewritten with the same size but different bytes at the end", () => {
    const { path } = branchedSession(dir);
    refused(
      path,
      () => {
        const text = readFileSync(path, "utf8");
        writeFileSync(path, text.replace(/Moved store\.ts/, "Moved STORE.ts"));
      },
      "changed-on-disk",
      /last bytes differ/,
    );
  });

  it("same bytes but modified again (mtime)", () => {
    const { path } = branchedSession(dir);
    refused(path, () => utimesSync(path, new Date(), new Date(Date.now() + 5000)), "changed-on-disk", /modified again/);
  });

  it("truncated", () => {
    const { path } = branchedSession(dir);
    refused(path, () => writeFileSync(path, readFileSync(path).subarray(0, 100)), "changed-on-disk", /size/);
  });

  it("deleted: not recreated", () => {
    const { path } = branchedSession(dir);
    const session = openSessionSync(path);
    rmSync(path);
    expect(() => appendEntries(session, draft)).toThrow(SessionChangedError);
    expect(() => readFileSync(path)).toThrow(/ENOENT/);
  });

  it("the last line is incomplete (no final newline)", () => {
    const { path } = branchedSession(dir);
    appendFileSync(path, '{"type":"custom","customType":"half","id":"0000aaaa","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z"}');
    const hash = sha(path);
    const session = openSessionSync(path);
    expect(() => checkWritable(session)).toThrow(/last line is incomplete/);
    expect(() => appendEntries(session, draft)).toThrow(WriteRefusedError);
    expect(sha(path)).toBe(hash);
  });

  it("no session header", () => {
    const { path } = branchedSession(dir);
    writeFileSync(path, readFileSync(path, "utf8").split("\n").slice(1).join("\n"));
    const hash = sha(path);
    expect(() => appendEntries(openSessionSync(path), draft)).toThrow(/not a session header/);
    expect(sha(path)).toBe(hash);
  });

  it("a version 1 file: says to run pi-sessions migrate", () => {
    const copy = join(dir, "v1.jsonl");
    copyFileSync(FIXTURE_V1, copy);
    const hash = sha(copy);
    let error: unknown;
    try {
      appendEntries(openSessionSync(copy), draft);
    } catch (e) {
      error = e;
    }
    expect((error as WriteRefusedError).reason).toBe("needs-migration");
    expect((error as Error).message).toContain(`pi-sessions migrate ${copy}`);
    expect(sha(copy)).toBe(hash);
  });

  it("a session read from memory has no file to write to", () => {
    const { path } = branchedSession(dir);
    expect(() => appendEntries(sessionFromBytes(readFileSync(path)), draft)).toThrow(/not read from a file/);
  });
});

describe("appending twice from one read", () => {
  it("refuses the second append (the first one changed the file)", () => {
    const { path } = branchedSession(dir);
    const session = openSessionSync(path);
    appendEntries(session, [{ type: "custom", customType: "a" }]);
    const hash = sha(path);
    expect(() => appendEntries(session, [{ type: "custom", customType: "b" }])).toThrow(SessionChangedError);
    expect(sha(path)).toBe(hash);
    // A fresh read may append again, under the new last entry.
    const fresh = openSessionSync(path);
    const [entry] = appendEntries(fresh, [{ type: "custom", customType: "b" }]).entries;
    expect(fresh.index.leafId).not.toBe(session.index.leafId);
    expect(entry!.parentId).toBe(fresh.index.leafId);
  });
});
