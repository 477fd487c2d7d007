// The session actions in a real extension host: continuing in pi (a stand-in
// `pi` script records the arguments and cwd it is started with: the terminal's
// process is the pi invocation itself), forking, renaming and labelling (pi
// 0.73.1's SessionManager re-opens the files, in its own Node process), and
// the trash. A separate @restricted suite checks that Restricted Mode runs and
// writes nothing.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import * as vscode from "vscode";
import { shellQuote } from "../../../src/core/pi-cli/pi-invocation";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import { homeTrashDir } from "../../../src/core/trash/freedesktop-trash";
import type { Internals } from "../../../src/extension/internals";
import { BRANCHED_ID, bytes, copySession, extensionInternals, fixturePath, piDir, run, scratchDir, setSetting, waitFor, workspaceDir } from "./helpers";

const ROOT = join(__dirname, "../../../..");

interface PiView {
  header: Record<string, unknown>;
  leafId: string | null;
  name: string | null;
  labels: Record<string, string>;
  entryIds: string[];
  context: unknown;
}

/** pi 0.73.1 opening the file (test/support/pi-open-session.mjs in a Node process). */
function piOpen(path: string): PiView {
  const out = execFileSync(process.execPath, [join(ROOT, "test/support/pi-open-session.mjs"), path], {
    cwd: ROOT,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
    encoding: "utf8",
  });
  return JSON.parse(out) as PiView;
}

/** A stand-in `pi`: writes its cwd and arguments, one per line, to `record`, then waits like an interactive pi. */
function standInPi(folder: string, record: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, "pi");
  // Written aside, then renamed: the test never reads the arguments half-written (a line per write).
  writeFileSync(path, `#!/bin/sh\n{ pwd; for a in "$@"; do printf '%s\\n' "$a"; done; } > ${shellQuote(`${record}.part`)} && mv ${shellQuote(`${record}.part`)} ${shellQuote(record)}\nsleep 30\n`);
  chmodSync(path, 0o755);
  return path;
}

interface Launch {
  terminalName: string;
  shellPath: string;
  shellArgs: string[];
  cwd: string | undefined;
}

let counter = 0;
function recordFile(): string {
  return join(scratchDir(), `pi-record-${process.pid}-${++counter}.txt`);
}

async function recorded(record: string): Promise<string[]> {
  const text = await waitFor("the stand-in pi to record its arguments", () => existsSync(record) && readFileSync(record, "utf8").endsWith("\n") && readFileSync(record, "utf8"));
  return text.trimEnd().split("\n");
}

function disposeTerminals(): void {
  for (const terminal of vscode.window.terminals) if (terminal.name.startsWith("pi")) terminal.dispose();
}

