// What the Entries view shows of a big session before its index is read
// (src/extension/views/tail-session.ts): the lines of the current branch that
// the file's tail holds, as one linear run — equal, entry for entry, to the
// end of the branch the full read gives, whatever the tail cuts through (side
// branches, labels, a line cut in the middle, a line still being written) —
// and the Entries rows built on it are the full model's newest turns.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { EntriesModel, type EntryNode } from "../../../src/extension/views/entries-model.js";
import { tailSession } from "../../../src/extension/views/tail-session.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-tail-session-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROLES = ["user", "assistant", "toolResult", "assistant"] as const;

/** A linear conversation with, now and then, a side branch off an earlier entry and a label on the branch. */
function sessionText(turns: number, sideEvery: number, labelEvery: number): string {
  const lines: object[] = [{ type: "session", version: 3, id: "big", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" }];
  let leaf: string | null = null;
  let n = 0;
  const message = (role: string, parentId: string | null): string => {
    const id = `m${n++}`;
    const content = role === "user" ? `question ${id} ${"q".repeat(n % 50)}` : [{ type: "text", text: `answer ${id}` }];
    lines.push({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role, content, timestamp: 1 } });
    return id;
  };
  for (let t = 0; t < turns; t++) {
    for (const role of ROLES) leaf = message(role, leaf);
    if (sideEvery > 0 && t % sideEvery === sideEvery - 1) message("user", `m${Math.max(0, n - 9)}`);
    if (labelEvery > 0 && t % labelEvery === 0) {
      const id = `l${n++}`;
      lines.push({ type: "label", id, parentId: leaf, timestamp: "2026-01-01T00:00:01.000Z", targetId: leaf, label: `label ${t}` });
      leaf = id;
    }
  }
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

function ids(nodes: EntryNode[]): string[] {
  return nodes.map((n) => (n.kind === "entry" ? n.entryId : n.kind));
}

let files = 0;
function file(text: string): string {
  const path = join(dir, `s${files++}.jsonl`);
  writeFileSync(path, text);
  return path;
}

describe("tailSession", () => {
  it("holds the end of the current branch, entry for entry, whatever the tail cuts through", () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 120 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 200, max: 30_000 }), (turns, sideEvery, labelEvery, maxBytes) => {
        const path = file(sessionText(turns, sideEvery, labelEvery));
        const full = openSessionSync(path);
        const branch = full.index.pathIds(full.index.leafId!);
        const tail = tailSession(path, maxBytes);
        if (!tail) return;
        const tailIds = tail.index.entries.map((m) => m.id);
        expect(tail.index.roots).toHaveLength(1);
        expect(tail.index.leafId).toBe(full.index.leafId);
        expect(tailIds.length).toBeGreaterThan(0);
        expect(tailIds).toEqual(branch.slice(branch.length - tailIds.length));
        for (const m of tail.index.entries) expect(tail.entryAt(m)).toEqual(full.entry(m.id));
      }),
      { numRuns: 60 },
    );
  });

  it("leaves out a line still being written", () => {
    const path = file(sessionText(30, 0, 0));
    const full = openSessionSync(path);
    appendFileSync(path, '{"type":"message","id":"half","parentId":');
    expect(tailSession(path, 4000)!.index.leafId).toBe(full.index.leafId);
  });

  it("the Entries rows built on it are the newest turns the full index shows", () => {
    const path = file(sessionText(400, 0, 13));
    const fullModel = new EntriesModel(openSessionSync(path), "all");
    const tailModel = new EntriesModel(tailSession(path, 64 * 1024)!, "all");
    const fullRows = fullModel.roots();
    const tailRows = tailModel.roots();
    expect(tailRows[0]!.kind).toBe("more");
    expect(tailRows).toHaveLength(fullRows.length);
    expect(ids(tailRows.slice(1))).toEqual(ids(fullRows.slice(1)));
    const leafTurn = (rows: EntryNode[]) => rows[rows.length - 1]!;
    expect(ids(tailModel.children(leafTurn(tailRows)))).toEqual(ids(fullModel.children(leafTurn(fullRows))));
  });
});
