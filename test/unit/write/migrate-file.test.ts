// On-disk migration against pi's own: SessionManager.open migrates and
// rewrites a v1/v2 file (_rewriteFile); our file must be the same text except
// for the ids, which must be the reader's deterministic ids.

import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSessionContext, migrateSessionEntries, parseSessionEntries, SessionManager } from "@mariozechner/pi-coding-agent";
import { WriteRefusedError } from "../../../src/core/session/append/append.js";
import { migrateSessionFile } from "../../../src/core/session/append/migrate-file.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { branchedSession, removeDir, sha, tempDir } from "./support/sessions.js";

const dir = tempDir();
afterAll(() => removeDir(dir));

const FIXTURES = ["large-session.jsonl", "before-compaction.jsonl"].map((f) => resolve("test/fixtures/pi-mono", f));

let n = 0;
function copyOf(file: string): string {
  const copy = join(dir, `${n++}-${basename(file)}`);
  copyFileSync(file, copy);
  return copy;
}

type Line = Record<string, unknown>;
const lines = (file: string): Line[] =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Line);

/** pi's lines with its random ids replaced by ours (same position = same entry). */
function withOurIds(piLines: Line[], ourLines: Line[]): Line[] {
  const map = new Map<unknown, unknown>();
  piLines.forEach((l, i) => {
    if (l.type !== "session") map.set(l.id, ourLines[i]!.id);
  });
  const sub = (v: unknown): unknown => (map.has(v) ? map.get(v) : v);
  return piLines.map((l) => {
    const out: Line = { ...l };
    for (const key of ["id", "parentId", "firstKeptEntryId", "targetId", "fromId"]) if (key in out) out[key] = sub(out[key]);
    return out;
  });
}

describe.each(FIXTURES)("migrating %s", (fixture) => {
  const original = readFileSync(fixture);
  const ours = copyOf(fixture);
  const idsShownBefore = openSessionSync(ours).entries().map((e) => e.id);
  const result = migrateSessionFile(ours);

  it("reports 1 → 3 and keeps the original bytes as <name>.v1.bak", () => {
    expect(result).toMatchObject({ fromVersion: 1, toVersion: 3, written: true, backup: `${ours}.v1.bak`, droppedLines: 0 });
    expect(readFileSync(result.backup!).equals(original)).toBe(true);
  });

  it("writes the ids the reader showed before migrating", () => {
    const after = openSessionSync(ours);
    expect(after.version).toBe(3);
    expect(after.needsMigration).toBe(false);
    expect(after.entries().map((e) => e.id)).toEqual(idsShownBefore);
  });

  it("writes what pi's _rewriteFile writes, except for the ids", () => {
    const piCopy = copyOf(fixture);
    SessionManager.open(piCopy); // migrates and rewrites the copy
    const ourLines = lines(ours);
    const piLines = lines(piCopy);
    expect(ourLines.length).toBe(piLines.length);
    const expected = withOurIds(piLines, ourLines).map((l) => JSON.stringify(l)).join("\n") + "\n";
    expect(readFileSync(ours, "utf8")).toBe(expected);
  });

  it("pi opens the migrated file without rewriting it and sees the same context as in the original", () => {
    const piCopy = copyOf(ours);
    const before = sha(piCopy);
    const sm = SessionManager.open(piCopy);
    expect(sha(piCopy)).toBe(before);
    const originalEntries = parseSessionEntries(original.toString("utf8")) as unknown as Line[];
    migrateSessionEntries(originalEntries as never);
    const expected = buildSessionContext(originalEntries.filter((e) => e.type !== "session") as never);
    expect(sm.buildSessionContext()).toEqual(expected);
  });
});

describe("backups, dry runs and files that need nothing", () => {
  it("never overwrites a backup: a counter is added", () => {
    const file = copyOf(FIXTURES[0]!);
    const bytes = readFileSync(file);
    writeFileSync(`${file}.v1.bak`, "someone else's backup\n");
    const result = migrateSessionFile(file);
    expect(result.backup).toBe(`${file}.v1.1.bak`);
    expect(readFileSync(`${file}.v1.bak`, "utf8")).toBe("someone else's backup\n");
    expect(readFileSync(result.backup!).equals(bytes)).toBe(true);
  });

  it("--dry-run writes nothing, not even a backup", () => {
    const file = copyOf(FIXTURES[1]!);
    const hash = sha(file);
    const listing = readdirSync(dir).length;
    const result = migrateSessionFile(file, { dryRun: true });
    expect(result).toMatchObject({ fromVersion: 1, toVersion: 3, backup: null, written: false, plannedBackup: `${file}.v1.bak` });
    expect(sha(file)).toBe(hash);
    expect(readdirSync(dir).length).toBe(listing);
    expect(existsSync(`${file}.v1.bak`)).toBe(false);
  });

  it("a version 3 file: fromVersion 3, no backup, no write", () => {
    const { path } = branchedSession(dir);
    const hash = sha(path);
    expect(migrateSessionFile(path)).toMatchObject({ fromVersion: 3, toVersion: 3, backup: null, written: false });
    expect(sha(path)).toBe(hash);
  });

  it("a file without a session header is refused and left alone", () => {
    const { path } = branchedSession(dir);
    writeFileSync(path, readFileSync(path, "utf8").split("\n").slice(1).join("\n"));
    const hash = sha(path);
    expect(() => migrateSessionFile(path)).toThrow(WriteRefusedError);
    expect(sha(path)).toBe(hash);
  });
});

describe("a version 2 file", () => {
  const v2 = [
    { type: "session", version: 2, id: "s-2", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
    { type: "message", id: "aaaa0001", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } },
    { type: "message", id: "aaaa0002", parentId: "aaaa0001", timestamp: "2025-01-01T00:00:02.000Z", message: { role: "hookMessage", customType: "h", content: "from a hook", display: true, timestamp: 2 } },
  ];
  const text = `${v2.map((l) => JSON.stringify(l)).join("\n")}\nnot json at all\n`;

  it("becomes exactly what pi writes (ids kept, hookMessage → custom); the bad line is dropped as pi drops it", () => {
    const ours = join(dir, "v2-ours.jsonl");
    const piCopy = join(dir, "v2-pi.jsonl");
    writeFileSync(ours, text);
    writeFileSync(piCopy, text);
    const result = migrateSessionFile(ours);
    SessionManager.open(piCopy);
    expect(result).toMatchObject({ fromVersion: 2, toVersion: 3, backup: `${ours}.v2.bak`, droppedLines: 1 });
    expect(readFileSync(ours, "utf8")).toBe(readFileSync(piCopy, "utf8"));
    expect(readFileSync(result.backup!, "utf8")).toBe(text);
    expect((lines(ours)[2]!.message as Line).role).toBe("custom");
  });
});
