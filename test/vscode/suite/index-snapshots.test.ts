// The extension keeps index snapshots of big sessions in its global storage
// (`index/`). A big session with none is indexed and snapshotted by the index
// child process (dist/index-child.js) and the host opens it from that snapshot
// (no whole read in the host); the next open of the same file uses it too (the
// same index as a read from scratch). With the child's file missing the host
// reads the file itself, as before, and the session opens all the same.
import * as assert from "node:assert/strict";
import { existsSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import { IndexSnapshots, SNAPSHOT_MIN_FILE_BYTES } from "../../../src/core/session/snapshot/index-snapshot";
import { EXTENSION_ID } from "./extension-under-test";
import { extensionInternals, scratchDir } from "./helpers";
import { TURN_ROLES, turnLine } from "./turn-session-lines";

const TRUSTED = process.env.PI_SESSIONS_TEST_TRUSTED !== "0";

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

  test("indexed and written by the index child, the host opening from it; used by the next open; the same index as a read from scratch", async () => {
    const store = internals.services.store;
    const snapshots = store.openOptions.snapshots;
    assert.ok(snapshots, "the store opens with index snapshots");
    const folder = join(internals.services.context.globalStorageUri.fsPath, "index");
    const file = new IndexSnapshots(folder).fileOf(path, false);
    store.forget(path);
    rmSync(file, { force: true });
    const before = { ...snapshots.stats };
    const reads = { ...store.stats };
    const first = await store.get(path);
    assert.equal(store.stats.opened - reads.opened, 1);
    if (TRUSTED) {
      assert.equal(snapshots.stats.builtElsewhere - before.builtElsewhere, 1, "the child wrote the snapshot");
      assert.equal(snapshots.stats.exact - before.exact, 1, "the host opened from it");
      assert.equal(store.stats.fromSnapshot - reads.fromSnapshot, 1, "no whole read in the host");
      assert.ok(existsSync(file));
      await snapshots.flush();
      assert.equal(snapshots.stats.written, before.written, "the host encoded no snapshot");
    } else {
      // Restricted Mode launches no process: the host reads the file and writes the snapshot (a little later).
      assert.equal(snapshots.elsewhere, undefined);
      assert.equal(store.stats.fromSnapshot, reads.fromSnapshot);
      await snapshots.flush();
      assert.equal(snapshots.stats.written - before.written, 1);
      assert.equal(snapshots.stats.builtElsewhere, before.builtElsewhere);
    }
    utimesSync(file, new Date(1000), new Date(1000));
    store.forget(path);
    const again = await store.get(path);
    assert.ok(statSync(file).mtimeMs > 1000, "the open used the snapshot");
    assert.equal(snapshots.stats.builtElsewhere - before.builtElsewhere, TRUSTED ? 1 : 0, "nothing more for the child");
    const scratch = openSessionSync(path);
    const ids = (s: typeof scratch) => s.index.entries.map((m) => `${m.id}:${m.line}:${m.offset}:${m.length}`);
    assert.deepEqual(ids(again), ids(scratch));
    assert.deepEqual(ids(first), ids(scratch));
    assert.deepEqual(again.pathTo().map((e) => e.id), scratch.pathTo().map((e) => e.id));
    assert.deepEqual(first.diagnostics, scratch.diagnostics);
  });

  test("with the index child's file missing: the session opens as before (read and snapshotted in the host), no error", async function () {
    if (!TRUSTED) this.skip(); // no child in Restricted Mode (the test before)
    const store = internals.services.store;
    const snapshots = store.openOptions.snapshots;
    assert.ok(snapshots);
    const child = snapshots.elsewhere as unknown as { reset(): void; readonly available: boolean } | undefined;
    assert.ok(child, "a trusted workspace has the index child");
    const folder = join(internals.services.context.globalStorageUri.fsPath, "index");
    const file = new IndexSnapshots(folder).fileOf(path, false);
    const script = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, "dist", "index-child.js");
    const aside = `${script}.aside-${process.pid}`;
    store.forget(path);
    rmSync(file, { force: true });
    // The child of the test before may still be waiting for requests: a new one must start.
    child.reset();
    renameSync(script, aside);
    try {
      const before = { ...snapshots.stats };
      const reads = { ...store.stats };
      const opened = await store.get(path);
      assert.equal(child.available, false, "the failed child is not asked again");
      assert.equal(snapshots.stats.builtElsewhere, before.builtElsewhere);
      assert.equal(store.stats.fromSnapshot, reads.fromSnapshot, "read whole in the host");
      const scratch = openSessionSync(path);
      assert.deepEqual(opened.index.entries.map((m) => `${m.id}:${m.offset}`), scratch.index.entries.map((m) => `${m.id}:${m.offset}`));
      // Today's path: the host writes the snapshot a little later.
      await snapshots.flush();
      assert.equal(snapshots.stats.written - before.written, 1);
      assert.ok(existsSync(file));
    } finally {
      renameSync(aside, script);
      child.reset();
      store.forget(path);
    }
  });
});
