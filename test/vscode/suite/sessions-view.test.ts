// The Sessions view lists the workspace's sessions: pi's folder for the
// workspace under the agent dir (the harness put the fixtures there) and a
// session file inside the workspace; newest first; titles, entry counts and
// context tokens as derived by hand from the fixtures; the window once the
// model registry is loaded; the auto-compaction warning, view badge and status bar.
import * as assert from "node:assert/strict";
import { join } from "node:path";
import * as vscode from "vscode";
import { semanticsFor } from "../../../src/core/agent";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import type { SessionsNode } from "../../../src/extension/views/sessions-view";
import type { Internals } from "../../../src/extension/internals";
import { BRANCHED_ID, extensionInternals, fixturePath, LINEAR_ID, run, setSetting, waitFor, workspaceDir } from "./helpers";

function label(item: vscode.TreeItem): string {
  return typeof item.label === "string" ? item.label : (item.label?.label ?? "");
}

suite("Sessions view @restricted: the workspace's sessions", () => {
  let internals: Internals;
  let groups: SessionsNode[];
  let rows: SessionsNode[];

  suiteSetup(async () => {
    internals = await extensionInternals();
    const tree = internals.services.sessionsTree;
    groups = await tree.getChildren();
    rows = groups.length > 0 ? await tree.getChildren(groups[0]) : [];
  });

  suiteTeardown(async () => {
    await setSetting("compaction.reserveTokens", undefined);
  });

  test("one group for the workspace folder", async () => {
    assert.equal(groups.length, 1);
    const item = await internals.services.sessionsTree.getTreeItem(groups[0]!);
    assert.equal(label(item), vscode.workspace.workspaceFolders![0]!.name);
    assert.equal(item.description, "3 sessions");
  });

  test("pi's sessions and the workspace's session file, newest activity first", () => {
    const paths = rows.map((row) => (row.kind === "session" ? row.path : ""));
    assert.deepEqual(paths, [fixturePath(BRANCHED_ID), fixturePath(LINEAR_ID), join(workspaceDir(), "recorded", "explain-hello.jsonl")]);
  });

  test("titles: the session_info name, else the first user message", async () => {
    const titles = await Promise.all(rows.map(async (row) => label(await internals.services.sessionsTree.getTreeItem(row))));
    assert.deepEqual(titles, ["List command: --json flag", "Rename greeting", "Explain what hello.ts exports."]);
  });

  test("entry counts and context tokens (the last answer's usage: 2300+30, 180+12, 300+20)", async () => {
    const facts = rows.map((row) => internals.services.sessions.factsOf(row.kind === "session" ? row.path : "")!);
    assert.deepEqual(
      facts.map((f) => [f.entryCount, f.usage.tokens, f.usage.source]),
      [
        [16, 2330, "usage"],
        [5, 192, "usage"],
        [2, 320, "usage"],
      ],
    );
    const item = await internals.services.sessionsTree.getTreeItem(rows[0]!);
    assert.match(String(item.description), /16 entries · 2\.3k/);
  });

  test("with the model registry loaded, tokens are shown against the model's window (claude-sonnet-4-5: 200k)", async () => {
    await internals.loadModelWindows();
    const path = fixturePath(BRANCHED_ID);
    await waitFor("the window", () => internals.services.sessions.factsOf(path)?.contextWindow === 200_000);
    const item = await internals.services.sessionsTree.getTreeItem(rows[0]!);
    assert.match(String(item.description), /2\.3k \/ 200k \(1%\)/);
    assert.equal(internals.services.sessions.factsOf(path)!.wouldCompact, false);
  });

  test("past the threshold (window − reserve): warning icon, view badge and a warning status bar", async () => {
    await internals.loadModelWindows();
    // 200000 − 199000 = 1000 tokens: only the branched session (2330) is past it.
    await setSetting("compaction.reserveTokens", 199_000);
    const path = fixturePath(BRANCHED_ID);
    await waitFor("the threshold setting", () => internals.services.sessions.factsOf(path)?.threshold === 1000);
    assert.deepEqual(
      rows.map((row) => internals.services.sessions.factsOf(row.kind === "session" ? row.path : "")!.wouldCompact),
      [true, false, false],
    );
    const item = await internals.services.sessionsTree.getTreeItem(rows[0]!);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, "warning");
    assert.equal(internals.services.sessionsView.badge?.value, 1);

    await run("piSessions.openSession", { sessionPath: path });
    await waitFor("the status bar", () => internals.statusBar.state.warning);
    assert.match(internals.statusBar.state.text, /2\.3k \/ 200k \(1%\)/);

    await setSetting("compaction.reserveTokens", undefined);
    await waitFor("the threshold back to pi's default", () => internals.services.sessions.factsOf(path)?.threshold === 200_000 - 16384);
    assert.equal(internals.statusBar.state.warning, false);
    assert.equal(internals.services.sessionsView.badge, undefined);
  });

  test("auto-compaction notice: offered once when a session crosses the threshold and stays idle", async () => {
    await internals.loadModelWindows();
    const path = fixturePath(BRANCHED_ID);
    await setSetting("autoCompactionNotice.idleSeconds", 0);
    await setSetting("autoCompactionNotice.enabled", true);
    try {
      await setSetting("compaction.reserveTokens", 199_000);
      await waitFor("the offer", () => internals.notice.offers.includes(path));
      internals.services.sessions.recomputeAll();
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(internals.notice.offers.filter((p) => p === path).length, 1, "once per crossing");
      assert.ok(!internals.notice.offers.includes(fixturePath(LINEAR_ID)), "a session below the threshold is not offered");
    } finally {
      await setSetting("autoCompactionNotice.enabled", undefined);
      await setSetting("autoCompactionNotice.idleSeconds", undefined);
      await setSetting("compaction.reserveTokens", undefined);
    }
  });

  test("which pi: chosen per session (these fixtures hold no pi 1.x entries), the piVersion setting forces one; the tooltip says which and why", async () => {
    const path = fixturePath(BRANCHED_ID);
    const before = internals.services.sessions.factsOf(path)!;
    assert.doesNotMatch(before.piVersionReason ?? "", /setting/);
    try {
      await setSetting("piVersion", before.piVersion === "1.5" ? "0.73" : "1.5");
      const forced = before.piVersion === "1.5" ? "0.73" : "1.5";
      await waitFor("the piVersion setting", () => internals.services.sessions.factsOf(path)?.piVersion === forced);
      // Counted with that version's rule, as from scratch.
      const branch = openSessionSync(path).pathTo();
      assert.deepEqual(internals.services.sessions.factsOf(path)!.usage, semanticsFor(forced).contextUsage(branch));
      const item = await internals.services.sessionsTree.getTreeItem(rows[0]!);
      const tooltip = (item.tooltip as vscode.MarkdownString).value;
      assert.ok(tooltip.includes(`read as pi ${forced} (the piSessions\\.piVersion setting)`), tooltip);
    } finally {
      await setSetting("piVersion", undefined);
    }
    await waitFor("automatic again", () => internals.services.sessions.factsOf(path)?.piVersion === before.piVersion);
    assert.deepEqual(internals.services.sessions.factsOf(path)!.usage, semanticsFor(before.piVersion!).contextUsage(openSessionSync(path).pathTo()));
  });

  test("context keys follow the active session", async () => {
    const path = fixturePath(LINEAR_ID);
    const result = await run("piSessions.openSession", { sessionPath: path });
    assert.equal(result.ok, true);
    assert.equal(internals.services.active.path, path);
    assert.equal(internals.services.entriesTree.path, path);
  });
});
