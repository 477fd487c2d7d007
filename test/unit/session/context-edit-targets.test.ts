// Context edits by target, for the views: every context_edit line of a pi 1.5.2
// file (read here with JSON.parse, independently of the index), and an append
// seen without re-reading the earlier edits.
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { contextEditsByTarget } from "../../../src/core/session/index/context-edit-targets";
import { openSessionSync, refreshSession } from "../../../src/core/session/open/open-session";

const FIXTURES = join(__dirname, "../../fixtures/pi-1.5");
const dir = mkdtempSync(join(tmpdir(), "pi-sessions-edits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function editsInFile(path: string): Array<{ id: string; targetId: string; omitted: boolean }> {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((e) => e.type === "context_edit")
    .map((e) => ({ id: e.id as string, targetId: e.targetId as string, omitted: e.replacement === null }));
}

describe("contextEditsByTarget", () => {
  for (const name of ["02-context-edits.jsonl", "12-edit-after-usage.jsonl", "14-overflow-recovery.jsonl"]) {
    it(`finds every context_edit of ${name}, per target in file order`, () => {
      const path = join(FIXTURES, name);
      const expected = editsInFile(path);
      expect(expected.length).toBeGreaterThan(0);
      const byTarget = contextEditsByTarget(openSessionSync(path));
      const found = [...byTarget.entries()].flatMap(([targetId, edits]) => edits.map((e) => ({ id: e.editId, targetId, omitted: e.replacement === null })));
      expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected.sort((a, b) => a.id.localeCompare(b.id)));
    });
  }

  it("an appended edit is found after a refresh; the replacement's content is kept", async () => {
    const path = join(dir, "appended.jsonl");
    copyFileSync(join(FIXTURES, "02-context-edits.jsonl"), path);
    const session = openSessionSync(path);
    const before = contextEditsByTarget(session);
    const count = [...before.values()].reduce((n, l) => n + l.length, 0);
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id: string; type: string });
    const last = lines[lines.length - 1]!;
    const target = lines.find((e) => e.type === "message")!;
    appendFileSync(path, `${JSON.stringify({ type: "context_edit", id: "edit9999", parentId: last.id, timestamp: new Date().toISOString(), targetId: target.id, replacement: { content: "shorter" } })}\n`);
    const { session: after } = await refreshSession(session);
    const edits = contextEditsByTarget(after);
    expect([...edits.values()].reduce((n, l) => n + l.length, 0)).toBe(count + 1);
    expect(edits.get(target.id)!.at(-1)).toEqual({ editId: "edit9999", replacement: { content: "shorter" } });
  });
});
