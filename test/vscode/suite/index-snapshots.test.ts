// The extension keeps index snapshots of big sessions in its global storage
// (`index/`): written a little after the open that read the file, and used by
// the next open of the same file (the same index as a read from scratch).
import * as assert from "node:assert/strict";
import { existsSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Internals } from "../../../src/extension/internals";
import { openSessionSync } from "../../../src/core/session/open-session";
import { IndexSnapshots, SNAPSHOT_MIN_FILE_BYTES } from "../../../src/core/session/index-snapshot";
import { extensionInternals, scratchDir, waitFor } from "./helpers";
import { TURN_ROLES, turnLine } from "./turn-session-lines";

suite("Index snapshots: a big session opened again comes from its snapshot", () => {
  let internals: Internals;
  let path: string;

  suiteSetup(async () => {
    internals = await extensionInternals();
    path = join(scratchDir(), `big-snapshot-${process.pid}.jsonl`);
    const parts = [JSON.stringify({ type: "session", version: 3, id: `big-snapshot-${process.pid}`, timestamp: "2026-03-01T10:00:00.000Z", cwd: "/tmp" }) + "\n"];
    let size = parts[0]!.length;
    let parent: string | null = null;
    for (let count = 0; size < SNAPSHOT_MIN_FILE_BYTES + 1024 * 1024; count++) {
      const text = turnLine(`s${count}`, parent, TURN_ROLES[count % 4]!, `entry ${count} ${"y".repeat(2000)}`);
      parts.push(text);
      size += text.length;
      parent = `s${count}`;
    }
    writeFileSync(path, parts.join(""));
  });

  suiteTeardown(() => {
    internals.services.store.forget(path);
    rmSync(path, { force: true });
  });

  test("written after the first open, used by the next; the same index as a read from scratch", async () => {
    const store = internals.services.store;
    const folder = join(internals.services.context.globalStorageUri.fsPath, "index");
    const file = new IndexSnapshots(folder).fileOf(path, false);
    const first = await store.get(path);
    await waitFor("the snapshot", () => existsSync(file));
    utimesSync(file, new Date(1000), new Date(1000));
    store.forget(path);
    const again = await store.get(path);
    assert.ok(statSync(file).mtimeMs > 1000, "the open used the snapshot");
    const scratch = openSessionSync(path);
    const ids = (s: typeof scratch) => s.index.entries.map((m) => `${m.id}:${m.line}:${m.offset}:${m.length}`);
    assert.deepEqual(ids(again), ids(scratch));
    assert.deepEqual(ids(first), ids(scratch));
    assert.deepEqual(again.pathTo().map((e) => e.id), scratch.pathTo().map((e) => e.id));
  });
});
