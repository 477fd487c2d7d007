// One defect per file (test/fixtures/broken/): the reader reports it as a
// diagnostic with its line number, never throws, never changes the file, and
// where pi can read the file at all, still sees the same tree as pi.

import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../src/core/diagnostics.js";
import { openSession, openSessionSync, type LoadedSession } from "../../../src/core/session/open/open-session.js";
import { ourView, piView } from "./support/tree-views.js";

const BROKEN = new URL("../../fixtures/broken/", import.meta.url).pathname;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-broken-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Reads a copy of the fixture both ways, checking the copy's bytes are unchanged. */
async function read(name: string): Promise<LoadedSession> {
  const path = join(dir, name);
  copyFileSync(join(BROKEN, name), path);
  const before = sha(path);
  const sync = openSessionSync(path);
  const streamed = await openSession(path);
  expect(sha(path)).toBe(before);
  expect(streamed.diagnostics).toEqual(sync.diagnostics);
  expect(streamed.index.entries).toEqual(sync.index.entries);
  // Bodies are parsed from the bytes on demand, and still nothing is written.
  sync.entries();
  sync.pathTo();
  expect(sha(path)).toBe(before);
  return sync;
}

/** Problems (errors and warnings) as "code@line". */
const problems = (ds: readonly Diagnostic[]): string[] =>
  ds.filter((d) => d.severity !== "info").map((d) => `${d.code}@${d.line ?? "-"}`);
const infos = (ds: readonly Diagnostic[]): string[] =>
  ds.filter((d) => d.severity === "info").map((d) => `${d.code}@${d.line ?? "-"}`);
const ids = (s: LoadedSession): string[] => s.index.entries.map((m) => m.id);

