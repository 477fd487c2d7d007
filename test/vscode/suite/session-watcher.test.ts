// The watcher on pi's folders that do not exist yet: a workspace with no pi
// session so far (pi creates its folder with the first session of that cwd),
// and, listing every project, a project pi starts in for the first time (pi
// makes its folder under <agent-dir>/sessions when it starts, the session file
// comes with the first message). SessionWatchers of their own in the real host,
// on folders under a scratch directory: the first session must make the list
// look again, and later writes must be reported.
import * as assert from "node:assert/strict";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SessionWatcher } from "../../../src/extension/session-watcher";
import { BRANCHED_ID, extensionInternals, fixturePath, scratchDir, waitFor } from "./helpers";

suite("session watcher @restricted: pi's folder created after the extension started", () => {
  const roots: string[] = [];
  const watchers: SessionWatcher[] = [];

  teardown(() => {
    for (const w of watchers.splice(0)) w.dispose();
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  test("the first session file in a folder that did not exist makes the list look again; its writes are reported", async () => {
    const internals = await extensionInternals();
    const root = mkdtempSync(join(scratchDir(), "watch-"));
    roots.push(root);
    // pi's layout: <agentDir>/sessions/--cwd--/; neither the cwd's folder exists yet.
    const dir = join(root, "sessions", "--home-user-new-project--");
    const listChanges: number[] = [];
    const changed: string[] = [];
    const watcher = new SessionWatcher({ changed: (path) => changed.push(path), listChanged: () => listChanges.push(Date.now()) }, internals.services.log);
    watchers.push(watcher);
    watcher.watch({ piDirs: [dir], include: [] });

    mkdirSync(dir, { recursive: true });
    const path = join(dir, "2026-02-03T10-00-00-000Z_first.jsonl");
    copyFileSync(fixturePath(BRANCHED_ID), path);
    // The list looks again (and finds the file, written before or after the folder was watched).
    await waitFor("the list told to look again", () => listChanges.length > 0, 20_000);

    const before = changed.length;
    appendFileSync(path, "\n");
    await waitFor("the write reported", () => changed.length > before, 20_000);
    assert.ok(changed.slice(before).every((p) => p === path));
  });

  test("every project listed: a project folder pi makes later is watched; its first session makes the list look again", async () => {
    const internals = await extensionInternals();
    const root = mkdtempSync(join(scratchDir(), "watch-"));
    roots.push(root);
    const sessionsRoot = join(root, "sessions");
    const listChanges: number[] = [];
    const changed: string[] = [];
    const watcher = new SessionWatcher({ changed: (path) => changed.push(path), listChanged: () => listChanges.push(Date.now()) }, internals.services.log);
    watchers.push(watcher);
    // pi has never run: not even its sessions folder exists.
    watcher.watch({ piDirs: [], piRoots: [sessionsRoot], include: [] });

    mkdirSync(sessionsRoot);
    await waitFor("the sessions folder seen", () => listChanges.length > 0, 20_000);
    // pi starts in a new project: its folder first, empty.
    const dir = join(sessionsRoot, "--home-user-another-project--");
    mkdirSync(dir);
    const seenFolder = listChanges.length;
    await waitFor("the project folder seen", () => listChanges.length > seenFolder, 20_000);
    // The first message: the session file.
    const path = join(dir, "2026-02-03T11-00-00-000Z_first.jsonl");
    const beforeFile = listChanges.length;
    copyFileSync(fixturePath(BRANCHED_ID), path);
    await waitFor("the new session file seen", () => listChanges.length > beforeFile, 20_000);
    const before = changed.length;
    appendFileSync(path, "\n");
    await waitFor("the write reported", () => changed.slice(before).includes(path), 20_000);
  });
});
