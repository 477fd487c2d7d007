// Our session reader against pi 1.5.2's SessionManager.open on files pi 1.5.2
// wrote (random sessions with every 1.x entry type, and the 14 fixtures): entry
// count, parent links, tree shape and child order (getTree), leaf, labels and
// session name — as test/unit/session/pi-differential.test.ts does for 0.73.1.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { describePi15, type Pi15LoadBack } from "../../support/pi15/oracle.js";
import { ourView, type SessionView, type TreeShape } from "../session/support/tree-views.js";

const FIXTURES = new URL("../../fixtures/pi-1.5/", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "pi15-reader-diff-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pi 1.5.2's loadBack answer in the shape of tree-views' SessionView. */
function pi15View(back: Pi15LoadBack): SessionView {
  const ids = back.entries.map((e) => e.id);
  const posById = new Map(ids.map((id, i) => [id, i]));
  const at = (id: unknown): number | null => (id == null ? null : (posById.get(id as string) ?? -1));
  const shape = (nodes: { id: string; children: unknown[] }[]): TreeShape[] =>
    nodes.map((n) => ({ pos: posById.get(n.id)!, children: shape(n.children as { id: string; children: unknown[] }[]) }));
  return {
    count: ids.length,
    ids,
    parents: back.entries.map((e) => at(e.parentId)),
    firstKept: back.entries.flatMap((e, i) => (e.type === "compaction" ? [[i, at(e.firstKeptEntryId) ?? -1] as [number, number]] : [])),
    leafPos: back.leafId === null ? null : posById.get(back.leafId)!,
    tree: shape(back.tree),
    labels: Object.entries(back.labels).map(([id, label]) => [posById.get(id)!, label] as [number, string]).sort((a, b) => a[0] - b[0]),
    name: back.sessionName ?? undefined,
  };
}

describePi15("our reader reads pi 1.5.2's files as pi 1.5.2's SessionManager does", (oracle) => {
  const check = async (path: string): Promise<void> => {
    const pi = pi15View(await oracle().loadBack(path));
    const ours = ourView(openSessionSync(path));
    expect(ours, path).toEqual(pi);
  };

  it.each(readdirSync(FIXTURES).filter((n) => n.endsWith(".jsonl")))("fixture %s", (name) => check(FIXTURES + name));

  it.each(Array.from({ length: 60 }, (_, i) => 25_001 + i))("random session, seed %i", async (seed) => {
    const generated = await oracle().generate(seed, join(dir, String(seed)));
    await check(generated.path);
  });
});
