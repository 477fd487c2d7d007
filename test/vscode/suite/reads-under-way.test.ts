// A write that lands while something is already reading is not lost:
// - a session file created or deleted while the list is being read (the look under
//   way may have read pi's folder before it: the watcher's "look again" is queued
//   behind it, not folded into it; in CI a row once never appeared);
// - a session written to while the cold fill reads its row (in the child), or
//   while the store opens it;
// - a file that was no session when the list was read (caught empty between pi's
//   create or rewrite and its write) and becomes one with a write.
// SessionsModels of their own (their own store and catalogue) over pi's real
// folder, the extension's real discovery and its real catalogue child; the only
// thing added is a gate that holds a read after it has read the files, so the
// write lands exactly in that window.
import * as assert from "node:assert/strict";
import { appendFileSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { BulkAnswer, BulkReader } from "../../../src/core/catalogue/bulk-reader";
import { childBulkReader } from "../../../src/core/catalogue/child-bulk-reader";
import { catalogueForSettings } from "../../../src/extension/catalogue-for-settings";
import type { Internals } from "../../../src/extension/internals";
import { discoverSessionGroups } from "../../../src/extension/session-discovery";
import { SessionStore } from "../../../src/extension/session-store";
import { SessionsModel } from "../../../src/extension/sessions-model";
import { EXTENSION_ID } from "./extension-under-test";
import { BRANCHED_ID, extensionInternals, fixturePath, piDir, waitFor } from "./helpers";

/** A line pi appends to the branched fixture (16 entries, leaf s3000001). */
function userLine(id: string, text: string): string {
  const timestamp = "2026-02-02T10:00:00.000Z";
  return JSON.stringify({ type: "message", id, parentId: "s3000001", timestamp, message: { role: "user", content: text, timestamp: Date.parse(timestamp) } }) + "\n";
}

interface GatedModel {
  model: SessionsModel;
  /** Looks that read the folder so far. */
  looks(): number;
  /** Lets the first look go on (it has read the folder and waits here). */
  release(): void;
  /** Resolves once the first look has read the folder. */
  firstRead: Promise<void>;
  dispose(): void;
}

function gatedModel(internals: Internals): GatedModel {
  const settings = internals.services.settings();
  const store = new SessionStore(internals.services.log);
  let looks = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let read!: () => void;
  const firstRead = new Promise<void>((resolve) => (read = resolve));
  const model = new SessionsModel(
    store,
    () => ({ agentDir: settings.agentDir, trusted: false, overrides: {}, contextWindow: () => undefined }),
    async () => {
      const groups = await discoverSessionGroups(settings);
      looks++;
      if (looks === 1) {
        read();
        await gate;
      }
      return groups;
    },
    internals.services.log,
  );
  return {
    model,
    looks: () => looks,
    release,
    firstRead,
    dispose: () => {
      model.dispose();
      store.dispose();
    },
  };
}

/** Session files this file creates in pi's folder; removed after each suite, and the extension's own list waited for. */
function scratchSessions(): { create(tag: string, text?: string): string; remove(internals: Internals): Promise<void> } {
  const created: string[] = [];
  return {
    create(tag, text) {
      const path = join(piDir(), `2026-02-02T10-00-00-000Z_under-way-${tag}-${process.pid}.jsonl`);
      if (text === undefined) copyFileSync(fixturePath(BRANCHED_ID), path);
      else writeFileSync(path, text);
      created.push(path);
      return path;
    },
    async remove(internals) {
      for (const path of created) rmSync(path, { force: true });
      // The extension's own list saw these files come and go (its watchers): wait until it is as before.
      await waitFor("the extension's list without the test's files", () => !internals.services.sessions.allPaths().some((path) => created.includes(path)), 20_000);
    },
  };
}

suite("sessions list @restricted: files created or deleted while the list is being read", () => {
  let internals: Internals;
  const scratch = scratchSessions();
  const newSessionFile = (tag: string): string => scratch.create(tag);

  suiteSetup(async () => {
    internals = await extensionInternals();
    await internals.services.sessions.sessionGroups();
  });

  suiteTeardown(() => scratch.remove(internals));

  test("a file created after the first look read the folder is listed once that look ends", async () => {
    const gated = gatedModel(internals);
    try {
      const first = gated.model.sessionGroups();
      await gated.firstRead;
      const path = newSessionFile("created");
      // What the watcher does for a new file.
      const again = gated.model.listMayHaveChanged();
      assert.ok(again, "a look is under way: the change is looked at again");
      gated.release();
      await first;
      await again;
      assert.equal(gated.looks(), 2);
      assert.ok(gated.model.allPaths().includes(path), "the new file is listed");
      assert.equal(gated.model.factsOf(path)?.entryCount, 16);
    } finally {
      gated.dispose();
    }
  });

  test("a file deleted after the first look read the folder leaves the list once that look ends", async () => {
    const path = newSessionFile("deleted");
    const gated = gatedModel(internals);
    try {
      const first = gated.model.sessionGroups();
      await gated.firstRead;
      rmSync(path);
      const again = gated.model.listMayHaveChanged();
      gated.release();
      await Promise.all([first, again]);
      assert.ok(!gated.model.allPaths().includes(path), "the deleted file is not listed");
      assert.ok(gated.model.allPaths().length > 0, "the others are");
    } finally {
      gated.dispose();
    }
  });

  test("changes while a look is under way share one more look; before the list is asked for, nothing is read", async () => {
    const gated = gatedModel(internals);
    try {
      assert.equal(gated.model.listMayHaveChanged(), undefined, "no list asked for yet: nothing to look at again");
      assert.equal(gated.looks(), 0);
      const first = gated.model.sessionGroups();
      await gated.firstRead;
      // A first look under way is shared by whoever asks for the list.
      const sameList = gated.model.sessionGroups();
      const path = newSessionFile("burst");
      const again = [gated.model.listMayHaveChanged(), gated.model.rediscover(), gated.model.listMayHaveChanged()];
      assert.equal(new Set(again).size, 1, "one look queued for the three");
      gated.release();
      await Promise.all([first, sameList, ...again]);
      assert.equal(gated.looks(), 2);
      assert.ok(gated.model.allPaths().includes(path));
      // Nothing under way: the next look starts at once.
      await gated.model.rediscover();
      assert.equal(gated.looks(), 3);
    } finally {
      gated.dispose();
    }
  });
});

/** The extension's catalogue child, holding its answers until released (the files are read when the gate closes). */
function gatedChild(): { reader: BulkReader; answered: Promise<void>; release(): void } {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const child = childBulkReader(join(extension.extensionPath, "dist", "catalogue-fill.js"));
  let answeredNow!: () => void;
  const answered = new Promise<void>((resolve) => (answeredNow = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const reader: BulkReader = {
    wants: () => true,
    async *read(paths, options, log) {
      const answers: BulkAnswer[] = [];
      for await (const answer of child.read(paths, options, log)) answers.push(answer);
      answeredNow();
      await gate;
      yield* answers;
    },
  };
  return { reader, answered, release };
}

suite("sessions read under way: a write meanwhile is not lost", () => {
  let internals: Internals;
  const scratch = scratchSessions();
  const disposables: { dispose(): void }[] = [];

  function catalogueModel(bulk?: BulkReader): SessionsModel {
    const settings = internals.services.settings();
    const store = new SessionStore(internals.services.log);
    const folder = mkdtempSync(join(tmpdir(), "pi-sessions-under-way-"));
    const model = new SessionsModel(
      store,
      () => ({ agentDir: settings.agentDir, trusted: true, overrides: {}, contextWindow: () => undefined }),
      () => discoverSessionGroups(settings),
      internals.services.log,
      { catalogue: catalogueForSettings(folder, () => undefined), ...(bulk ? { bulkReader: () => bulk } : {}) },
    );
    disposables.push(model, store, { dispose: () => rmSync(folder, { recursive: true, force: true }) });
    return model;
  }

  suiteSetup(async () => {
    internals = await extensionInternals();
    await internals.services.sessions.sessionGroups();
  });

  teardown(() => {
    for (const d of disposables.splice(0)) d.dispose();
  });

  suiteTeardown(() => scratch.remove(internals));

  test("a session written to after the cold fill's child read it gets the write once the fill ends", async () => {
    const path = scratch.create("fill");
    const child = gatedChild();
    const model = catalogueModel(child.reader);
    const listed = model.sessionGroups();
    await child.answered;
    appendFileSync(path, userLine("w0000001", "Written while the fill read the rows."));
    // What the watcher does for the write.
    const changed = model.fileChanged(path);
    child.release();
    await Promise.all([listed, changed]);
    await waitFor("the row with the write", () => model.factsOf(path)?.entryCount === 17, 20_000);
  });

  test("a file that was no session when the list was read (caught empty) is listed when pi's write makes it one", async () => {
    const path = scratch.create("empty", "");
    const model = catalogueModel();
    await model.sessionGroups();
    assert.ok(!model.allPaths().includes(path), "an empty file is no session");
    writeFileSync(path, await vscode.workspace.fs.readFile(vscode.Uri.file(fixturePath(BRANCHED_ID))));
    // Only the write's change event (the create came before the list was read).
    await model.fileChanged(path);
    await waitFor("the file listed with its row", () => model.factsOf(path)?.entryCount === 16, 20_000);
    assert.equal(model.errorOf(path), undefined);
  });

  test("a write while the store opens the session is read after the open", async () => {
    const path = scratch.create("open");
    const store = new SessionStore(internals.services.log);
    disposables.push(store);
    const opening = store.get(path);
    assert.ok(store.holds(path), "being opened");
    appendFileSync(path, userLine("w0000002", "Written while the store opened the file."));
    // The open may have read its bytes before the write or after: the refresh asked now comes after the open either way.
    const refreshed = store.refresh(path);
    await opening;
    const session = await refreshed;
    assert.ok(session, "the refresh waited for the open");
    assert.equal(session.index.size, 17);
    assert.equal(store.peek(path)?.index.leafId, "w0000002");
  });
});
