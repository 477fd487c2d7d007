// Sessions omp keeps outside its folders, followed live in the real extension
// host: the real omp 18.3.4 (Bun and omp's CLI from the tool cache, against the
// loopback model server) starts a session in a --session-dir folder while VS
// Code is open. omp records the file in its custom-session-files; the row
// appears without a refresh and without the folders being listed again (the
// record and the file read alone, only the workspace's group sent again to the
// view); omp resuming it and answering again updates the row; the record gone,
// the row leaves. Listing every project, omp's next session there joins the
// group of its cwd the same way.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server";
import { OMP_LOOPBACK_PROVIDER, prepareOmpHome, type OmpHome } from "../../support/omp/run-omp-cli";
import { extensionInternals, run, setSetting, waitFor, workspaceDir } from "./helpers";

const KEY = "sk-omp-recorded-live";

function label(item: vscode.TreeItem): string {
  return typeof item.label === "string" ? item.label : (item.label?.label ?? "");
}

/** The real omp, in print mode, on the loopback model: `args` before the prompt. */
function runOmp(home: OmpHome, args: string[], prompt: string): Promise<{ code: number | null; stderr: string }> {
  const bun = process.env.PI_SESSIONS_TEST_OMP_BUN!;
  const cli = process.env.PI_SESSIONS_TEST_OMP_CLI!;
  const argv = ["--no-install", cli, ...args, "--model", `${OMP_LOOPBACK_PROVIDER}/loopback-coder`, "--no-title", "--no-extensions", "--no-skills", "--no-rules", "--no-lsp", "-p", prompt];
  return new Promise((resolve, reject) => {
    const child = spawn(bun, argv, { cwd: workspaceDir(), env: home.env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

suite("sessions omp records outside its folders follow live: the real omp writes to a --session-dir folder while VS Code is open (trusted workspace)", () => {
  let internals: Internals;
  let server: ModelServer;
  let home: OmpHome;
  let sessionDir: string;

  suiteSetup(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    if (process.env.PI_SESSIONS_TEST_OMP_SKIP) this.skip();
    if (process.env.PI_SESSIONS_TEST_OMP_ERROR) throw new Error(process.env.PI_SESSIONS_TEST_OMP_ERROR);
    if (!process.env.PI_SESSIONS_TEST_OMP_BUN) throw new Error("the runner did not provide omp (PI_SESSIONS_TEST_OMP_BUN)");
    internals = await extensionInternals();
    server = await startModelServer({ expectedKey: KEY, respond: () => scenarios.success("Zanzibar answered from the loopback model.") });
    home = prepareOmpHome({ server, key: KEY, cwd: workspaceDir() });
    sessionDir = join(home.home, "kept-elsewhere");
    mkdirSync(sessionDir, { recursive: true });
    await setSetting("omp.agentDir", home.agentDir);
    await setSetting("omp.enabled", true);
    // The list read before omp runs: what follows must come live, not from a first look.
    await internals.services.sessions.rediscover();
    await internals.services.sessionsTree.getChildren();
  });

  suiteTeardown(async function () {
    if (!internals) return;
    await setSetting("omp.agentDir", undefined);
    await setSetting("omp.enabled", undefined);
    await server?.close();
    home?.cleanup();
    await internals.services.sessions.rediscover();
  });

  test("omp starts a session there: omp's record makes its row appear, read alone; omp answering again updates the row; the record removed, the row leaves", async function () {
    // Two runs of the real omp (2.5–4.5 s each, more under load) and three waits of up to 30 s.
    this.timeout(150_000);
    const sessions = internals.services.sessions;
    const tree = internals.services.sessionsTree;
    const looks = sessions.stats.looks;
    const fullRefreshes = tree.stats.full;

    const first = await runOmp(home, ["--session-dir", sessionDir], "Tell me about the zanzibar parser");
    assert.equal(first.code, 0, first.stderr);
    const files = readdirSync(sessionDir).filter((name) => name.endsWith(".jsonl"));
    assert.equal(files.length, 1, `omp wrote one session in the folder: ${files.join(", ")}`);
    const path = join(sessionDir, files[0]!);
    // omp's own record of it (what the extension follows).
    const recordsDir = join(home.agentDir, "custom-session-files");
    const records = readdirSync(recordsDir).filter((name) => readFileSync(join(recordsDir, name), "utf8").trim() === path);
    assert.ok(records.length > 0, "omp recorded the file in custom-session-files");

    const row = () => tree.getTreeItem(tree.sessionNode(path));
    await waitFor("the row of omp's new session, read", () => sessions.allPaths().includes(path) && sessions.factsOf(path) !== undefined, 30_000);
    const group = sessions.groupOf(path);
    assert.ok(group?.folder, "it joins the workspace's group (the cwd its header records)");
    assert.match(String(row().description), /^omp · /);
    assert.equal(sessions.factsOf(path)?.agent, "omp");
    const children = await tree.getChildren(tree.getParent(tree.sessionNode(path)));
    assert.ok(children.some((node) => node.kind === "session" && node.path === path), "the view's group holds the row");
    assert.equal(sessions.stats.looks, looks, "no look at every folder again");
    assert.equal(tree.stats.full, fullRefreshes, "the view was not refreshed as a whole");

    // omp resumes it and answers again: the row follows the appended entries.
    const entries = sessions.factsOf(path)!.entryCount;
    const description = String(row().description);
    const second = await runOmp(home, ["--resume", path], "And the tokenizer?");
    assert.equal(second.code, 0, second.stderr);
    await waitFor("the row updated with omp's new entries", () => (sessions.factsOf(path)?.entryCount ?? 0) > entries, 30_000);
    assert.notEqual(String(row().description), description);
    assert.ok(row().description && String(row().description).includes(`${sessions.factsOf(path)!.entryCount} entries`));
    assert.equal(sessions.stats.looks, looks, "still no look at every folder");

    // omp's gc (or the user) removes the records: the row leaves, the file untouched.
    const before = readFileSync(path);
    for (const name of readdirSync(recordsDir)) if (readFileSync(join(recordsDir, name), "utf8").trim() === path) rmSync(join(recordsDir, name));
    const crumbs = join(home.agentDir, "terminal-sessions");
    for (const name of (() => {
      try {
        return readdirSync(crumbs);
      } catch {
        return [];
      }
    })()) {
      rmSync(join(crumbs, name));
    }
    await waitFor("the row gone with its record", () => !sessions.allPaths().includes(path), 30_000);
    assert.equal(sessions.factsOf(path), undefined);
    assert.equal(label(row()), files[0]!, "no facts kept for it");
    assert.deepEqual(readFileSync(path), before);
    assert.equal(sessions.stats.looks, looks, "removed without a look at every folder");
    assert.equal(tree.stats.full, fullRefreshes);
  });

  test("listing every project: omp's next --session-dir session joins the group of its cwd, read alone", async function () {
    this.timeout(150_000);
    const sessions = internals.services.sessions;
    const tree = internals.services.sessionsTree;
    const before = new Set(readdirSync(sessionDir));
    try {
      const shown = await run<{ scope: string }>("piSessions.showAllProjects");
      assert.equal(shown.value?.scope, "all");
      const keysBefore = new Set((await sessions.sessionGroups()).map((g) => g.key));
      await tree.getChildren();
      const looks = sessions.stats.looks;
      const fullRefreshes = tree.stats.full;
      const ran = await runOmp(home, ["--session-dir", sessionDir], "One more question about the zanzibar parser");
      assert.equal(ran.code, 0, ran.stderr);
      const name = readdirSync(sessionDir).find((file) => file.endsWith(".jsonl") && !before.has(file));
      assert.ok(name, "omp wrote a new session in the folder");
      const path = join(sessionDir, name);
      await waitFor("its row, read", () => sessions.allPaths().includes(path) && sessions.factsOf(path)?.agent === "omp", 30_000);
      const group = sessions.groupOf(path);
      assert.ok(group && group.key.startsWith("cwd:"), "a group of every project's listing");
      assert.equal(group.cwd, JSON.parse(readFileSync(path, "utf8").split("\n").find((line) => line.includes('"type":"session"'))!).cwd, "the cwd its header records");
      assert.equal(sessions.stats.looks, looks, "no look at every folder again");
      // Only a new group (a cwd no session listed had) changes the view's top level.
      if (keysBefore.has(group.key)) assert.equal(tree.stats.full, fullRefreshes, "the view was not refreshed as a whole");
    } finally {
      await run("piSessions.showWorkspaceSessions");
    }
  });
});
