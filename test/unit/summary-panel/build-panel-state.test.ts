// The summary panel's state, built from entries pi's own SessionManager wrote
// (and one our runner wrote): files recorded or recomputed, the deleted /
// outside / open marks against a real folder, and the header facts. Expected
// values are worked out by hand from the fixture's tool calls.

import { existsSync, writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import { runCompaction } from "../../../src/core/write/index";
import { buildPanelState, type PanelEnvironment } from "../../../src/extension/summary-panel/build-panel-state";
import { MODEL_NOT_RECORDED } from "../../../src/extension/summary-panel/summary-entry";
import { isSummaryPanelState, LIMITS, type SummaryFile } from "../../../src/webview/protocol";
import { createPanelFixture, type PanelFixture } from "./support/pi-session";

let fx: PanelFixture;

beforeEach(() => {
  fx = createPanelFixture();
});
afterEach(() => fx.cleanup());

function env(overrides: Partial<PanelEnvironment> = {}): PanelEnvironment {
  return { workspaceRoots: [fx.project], openPaths: new Set(), exists: existsSync, homeDir: "/home/tester", ...overrides };
}

const VIEW = { mode: "view", readOnly: false } as const;

async function stateOf(entryId: string, environment = env(), options: Parameters<typeof buildPanelState>[3] = VIEW) {
  const session = openSessionSync(fx.path());
  const built = await buildPanelState(session, session.entry(entryId), environment, options);
  expect(built).toBeDefined();
  expect(isSummaryPanelState(built!.state)).toBe(true);
  return built!;
}

function byDisplay(files: readonly SummaryFile[]): Record<string, Omit<SummaryFile, "displayPath">> {
  return Object.fromEntries(files.map(({ displayPath, ...rest }) => [displayPath, rest]));
}

describe("a compaction pi wrote (no pi-sessions details): files recomputed from the compacted branch", () => {
  it("lists what the tool calls did, newest first, with deleted and outside marks", async () => {
    const id = fx.writer.appendCompaction("## Goal\nSet up.", fx.ids.u2!, 12_345, { readFiles: ["README.md"], modifiedFiles: ["src/app.ts"] });
    const { state, filesSource } = await stateOf(id);
    expect(filesSource).toBe("recomputed");
    const notes = join(fx.outside, "notes.txt");
    expect(state.files.map((f) => f.displayPath)).toEqual([notes, "old.txt", "src/app.ts", "README.md"]);
    expect(byDisplay(state.files)).toEqual({
      [notes]: { path: notes, ops: "R", deleted: false, outside: true, open: false },
      "old.txt": { path: join(fx.project, "old.txt"), ops: "D", deleted: true, outside: false, open: false },
      "src/app.ts": { path: join(fx.project, "src/app.ts"), ops: "WE", deleted: false, outside: false, open: false },
      "README.md": { path: join(fx.project, "README.md"), ops: "R", deleted: false, outside: false, open: false },
    });
  });

  it("carries the header facts: kind, ids, tokens before, no tokens after, model not recorded, pi's timestamp", async () => {
    const id = fx.writer.appendCompaction("## Goal\nSet up.", fx.ids.u2!, 12_345);
    const session = openSessionSync(fx.path());
    const { state } = await stateOf(id);
    expect(state).toMatchObject({
      version: 1,
      kind: "compaction",
      sessionPath: fx.path(),
      entryId: id,
      summary: "## Goal\nSet up.",
      tokensBefore: 12_345,
      model: MODEL_NOT_RECORDED,
      timestamp: session.entry(id)!.timestamp,
      firstKeptEntryId: fx.ids.u2,
      mode: "view",
      readOnly: false,
    });
    expect(state.tokensAfter).toBeUndefined();
    expect(state.fromId).toBeUndefined();
    expect(state.notice).toBeUndefined();
  });

  it("a deleted file that exists again is not struck through", async () => {
    writeFileSync(join(fx.project, "old.txt"), "back\n");
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 1);
    const { state } = await stateOf(id);
    expect(state.files.find((f) => f.displayPath === "old.txt")).toMatchObject({ ops: "D", deleted: false });
  });

  it("a file in another workspace folder is inside, shown relative to that folder", async () => {
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 1);
    const { state } = await stateOf(id, env({ workspaceRoots: [fx.project, fx.outside] }));
    expect(state.files[0]).toMatchObject({ path: join(fx.outside, "notes.txt"), displayPath: "notes.txt", outside: false });
  });

  it("the session cwd counts as inside even when no workspace folder is open", async () => {
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 1);
    const { state } = await stateOf(id, env({ workspaceRoots: [] }));
    expect(state.files.filter((f) => f.outside).map((f) => f.displayPath)).toEqual([join(fx.outside, "notes.txt")]);
  });

  it("marks the files open in a tab (exact absolute paths)", async () => {
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 1);
    const open = new Set([join(fx.project, "src/app.ts"), join(fx.project, "unrelated.ts")]);
    const { state } = await stateOf(id, env({ openPaths: open }));
    expect(state.files.filter((f) => f.open).map((f) => f.displayPath)).toEqual(["src/app.ts"]);
  });
});

