// What a big read leaves behind so that V8 keeps its optimised read code
// (open-session.ts shapeKeeper): an unused read plan, nothing of the read
// itself. The session's index must still be freed once the session is dropped,
// and later reads (sync and async, of other files, interleaved) read what a
// read in a fresh process reads.
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { EntryColumns } from "../../../src/core/session/index/entry-columns.js";
import { JsonlReader } from "../../../src/core/session/bytes/jsonl-reader.js";
import { objectArray } from "../../../src/core/session/bytes/object-array.js";
import { openSession, openSessionSync } from "../../../src/core/session/open/open-session.js";
import type { LoadedSession } from "../../../src/core/session/open/loaded-session.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
// V8's own answer (a natives call, compiled after the flag is set): does the array store any value, not only small integers?
setFlagsFromString("--allow-natives-syntax");
const holdsAnyValue = new Function("a", "return %HasObjectElements(a)") as (a: unknown[]) => boolean;

const dir = mkdtempSync(join(tmpdir(), "pi-sessions-read-shapes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pi-layout session of more than 1 MiB (a read that leaves the shapes behind); `tag` makes each file's ids its own. */
function bigSession(tag: string, entries: number): string {
  const lines = [JSON.stringify({ type: "session", version: 3, id: `h-${tag}`, timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" })];
  for (let i = 0; i < entries; i++) {
    const parentId = i === 0 ? null : `${tag}${(i - 1 - (i % 7 === 0 ? 3 : 0)).toString(16).padStart(8, "0")}`;
    const timestamp = new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
    const id = `${tag}${i.toString(16).padStart(8, "0")}`;
    const message =
      i % 3 === 1
        ? { role: "assistant", content: [{ type: "text", text: "y".repeat(400 + (i % 50)) }], api: "a", provider: "p", model: "m", usage: { input: i, output: 2 * i, cacheRead: 0, cacheWrite: 1, totalTokens: 3 * i + 1, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: i / 1000 } }, stopReason: "stop", timestamp: 1735689600000 + i }
        : { role: "user", content: `${tag} ${"x".repeat(300 + (i % 90))}`, timestamp: 1735689600000 + i };
    lines.push(JSON.stringify({ type: "message", id, parentId: i === 0 ? null : parentId, timestamp, message }));
  }
  const file = join(dir, `${tag}.jsonl`);
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

function answers(s: LoadedSession): unknown {
  const index = s.index;
  return { size: index.size, entries: index.entries, diagnostics: s.diagnostics, leaf: index.leafId, activity: index.lastActivityTime, spend: index.totalSpend };
}

// First in this file (its own process): before any read here, so that V8 has not yet learnt from
// earlier arrays what a plain `[]` at the same place will hold.
describe("the arrays a read pushes strings and buffers to", () => {
  it("start as arrays of any values (no deopt of the read's code at each read's first push)", () => {
    expect(holdsAnyValue([])).toBe(false);
    expect(holdsAnyValue(objectArray())).toBe(true);
    expect(objectArray()).toEqual([]);
    const columns = new EntryColumns() as unknown as { ids: unknown[]; types: unknown[]; roles: unknown[] };
    expect([columns.ids, columns.types, columns.roles].map(holdsAnyValue)).toEqual([true, true, true]);
    const reader = new JsonlReader(() => undefined) as unknown as { pending: unknown[]; push(b: Uint8Array): void };
    expect(holdsAnyValue(reader.pending)).toBe(true);
    reader.push(Buffer.from('{"a":1}\n{"b"'));
    reader.push(Buffer.from(':2}\n'));
    expect(reader.pending).toEqual([]);
    expect(holdsAnyValue(reader.pending)).toBe(true);
  });
});

describe("the shapes a big read leaves behind", () => {
  const a = bigSession("aa", 3000);
  const b = bigSession("bb", 2600);

  it("hold nothing of the read: a dropped session's index is freed", async () => {
    for (const f of [a, b]) expect(statSync(f).size).toBeGreaterThan(1024 * 1024);
    const refs: WeakRef<object>[] = [];
    for (const skim of [true, false]) {
      refs.push(new WeakRef(openSessionSync(a, { skim }).index));
      refs.push(new WeakRef((await openSession(b, { skim })).index));
    }
    for (let i = 0; i < 3 && refs.some((r) => r.deref() !== undefined); i++) {
      await new Promise((r) => setTimeout(r, 0));
      gc();
    }
    expect(refs.map((r) => r.deref() === undefined)).toEqual([true, true, true, true]);
  });

  it("change no later read: reads of two files, sync and async, interleaved, equal each read first in its own process", async () => {
    // The first reads in this worker were those of the test above (or none when run alone): compare with reads made in that order.
    const alone = { a: answers(openSessionSync(a, { skim: true })), b: answers(openSessionSync(b, { skim: true })) };
    const exact = { a: answers(openSessionSync(a)), b: answers(openSessionSync(b)) };
    expect(alone.a).toEqual(exact.a);
    expect(alone.b).toEqual(exact.b);
    for (let round = 0; round < 3; round++) {
      const [fromA, fromB] = await Promise.all([openSession(a, { skim: true }), openSession(b, { skim: round % 2 === 0 })]);
      expect(answers(fromA)).toEqual(alone.a);
      expect(answers(fromB)).toEqual(alone.b);
      expect(answers(openSessionSync(b, { skim: true }))).toEqual(alone.b);
    }
  });

});
