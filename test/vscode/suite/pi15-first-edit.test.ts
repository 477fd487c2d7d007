// A pi 1.5 session without a compaction, opened in the host: its live facts are
// prepared ahead in the background (facts-preparer.ts), so the first context
// edit pi writes reads only the edit and its target, and the Sessions row's
// context tokens then equal pi 1.5's projected estimate from scratch.
import * as assert from "node:assert/strict";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Internals } from "../../../src/extension/internals";
import { semanticsFor } from "../../../src/core/agent";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import { extensionInternals, piDir, waitFor } from "./helpers";

const ENTRIES = 400;

function sessionLines(): { text: string; ids: string[] } {
  const ids: string[] = [];
  const lines = [JSON.stringify({ type: "session", version: 3, id: "0196a000-0000-7000-8000-000000000015", timestamp: "2026-03-01T10:00:00.000Z", cwd: "/elsewhere" })];
  let parentId: string | null = null;
  const add = (fields: Record<string, unknown>) => {
    const id = `p15e${ids.length.toString(16).padStart(4, "0")}`;
    lines.push(JSON.stringify({ ...fields, id, parentId, timestamp: new Date(Date.UTC(2026, 2, 1, 10) + ids.length * 1000).toISOString() }));
    ids.push(id);
    parentId = id;
  };
  // pi 1.5 declares its prompt and tools as a system message first.
  add({ type: "message", message: { role: "system", content: "", sections: { preamble: "You are pi." }, toolsAdded: [{ name: "read", description: "Read a file" }], timestamp: 1 } });
  for (let i = 1; i < ENTRIES; i++) {
    const usage = { input: 1000 + i, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1010 + i, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    add(
      i % 2
        ? { type: "message", message: { role: "user", content: [{ type: "text", text: `question ${i} `.repeat(1 + (i % 9)) }], timestamp: 2 } }
        : { type: "message", message: { role: "assistant", content: [{ type: "text", text: `answer ${i} `.repeat(1 + (i % 5)) }], provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "stop", timestamp: 3 } },
    );
  }
  return { text: lines.map((l) => `${l}\n`).join(""), ids };
}

suite("pi 1.5: the first context edit after opening a session", () => {
  let internals: Internals;
  let path: string;

  suiteSetup(async () => {
    internals = await extensionInternals();
    await internals.services.sessions.sessionGroups();
    path = join(piDir(), `2026-03-01T10-00-00-000Z_pi15-first-edit-${process.pid}.jsonl`);
  });

  suiteTeardown(() => rmSync(path, { force: true }));

  test("is prepared ahead in the background: the write reads only the edit and its target, and the tokens are pi 1.5's", async () => {
    const { text, ids } = sessionLines();
    writeFileSync(path, text);
    const { store, sessions, entriesTree } = internals.services;
    await waitFor("the new file in the list", () => sessions.allPaths().includes(path), 20_000);
    entriesTree.show(path);
    await entriesTree.current();
    await waitFor("the session's facts", () => sessions.factsOf(path)?.entryCount === ENTRIES && store.peek(path), 20_000);
    assert.equal(sessions.factsOf(path)?.piVersion, "1.5");
    const session = store.peek(path)!;
    const parsed: string[] = [];
    const entryAt = session.entryAt.bind(session);
    session.entryAt = (meta) => (parsed.push(meta.id), entryAt(meta));
    const eachEntryAt = session.eachEntryAt.bind(session);
    session.eachEntryAt = (metas, visit) => (parsed.push(...metas.map((m) => m.id)), eachEntryAt(metas, visit));
    // Started a moment after opening, in slices between the host's other work.
    await waitFor("the preparation to start", () => sessions.preparer.isPreparing(path) || parsed.length > 0, 20_000);
    await waitFor("the preparation to end", () => !sessions.preparer.isPreparing(path), 20_000);

    parsed.length = 0;
    const edit = { type: "context_edit", id: "p15edit1", parentId: ids[ids.length - 1], timestamp: "2026-03-01T12:00:00.000Z", targetId: ids[101], replacement: null };
    appendFileSync(path, `${JSON.stringify(edit)}\n`);
    await waitFor("the edit in the facts", () => sessions.factsOf(path)?.leafId === "p15edit1", 20_000);
    assert.deepEqual([...new Set(parsed)].sort(), ["p15edit1", ids[101]!].sort());
    const fromScratch = semanticsFor("1.5").contextUsage(openSessionSync(path).pathTo());
    assert.equal(fromScratch.source, "estimate");
    assert.deepEqual(sessions.factsOf(path)?.usage, fromScratch);
  });
});