describe("a compaction with pi-sessions details", () => {
  it("uses the recorded manifest, not a recomputation", async () => {
    const recorded = [
      { path: join(fx.project, "src/recorded.ts"), displayPath: "src/recorded.ts", ops: "W" },
      { path: "~/notes/todo.md", displayPath: "~/notes/todo.md", ops: "E" },
      { path: "Repo:lib/x.ts", displayPath: "Repo:lib/x.ts", ops: "R" },
    ];
    const details = { readFiles: [], modifiedFiles: [], model: "anthropic/claude-sonnet-4-5", piSessions: { version: 1, digest: false, filesTouched: recorded } };
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 9, details);
    const { state, filesSource } = await stateOf(id);
    expect(filesSource).toBe("recorded");
    expect(state.model).toBe("anthropic/claude-sonnet-4-5");
    expect(state.files).toEqual([
      { path: join(fx.project, "src/recorded.ts"), displayPath: "src/recorded.ts", ops: "W", deleted: false, outside: false, open: false },
      // ~ is the home folder; outside the workspace.
      { path: "/home/tester/notes/todo.md", displayPath: "/home/tester/notes/todo.md", ops: "E", deleted: false, outside: true, open: false },
      // A RepoPrompt path of an unknown root cannot be resolved: kept as text, outside (never opened without asking).
      { path: "Repo:lib/x.ts", displayPath: "Repo:lib/x.ts", ops: "R", deleted: false, outside: true, open: false },
    ]);
  });

  it("labels a digest 'digest' and takes tokensAfter when the runner stored it", async () => {
    const details = { model: "digest", piSessions: { version: 1, digest: true, filesTouched: [], tokensAfter: 321 } };
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 9, details);
    const { state } = await stateOf(id);
    expect(state.model).toBe("digest");
    expect(state.tokensAfter).toBe(321);
    expect(state.files).toEqual([]);
  });

  it("labels a hook's entry without a model 'hook'", async () => {
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 9, { custom: true }, true);
    expect((await stateOf(id)).state.model).toBe("hook");
  });

  it("what the runner reports (preview / result) wins over what the entry records", async () => {
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 9, { model: "a/b" });
    const { state } = await stateOf(id, env(), { mode: "view", readOnly: false, extras: { model: "c/d", tokensBefore: 10, tokensAfter: 5 } });
    expect([state.model, state.tokensBefore, state.tokensAfter]).toEqual(["c/d", 10, 5]);
  });
});

describe("the entry our runner writes (digest, no model server)", () => {
  let agentDir: string;
  beforeEach(() => {
    agentDir = mkdtempSync(join(tmpdir(), "pi-sessions-agent-"));
  });
  afterEach(() => rmSync(agentDir, { recursive: true, force: true }));

  it("shows the manifest the runner recorded, with today's marks", async () => {
    const result = await runCompaction({
      session: openSessionSync(fx.path()),
      agentDir,
      summarizer: { digest: true },
      settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 1 },
    });
    expect(result.written).toBe(true);
    const { state, filesSource } = await stateOf(result.entry!.id);
    expect(filesSource).toBe("recorded");
    expect(state.model).toBe("digest");
    expect(state.tokensBefore).toBe(result.tokensBefore);
    expect(state.summary).toBe(result.entry!.summary);
    expect(state.files.map((f) => [f.displayPath, f.ops, f.deleted, f.outside])).toEqual([
      [join(fx.outside, "notes.txt"), "R", false, true],
      ["old.txt", "D", true, false],
      ["src/app.ts", "WE", false, false],
      ["README.md", "R", false, false],
    ]);
  });
});

describe("a branch summary pi wrote", () => {
  it("lists pi's own file lists (modified as E) and points at fromId", async () => {
    const id = fx.writer.branchWithSummary(fx.ids.a1!, "## Abandoned\nTried X.", { readFiles: ["README.md"], modifiedFiles: ["src/app.ts", "gone.ts"] });
    const { state, filesSource } = await stateOf(id);
    expect(filesSource).toBe("pi-lists");
    expect(state).toMatchObject({ kind: "branch_summary", entryId: id, fromId: fx.ids.a1, model: MODEL_NOT_RECORDED });
    expect(state.tokensBefore).toBeUndefined();
    expect(state.firstKeptEntryId).toBeUndefined();
    expect(state.files.map((f) => [f.displayPath, f.ops, f.deleted])).toEqual([
      ["src/app.ts", "E", false],
      ["gone.ts", "E", false],
      ["README.md", "R", false],
    ]);
  });

  it("a branch summary from the root has fromId 'root' and no files without lists", async () => {
    const id = fx.writer.branchWithSummary(null, "From the start.");
    const { state, filesSource } = await stateOf(id);
    expect(state.fromId).toBe("root");
    expect(filesSource).toBe("none");
    expect(state.files).toEqual([]);
  });
});