describe("broken session files: diagnostics with line numbers, no throw, bytes unchanged", () => {
  it("an invalid JSON line in the middle is skipped (as pi skips it)", async () => {
    const s = await read("invalid-json-middle.jsonl");
    expect(problems(s.diagnostics)).toEqual(["invalid-json@3"]);
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0003"]);
    expect(s.diagnostics[0]!.file).toBe(join(dir, "invalid-json-middle.jsonl"));
  });

  it("a truncated last line (no final newline, not JSON) is reported as such and skipped", async () => {
    const s = await read("truncated-last-line.jsonl");
    expect(problems(s.diagnostics)).toEqual(["truncated-last-line@4"]);
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0002"]);
    expect(s.index.leafId).toBe("aaaa0002");
  });

  it("a UTF-8 BOM is ignored (pi's trim drops it); offsets count it", async () => {
    const s = await read("bom.jsonl");
    expect(problems(s.diagnostics)).toEqual([]);
    expect(infos(s.diagnostics)).toEqual(["bom@1"]);
    expect(s.header?.id).toBe("0192f5a0-0000-7000-8000-000000000001");
    expect(s.headerLocation?.offset).toBe(3);
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0002"]);
  });

  it("CRLF line ends are read (the \\r is not part of the line)", async () => {
    const s = await read("crlf.jsonl");
    expect(problems(s.diagnostics)).toEqual([]);
    expect(infos(s.diagnostics)).toEqual(["crlf@-"]);
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0002"]);
    expect(s.rawLine("aaaa0002").endsWith("}")).toBe(true);
  });

  it("an empty file has no entries and no leaf", async () => {
    const s = await read("empty.jsonl");
    expect(problems(s.diagnostics)).toEqual([]);
    expect(infos(s.diagnostics)).toEqual(["empty-file@-"]);
    expect(s.index.leafId).toBeNull();
    expect(s.header).toBeNull();
    expect(s.pathTo()).toEqual([]);
  });

  it("a file without a header: shown, but marked so writers refuse (pi treats it as empty)", async () => {
    const s = await read("header-missing.jsonl");
    expect(problems(s.diagnostics)).toEqual(["missing-header@1"]);
    expect(s.headerMissing).toBe(true);
    expect(s.header).toBeNull();
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0002"]);
  });

  it("a header on line 2 is not the header", async () => {
    const s = await read("header-misplaced.jsonl");
    expect(problems(s.diagnostics)).toEqual(["missing-header@1", "misplaced-header@2"]);
    expect(s.headerMissing).toBe(true);
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0002"]);
  });

  it("a second header is kept out of the entries", async () => {
    const s = await read("second-header.jsonl");
    expect(problems(s.diagnostics)).toEqual(["extra-header@3"]);
    expect(s.header?.id).toBe("0192f5a0-0000-7000-8000-000000000001");
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0002"]);
  });

  it("duplicate ids: both listed in file order, lookups find the later one (pi's Map.set)", async () => {
    const s = await read("duplicate-ids.jsonl");
    expect(problems(s.diagnostics)).toEqual(["duplicate-id@4"]);
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0002", "aaaa0002"]);
    expect(s.location("aaaa0002")?.line).toBe(4);
    expect(s.index.children("aaaa0001").map((m) => m.line)).toEqual([3, 4]);
  });

  it("a parent cycle is reported and never loops; its entries are unreachable, as in pi's getTree", async () => {
    const s = await read("parent-cycle.jsonl");
    expect(problems(s.diagnostics)).toEqual(["parent-cycle@3"]);
    expect(s.index.unreachable.map((m) => m.id)).toEqual(["aaaa0002", "aaaa0003", "aaaa0004"]);
    expect(s.index.pathIds("aaaa0004")).toEqual(["aaaa0002", "aaaa0003", "aaaa0004"]);
    expect(s.pathTo().map((e) => e.id)).toEqual(["aaaa0002", "aaaa0003", "aaaa0004"]);
  });

  it("an entry that is its own parent is a root (pi's getBranch would loop on it)", async () => {
    const s = await read("self-parent.jsonl");
    expect(problems(s.diagnostics)).toEqual(["self-parent@3"]);
    expect(s.index.roots.map((m) => m.id)).toEqual(["aaaa0001", "aaaa0002"]);
    expect(s.index.pathIds("aaaa0002")).toEqual(["aaaa0002"]);
  });

  it("a dangling parent makes an orphan, shown as a root", async () => {
    const s = await read("dangling-parent.jsonl");
    expect(problems(s.diagnostics)).toEqual(["dangling-parent@3"]);
    expect(s.index.orphans.map((m) => m.id)).toEqual(["aaaa0002"]);
    expect(s.index.roots.map((m) => m.id)).toEqual(["aaaa0001", "aaaa0002"]);
  });

  it("an unknown entry type is kept as an ordinary tree node, with one info", async () => {
    const s = await read("unknown-entry-type.jsonl");
    expect(problems(s.diagnostics)).toEqual([]);
    expect(infos(s.diagnostics)).toEqual(["unknown-entry-type@3"]);
    expect(s.pathTo().map((e) => e.type)).toEqual(["message", "context_edit", "message"]);
  });

  it("an unknown message role is kept, with one info", async () => {
    const s = await read("unknown-message-role.jsonl");
    expect(problems(s.diagnostics)).toEqual([]);
    expect(infos(s.diagnostics)).toEqual(["unknown-message-role@3"]);
    expect(s.location("aaaa0002")?.role).toBe("system");
  });

  it("a line that is JSON but not an object is skipped", async () => {
    const s = await read("non-object-line.jsonl");
    expect(problems(s.diagnostics)).toEqual(["not-an-object@3"]);
    expect(ids(s)).toEqual(["aaaa0001", "aaaa0003"]);
  });

  it("an entry without an id is skipped", async () => {
    const s = await read("missing-id.jsonl");
    expect(problems(s.diagnostics)).toEqual(["missing-id@3"]);
    expect(ids(s)).toEqual(["aaaa0001"]);
  });

  it("a version 2 file with a hookMessage is migrated in memory (role custom), the file untouched", async () => {
    const s = await read("v2-hook-message.jsonl");
    expect(problems(s.diagnostics)).toEqual([]);
    expect(infos(s.diagnostics)).toEqual(["needs-migration@1"]);
    expect(s.version).toBe(2);
    expect(s.needsMigration).toBe(true);
    expect(s.header?.version).toBe(2);
    const hook = s.entry("bbbb0002");
    expect(hook?.type === "message" && hook.message.role).toBe("custom");
    expect(s.rawLine("bbbb0002")).toContain('"role":"hookMessage"');
  });

  it("a 20 MB single line (generated, not committed) is read whole", async () => {
    const path = join(dir, "huge-line.jsonl");
    const big = "x".repeat(20 * 1024 * 1024);
    const header = JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" });
    const line = JSON.stringify({ type: "message", id: "big00001", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: big, timestamp: 1 } });
    writeFileSync(path, `${header}\n${line}\n`);
    const before = sha(path);
    const s = await openSession(path);
    expect(problems(s.diagnostics)).toEqual([]);
    expect(s.location("big00001")).toMatchObject({ line: 2, length: Buffer.byteLength(line), role: "user" });
    const e = s.entry("big00001");
    const content = e?.type === "message" ? (e.message as { content?: unknown }).content : undefined;
    expect(typeof content === "string" && content.length).toBe(big.length);
    expect(sha(path)).toBe(before);
  });
});

describe("broken files pi can read: same tree as pi", () => {
  it.each([
    "invalid-json-middle.jsonl",
    "truncated-last-line.jsonl",
    "bom.jsonl",
    "crlf.jsonl",
    "second-header.jsonl",
    "parent-cycle.jsonl",
    "self-parent.jsonl",
    "dangling-parent.jsonl",
    "unknown-entry-type.jsonl",
    "unknown-message-role.jsonl",
    "v2-hook-message.jsonl",
  ])("%s", (name) => {
    const path = join(BROKEN, name);
    const pi = piView(path);
    const ours = ourView(openSessionSync(path));
    expect(ours).toEqual(pi);
  });
});