suite("Session actions: continue in pi, fork, rename, labels, trash (trusted workspace)", () => {
  let internals: Internals;

  suiteSetup(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    internals = await extensionInternals();
  });

  teardown(async () => {
    disposeTerminals();
    await setSetting("piCommand", undefined);
  });

  test("Open in pi: a terminal named after the session runs `<pi> --session <file>` in the session's cwd (pi found on PATH)", async () => {
    const path = copySession(BRANCHED_ID);
    const record = recordFile();
    const bin = join(scratchDir(), `bin-${++counter}`);
    const pi = standInPi(bin, record);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${delimiter}${savedPath ?? ""}`;
    let result;
    try {
      result = await run<Launch>("piSessions.openInPi", { sessionPath: path });
    } finally {
      process.env.PATH = savedPath;
    }
    assert.equal(result.ok, true, result.message);
    assert.deepEqual({ shellPath: result.value!.shellPath, shellArgs: result.value!.shellArgs, cwd: result.value!.cwd }, { shellPath: pi, shellArgs: ["--session", path], cwd: workspaceDir() });
    const terminal = vscode.window.terminals.find((t) => t.name === result.value!.terminalName);
    assert.ok(terminal, "the terminal exists");
    assert.equal(terminal.name, "pi: List command: --json flag");
    const options = terminal.creationOptions as vscode.TerminalOptions;
    assert.deepEqual([options.shellPath, options.shellArgs], [pi, ["--session", path]]);
    // What the process itself received: its cwd, then its arguments.
    assert.deepEqual(await recorded(record), [workspaceDir(), "--session", path]);
  });

  test("Fork into New Session runs `<pi> --fork <file>` (piSessions.piCommand)", async () => {
    const path = copySession(BRANCHED_ID);
    const record = recordFile();
    const pi = standInPi(join(scratchDir(), `tools-${++counter}`), record);
    await setSetting("piCommand", pi);
    const result = await run<Launch>("piSessions.forkInPi", { sessionPath: path });
    assert.equal(result.ok, true, result.message);
    assert.deepEqual(await recorded(record), [workspaceDir(), "--fork", path]);
  });

  test("pi missing: nothing starts, and the message says how to install it", async () => {
    await setSetting("piCommand", join(scratchDir(), "no-such-pi"));
    const before = vscode.window.terminals.length;
    const result = await run<Launch>("piSessions.openInPi", { sessionPath: copySession(BRANCHED_ID) });
    assert.equal(result.ok, false);
    assert.match(result.message!, /npm i -g @earendil-works\/pi-coding-agent/);
    assert.equal(vscode.window.terminals.length, before);
  });

  test("Continue from Here: the move is persisted first (no summary), then pi resumes the session there", async () => {
    const path = copySession(BRANCHED_ID);
    const record = recordFile();
    await setSetting("piCommand", standInPi(join(scratchDir(), `tools-${++counter}`), record));
    const result = await run<Launch & { navigated: boolean }>("piSessions.continueFromHere", { sessionPath: path, entryId: "t2000001", summary: "none" });
    assert.equal(result.ok, true, result.message);
    assert.equal(result.value!.navigated, true);
    assert.deepEqual(await recorded(record), [workspaceDir(), "--session", path]);
    const pi = piOpen(path);
    // pi resumes at the file's last entry: the navigation entry under t2000001.
    const session = openSessionSync(path);
    assert.equal(session.entry(pi.leafId!)?.parentId, "t2000001");
  });

  test("Copy Resume Command: `cd <cwd> && pi --session <file>` on the clipboard", async () => {
    const path = copySession(BRANCHED_ID);
    const result = await run<{ text: string }>("piSessions.copyResumeCommand", { sessionPath: path });
    assert.equal(result.ok, true, result.message);
    const expected = `cd ${shellQuote(workspaceDir())} && pi --session ${shellQuote(path)}`;
    assert.equal(result.value!.text, expected);
    assert.equal(await vscode.env.clipboard.readText(), expected);
  });

  test("Rename Session and Set/Clear Label: pi re-opens the name and labels; the Sessions and Entries rows show them at once", async () => {
    const path = copySession(BRANCHED_ID, piDir());
    await internals.services.sessions.rediscover();
    const before = bytes(path);
    const renamed = await run<{ name: string }>("piSessions.renameSession", { sessionPath: path, name: "Renamed\nin the editor" });
    assert.equal(renamed.ok, true, renamed.message);
    assert.equal(renamed.value!.name, "Renamed in the editor");
    const row = internals.services.sessionsTree.getTreeItem(internals.services.sessionsTree.sessionNode(path));
    assert.equal(row.label, "Renamed in the editor");
    const labelled = await run("piSessions.setLabel", { sessionPath: path, entryId: "u2000001", label: "try --format" });
    assert.equal(labelled.ok, true, labelled.message);
    internals.services.entriesTree.show(path);
    const model = (await internals.services.entriesTree.current())!;
    const item = await internals.services.entriesTree.getTreeItem(model.entryNode("u2000001"));
    assert.match((item.label as vscode.TreeItemLabel).label, /^try --format · /);
    assert.match(String(item.contextValue), /\blabelled\b/);
    let pi = piOpen(path);
    assert.equal(pi.name, "Renamed in the editor");
    assert.equal(pi.labels.u2000001, "try --format");
    const cleared = await run("piSessions.clearLabel", { sessionPath: path, entryId: "u2000001" });
    assert.equal(cleared.ok, true, cleared.message);
    pi = piOpen(path);
    assert.equal(pi.labels.u2000001, undefined);
    assert.equal(pi.labels.a1000003, "json-flag-done");
    // Appends only: the bytes before are untouched.
    assert.deepEqual(bytes(path).subarray(0, before.length), before);
    internals.services.entriesTree.show(undefined);
    rmSync(path, { force: true });
    await internals.services.sessions.rediscover();
  });

  test("Fork Session Here: a new file in pi's folder for the session's cwd, listed at once; pi opens it with the source's context there; source unchanged", async () => {
    const path = copySession(BRANCHED_ID);
    const before = bytes(path);
    const result = await run<{ path: string; id: string; atId: string }>("piSessions.forkSessionHere", { sessionPath: path, entryId: "a1000003" });
    assert.equal(result.ok, true, result.message);
    const forked = result.value!.path;
    try {
      assert.equal(dirname(forked), piDir());
      assert.ok(basename(forked).endsWith(`_${result.value!.id}.jsonl`));
      assert.ok(internals.services.sessions.allPaths().includes(forked), "the Sessions view lists the fork");
      assert.deepEqual(bytes(path), before);
      const pi = piOpen(forked);
      assert.equal(pi.header.parentSession, path);
      assert.deepEqual(pi.entryIds.slice(0, 6), ["u1000001", "a1000001", "t1000001", "a1000002", "t1000002", "a1000003"]);
      // After the path: the label entry for a1000003, so pi resumes there.
      assert.equal(pi.entryIds.length, 7);
      assert.equal(pi.leafId, pi.entryIds[6]);
      const sourceAtEntry = piOpen(copyWithLeafAt(path, "a1000003"));
      assert.deepEqual(pi.context, sourceAtEntry.context);
      // The label the source holds for an entry on that path comes along.
      assert.equal(pi.labels.a1000003, "json-flag-done");
    } finally {
      rmSync(forked, { force: true });
      await internals.services.sessions.rediscover();
    }
  });

  test("Clone Branch: the whole current branch as a new session", async () => {
    const path = copySession(BRANCHED_ID);
    const result = await run<{ path: string; atId: string }>("piSessions.cloneBranch", { sessionPath: path });
    assert.equal(result.ok, true, result.message);
    try {
      assert.equal(result.value!.atId, "s3000001");
      assert.deepEqual(piOpen(result.value!.path).context, piOpen(path).context);
    } finally {
      rmSync(result.value!.path, { force: true });
      await internals.services.sessions.rediscover();
    }
  });

  test("Move to Trash (two sessions selected): both leave the folder and the list; in code-server the host's trash is the freedesktop home trash", async () => {
    // code-server's file system has no trash (workspace.fs.delete with useTrash fails there), so the
    // files go to the freedesktop.org home trash of the host; on desktop VS Code the OS trash takes them.
    const first = copySession(BRANCHED_ID, piDir());
    const second = copySession(BRANCHED_ID, piDir());
    await internals.services.sessions.rediscover();
    const nodes = [internals.services.sessionsTree.sessionNode(first), internals.services.sessionsTree.sessionNode(second)];
    const result = await vscode.commands.executeCommand<{ ok: boolean; message?: string; value?: { moved: { path: string; via: string; to?: string }[]; totalBytes: number } }>(
      "piSessions.moveToTrash",
      { ...nodes[0], confirmed: true },
      nodes,
    );
    assert.equal(result.ok, true, result.message);
    assert.deepEqual(result.value!.moved.map((m) => m.path).sort(), [first, second].sort());
    assert.equal(result.value!.totalBytes, 2 * bytes(fixture()).length);
    for (const path of [first, second]) {
      assert.equal(existsSync(path), false, `${path} left its folder`);
      assert.equal(internals.services.sessions.allPaths().includes(path), false);
    }
    for (const moved of result.value!.moved) {
      // code-server (a web UI) has no VS Code trash: the freedesktop fallback must have taken the file.
      if (vscode.env.uiKind === vscode.UIKind.Web) assert.equal(moved.via, "freedesktop");
      if (moved.via !== "freedesktop") continue;
      assert.ok(moved.to && moved.to.startsWith(join(homeTrashDir(), "files")));
      assert.deepEqual(readFileSync(moved.to), bytes(fixture()));
      const info = readFileSync(join(homeTrashDir(), "info", `${basename(moved.to)}.trashinfo`), "utf8");
      assert.match(info, new RegExp(`^Path=${escapeRegExp(moved.path.split("/").map(encodeURIComponent).join("/"))}$`, "m"));
    }
  });

  test("Clean Up (dry run) proposes an empty session with the total size; an active session never", async () => {
    const empty = join(piDir(), `2020-01-01T00-00-00-000Z_${"0".repeat(8)}-0000-4000-8000-${String(++counter).padStart(12, "0")}.jsonl`);
    writeFileSync(empty, `${JSON.stringify({ type: "session", version: 3, id: basename(empty).slice(25, -6), timestamp: "2020-01-01T00:00:00.000Z", cwd: workspaceDir() })}\n`);
    // Last written in 2020 (a file written now is active: pi may be running in it).
    utimesSync(empty, new Date("2020-01-01T00:00:00.000Z"), new Date("2020-01-01T00:00:00.000Z"));
    // Just as empty, but started a moment ago: pi may be running in it.
    const now = new Date().toISOString();
    const active = join(piDir(), `${now.replace(/[:.]/g, "-")}_${"1".repeat(8)}-0000-4000-8000-${String(++counter).padStart(12, "0")}.jsonl`);
    writeFileSync(active, `${JSON.stringify({ type: "session", version: 3, id: basename(active).slice(25, -6), timestamp: now, cwd: workspaceDir() })}\n`);
    try {
      await internals.services.sessions.rediscover();
      // Rows of a listed folder come from the catalogue as they are read.
      await waitFor("both sessions' rows", () => internals.services.sessions.factsOf(empty) && internals.services.sessions.factsOf(active));
      const result = await run<{ proposed: string[]; totalBytes: number; moved: unknown[] }>("piSessions.cleanUp", { empty: true, dryRun: true });
      assert.equal(result.ok, true, result.message);
      assert.ok(result.value!.proposed.includes(empty));
      assert.ok(internals.services.sessions.allPaths().includes(active), "the active session is listed");
      assert.equal(result.value!.proposed.includes(active), false, "an active session is never proposed");
      assert.equal(result.value!.moved.length, 0);
      assert.ok(existsSync(empty));
      assert.ok(result.value!.totalBytes >= readFileSync(empty).length);
      for (const proposed of result.value!.proposed) assert.equal(openSessionSync(proposed).index.entries.filter((m) => m.role === "user" || m.role === "assistant").length, 0);
    } finally {
      rmSync(empty, { force: true });
      rmSync(active, { force: true });
      await internals.services.sessions.rediscover();
    }
  });

  test("Clean Up never proposes a session just renamed or labelled through the extension: its last activity is that write, not pi's last message", async () => {
    // A session whose pi messages are months old, as a copied-in session is (its file's mtime too).
    const path = join(piDir(), `2026-01-12T14-00-00-000Z_${"2".repeat(8)}-0000-4000-8000-${String(++counter).padStart(12, "0")}.jsonl`);
    const lines = readFileSync(fixturePath(BRANCHED_ID), "utf8").split("\n");
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), id: basename(path).slice(25, -6) });
    writeFileSync(path, lines.join("\n"));
    const old = new Date("2026-01-13T00:00:00.000Z");
    utimesSync(path, old, old);
    const proposed = async () => {
      const result = await run<{ proposed: string[] }>("piSessions.cleanUp", { empty: false, olderThanDays: 30, dryRun: true });
      assert.equal(result.ok, true, result.message);
      return result.value!.proposed;
    };
    try {
      await internals.services.sessions.rediscover();
      await waitFor("the copied session's row", () => internals.services.sessions.factsOf(path));
      assert.ok((await proposed()).includes(path), "idle for months: proposed");
      for (const [command, args] of [
        ["piSessions.renameSession", { sessionPath: path, name: "Kept" }],
        ["piSessions.setLabel", { sessionPath: path, entryId: "u1000001", label: "keep" }],
      ] as const) {
        assert.equal((await run(command, args)).ok, true, command);
        const facts = await waitFor("the write's activity in the row", () => {
          const f = internals.services.sessions.factsOf(path);
          return f && Date.now() - f.lastActivity.getTime() < 60_000 && f;
        });
        assert.ok(facts.lastActivity.getTime() > old.getTime());
        // Even with the file's mtime set back (a copy, a restore): the entry's own time counts.
        utimesSync(path, old, old);
        assert.equal((await proposed()).includes(path), false, `${command}: a session just written to is never proposed`);
      }
      assert.equal(internals.services.sessions.allPaths()[0], path, "the newest activity sorts it first");
    } finally {
      rmSync(path, { force: true });
      await internals.services.sessions.rediscover();
    }
  });
});

suite("Session actions @restricted: Restricted Mode runs nothing and writes nothing", () => {
  suiteSetup(async function () {
    if (vscode.workspace.isTrusted) this.skip();
    await extensionInternals();
  });

  test("continue-in-pi, curate and trash commands refuse; no terminal; files unchanged", async () => {
    const path = copySession(BRANCHED_ID);
    const before = bytes(path);
    const terminals = vscode.window.terminals.length;
    const attempts: [string, Record<string, unknown>][] = [
      ["piSessions.openInPi", { sessionPath: path }],
      ["piSessions.forkInPi", { sessionPath: path }],
      ["piSessions.continueFromHere", { sessionPath: path, entryId: "t2000001", summary: "none" }],
      ["piSessions.renameSession", { sessionPath: path, name: "x" }],
      ["piSessions.setLabel", { sessionPath: path, entryId: "u1000001", label: "x" }],
      ["piSessions.clearLabel", { sessionPath: path, entryId: "a1000003" }],
      ["piSessions.forkSessionHere", { sessionPath: path, entryId: "a1000003" }],
      ["piSessions.cloneBranch", { sessionPath: path }],
      ["piSessions.moveToTrash", { sessionPath: path, confirmed: true }],
      ["piSessions.cleanUp", { empty: true, selectAll: true, confirmed: true }],
    ];
    for (const [command, args] of attempts) {
      const result = await run(command, args);
      assert.deepEqual([command, result.ok, result.reason], [command, false, "untrusted"]);
    }
    assert.equal(vscode.window.terminals.length, terminals);
    assert.deepEqual(bytes(path), before);
    assert.ok(existsSync(path));
  });

  test("Copy Resume Command still works (it runs nothing)", async () => {
    const result = await run<{ text: string }>("piSessions.copyResumeCommand", { sessionPath: copySession(BRANCHED_ID) });
    assert.equal(result.ok, true, result.message);
    assert.match(result.value!.text, / && pi --session /);
  });
});

function fixture(): string {
  return copySession(BRANCHED_ID);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A copy of the session whose last line moves pi's leaf to `entryId` (a custom entry under it), for pi's context there. */
function copyWithLeafAt(path: string, entryId: string): string {
  const copy = join(scratchDir(), `leaf-at-${++counter}.jsonl`);
  writeFileSync(copy, `${readFileSync(path, "utf8")}${JSON.stringify({ type: "custom", customType: "test/leaf", id: `leafat${String(counter).padStart(2, "0")}`, parentId: entryId, timestamp: new Date().toISOString() })}\n`);
  return copy;
}