describe("modes, odd entries and limits", () => {
  it("a preview has no entry id (not in the file yet) and can be read-only", async () => {
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 1);
    const { state } = await stateOf(id, env(), { mode: "preview", readOnly: true });
    expect(state.mode).toBe("preview");
    expect(state.readOnly).toBe(true);
    expect(state.entryId).toBeUndefined();
  });

  it("the session name comes from pi's session_info", async () => {
    fx.writer.appendSessionInfo("  Set-up work ");
    const id = fx.writer.appendCompaction("s", fx.ids.u2!, 1);
    expect((await stateOf(id)).state.sessionName).toBe("Set-up work");
  });

  it("is undefined for anything but a compaction or branch summary", async () => {
    const session = openSessionSync(fx.path());
    expect(await buildPanelState(session, session.entry(fx.ids.u1!), env(), VIEW)).toBeUndefined();
    expect(await buildPanelState(session, undefined, env(), VIEW)).toBeUndefined();
    expect(await buildPanelState(session, { type: "compaction" }, env(), VIEW)).toBeDefined();
  });

  it("stays a valid state for a hostile entry: bad timestamp, huge summary, wrong field types", async () => {
    const session = openSessionSync(fx.path());
    const entry = {
      type: "compaction",
      id: "x".repeat(LIMITS.idChars + 1),
      parentId: 42,
      timestamp: "yesterday",
      summary: "a".repeat(LIMITS.summaryChars + 10),
      firstKeptEntryId: { id: "u2" },
      tokensBefore: -5,
      details: { model: "m".repeat(LIMITS.modelChars + 5), piSessions: { filesTouched: [{ path: "/a", ops: "QWERTY" }, { path: 7 }, "x"] } },
    };
    const built = await buildPanelState(session, entry, env(), VIEW);
    const state = built!.state;
    expect(isSummaryPanelState(state)).toBe(true);
    expect(state.timestamp).toBe(session.header!.timestamp);
    expect(state.summary.length).toBeLessThanOrEqual(LIMITS.summaryChars);
    expect(state.summary).toContain("cut: the summary has");
    expect(state.entryId).toBeUndefined();
    expect(state.tokensBefore).toBeUndefined();
    expect(state.firstKeptEntryId).toBeUndefined();
    expect(state.model.length).toBe(LIMITS.modelChars);
    // Only the letters of RWEMD survive (QWERTY → RWE), in manifest order.
    expect(state.files).toEqual([{ path: "/a", displayPath: "/a", ops: "RWE", deleted: false, outside: true, open: false }]);
  });
});

describe("which pi the panel's session is read as", () => {
  it("a pi 1.5.2 session's compaction: piVersion 1.5 (its markers), unless the setting says otherwise; the protocol accepts both", async () => {
    const file = join(__dirname, "../../fixtures/pi-1.5/04-compaction-1.5.jsonl");
    const session = openSessionSync(file);
    const compaction = session.entries().find((e) => e.type === "compaction")!;
    const auto = await buildPanelState(session, compaction, env(), VIEW);
    expect(auto!.state.piVersion).toBe("1.5");
    const forced = await buildPanelState(session, compaction, env({ piVersion: "0.73" }), VIEW);
    expect(forced!.state.piVersion).toBe("0.73");
    expect(isSummaryPanelState(auto!.state) && isSummaryPanelState(forced!.state)).toBe(true);
    expect(isSummaryPanelState({ ...auto!.state, piVersion: "2.0" })).toBe(false);
  });
});

describe("a compaction our pi extension wrote inside pi", () => {
  it("is marked as written in pi by the extension, with pi's reason; the model comes from details", async () => {
    const details = { readFiles: [], modifiedFiles: [], model: "loopback-openai/small-output", thinkingLevel: null, piSessions: { version: 1, digest: false, filesTouched: [], writer: "pi-extension", reason: "threshold" } };
    const id = fx.writer.appendCompaction("## Goal\nSet up.", fx.ids.u2!, 12_345, details, true);
    const { state } = await stateOf(id);
    expect(state.origin).toBe("in pi, by the pi-sessions extension (auto-compaction at the threshold)");
    expect(state.model).toBe("loopback-openai/small-output");
  });

  it("pi 0.73 gives no reason: the mark says only who wrote it; other entries carry no mark", async () => {
    const ours = fx.writer.appendCompaction("## Goal\nSet up.", fx.ids.u2!, 12_345, { model: "m/x", piSessions: { version: 1, writer: "pi-extension" } }, true);
    expect((await stateOf(ours)).state.origin).toBe("in pi, by the pi-sessions extension");
    const pis = fx.writer.appendCompaction("## Goal\nSet up.", fx.ids.u2!, 12_345);
    expect((await stateOf(pis)).state.origin).toBeUndefined();
  });
});
