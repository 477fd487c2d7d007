// runBranchSummary (pi's /tree with a summary) over loopback HTTP, checked
// against pi 0.73.1: its branch collection and preparation give the prompt,
// its SessionManager reads the result back.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_PROMPT } from "../../../src/core/branch/index.js";
import { SummaryHooks } from "../../../src/core/hooks/summary-hooks.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { NAVIGATE_CUSTOM_TYPE, runBranchSummary, type RunBranchSummaryOptions } from "../../../src/core/write/index.js";
import { loadPiOracle, type PiOracle } from "../../support/pi-oracle.js";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { branchedSession, MODEL_ID, piContextAt, piOpen, PROVIDER, removeDir, sha, tempDir } from "./support/sessions.js";

let server: ModelServer;
let agent: LoopbackAgentDir;
let pi: PiOracle;
const dir = tempDir();
const ANSWER = "## Goal\nTried an archive file.";

beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success(ANSWER) });
  agent = await writeLoopbackAgentDir(server);
  pi = await loadPiOracle();
});
afterAll(async () => {
  await server.close();
  await agent.cleanup();
  removeDir(dir);
});

function options(path: string, targetId: string, extra: Partial<RunBranchSummaryOptions> = {}): RunBranchSummaryOptions {
  return { session: openSessionSync(path), targetId, agentDir: agent.agentDir, summarizer: { model: `${PROVIDER}/${MODEL_ID}` }, maxRetries: 0, ...extra };
}

describe("leaving a branch for another entry", () => {
  it("summarises the abandoned entries in pi's one call and appends branch_summary under the target", async () => {
    const { path, ids } = branchedSession(dir);
    const sm = SessionManager.open(piOpen(path, dir).copy);
    const piBranch = pi.collectEntriesForBranchSummary(sm as never, ids.s4!, ids.a2b!);
    const piPrepared = pi.prepareBranchEntries(piBranch.entries, 128000 - 16384);
    const start = server.requests.length;
    const result = await runBranchSummary(options(path, ids.a2b!));
    const requests = server.requests.slice(start);
    expect(requests).toHaveLength(1);
    const body = requests[0]!.body as Record<string, unknown>;
    expect(body.max_completion_tokens ?? body.max_tokens).toBe(2048);
    expect(body.reasoning_effort).toBeUndefined();
    const expectedText = `<conversation>\n${pi.serializeConversation(pi.convertToLlm(piPrepared.messages))}\n</conversation>\n\n${BRANCH_SUMMARY_PROMPT}`;
    expect(requests[0]!.promptText).toContain(`${expectedText}\n\n<files-touched>`);
    expect(requests[0]!.promptText).toMatch(/<files-touched>[\s\S]*M  src\/archive\.ts[\s\S]*D  src\/store\.ts[\s\S]*<\/files-touched>/);

    expect(result.commonAncestorId).toBe(piBranch.commonAncestorId);
    expect(result.commonAncestorId).toBe(ids.a1);
    expect(result.newLeafId).toBe(ids.a2b);
    const entry = result.entry!;
    expect(entry).toMatchObject({ type: "branch_summary", parentId: ids.a2b, fromId: ids.a2b, fromHook: false });
    expect(entry.summary.startsWith(`${BRANCH_SUMMARY_PREAMBLE}${ANSWER}`)).toBe(true);
    expect(entry.summary).toContain("\n\n---\n\n## Files touched (cumulative)\n");

    const view = piOpen(path, dir);
    expect(view.leafId).toBe(entry.id);
    const atTarget = piContextAt(path, dir, ids.a2b!).messages;
    expect(view.context.messages.slice(0, -1)).toEqual(atTarget);
    expect(view.context.messages.at(-1)).toMatchObject({ role: "branchSummary", summary: entry.summary, fromId: ids.a2b });
  });

  it("a user-message target: the new leaf is its parent and its text comes back for the editor", async () => {
    const { path, ids } = branchedSession(dir);
    const result = await runBranchSummary(options(path, ids.u2!));
    expect(result.newLeafId).toBe(ids.a1);
    expect(result.editorText).toBe("Do it.");
    expect(result.entry).toMatchObject({ parentId: ids.a1, fromId: ids.a1 });
  });

  it("the root user message: a new root entry with fromId \"root\"; pi's context is the summary alone", async () => {
    const { path, ids } = branchedSession(dir);
    const result = await runBranchSummary(options(path, ids.u1!));
    expect(result.newLeafId).toBeNull();
    expect(result.entry).toMatchObject({ parentId: null, fromId: "root" });
    const view = piOpen(path, dir);
    expect(view.context.messages).toHaveLength(1);
    expect(view.context.messages[0]).toMatchObject({ role: "branchSummary", fromId: "root" });
  });

  it("nothing abandoned (the target is below the leaf): the leaf only moves, as pi does", async () => {
    const { path, ids } = branchedSession(dir);
    const start = server.requests.length;
    const result = await runBranchSummary(options(path, ids.a2b!, { leafId: ids.a1 }));
    expect(server.requests.length).toBe(start);
    expect(result.entry).toBeNull();
    expect(result.navigateEntry).toMatchObject({ type: "custom", customType: NAVIGATE_CUSTOM_TYPE, parentId: ids.a2b });
    expect(piOpen(path, dir).context).toEqual(piContextAt(path, dir, ids.a2b!));
  });

  it("already at the target: nothing to do", async () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    const result = await runBranchSummary(options(path, ids.s4!));
    expect(result.outcome).toBe("unchanged");
    expect(sha(path)).toBe(hash);
  });

  it("--digest: pi's preamble, the digest, the manifest; no model call", async () => {
    const { path, ids } = branchedSession(dir);
    const start = server.requests.length;
    const result = await runBranchSummary(options(path, ids.a2b!, { summarizer: { digest: true } }));
    expect(server.requests.length).toBe(start);
    expect(result.entry!.summary.startsWith(`${BRANCH_SUMMARY_PREAMBLE}> Digest (no model)`)).toBe(true);
    expect(result.entry!.summary).toContain("## Goal\nActually, try an archive file instead.");
    expect(result.entry!.summary).toContain("- [x] 1 shell command run");
    expect(result.entry!.summary).toContain("- [x] Files changed: src/archive.ts (M), src/store.ts (D)");
  });

  it("replaceInstructions: the instructions replace pi's prompt", async () => {
    const { path, ids } = branchedSession(dir);
    const start = server.requests.length;
    await runBranchSummary(options(path, ids.a2b!, { instructions: "ONLY LIST FILES", replaceInstructions: true, dryRun: true }));
    const prompt = server.requests[start]!.promptText;
    expect(prompt).toContain("</conversation>\n\nONLY LIST FILES\n\n<files-touched>");
    expect(prompt).not.toContain(BRANCH_SUMMARY_PROMPT);
  });
});

describe("before_branch_summary / after_branch_summary hooks", () => {
  it("cancel: nothing written", async () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    const hooks = new SummaryHooks();
    hooks.on("before_branch_summary", () => ({ cancel: true }));
    expect((await runBranchSummary(options(path, ids.a2b!, { hooks }))).outcome).toBe("cancelled");
    expect(sha(path)).toBe(hash);
  });

  it("a supplied summary is written with fromHook true; a label goes on the summary entry", async () => {
    const { path, ids } = branchedSession(dir);
    const hooks = new SummaryHooks();
    hooks.on("before_branch_summary", (event) => {
      expect(event.preparation.entriesToSummarize.map((e) => e.id)).toEqual([ids.s1, ids.s2, ids.s3, ids.s4]);
      expect(event.preparation).toMatchObject({ targetId: ids.a2b, oldLeafId: ids.s4, commonAncestorId: ids.a1, userWantsSummary: true });
      return { summary: { summary: "HOOK SUMMARY", details: { k: 1 } }, label: "explored" };
    });
    let after: unknown;
    hooks.on("after_branch_summary", (event) => {
      after = event;
    });
    const start = server.requests.length;
    const result = await runBranchSummary(options(path, ids.a2b!, { hooks }));
    expect(server.requests.length).toBe(start);
    expect(result.entry).toMatchObject({ summary: "HOOK SUMMARY", details: { k: 1 }, fromHook: true });
    expect(result.labelEntry).toMatchObject({ type: "label", targetId: result.entry!.id, label: "explored", parentId: result.entry!.id });
    expect(after).toEqual({ entry: result.entry, newLeafId: ids.a2b, oldLeafId: ids.s4, fromHook: true });
    const sm = SessionManager.open(piOpen(path, dir).copy);
    expect(sm.getLabel(result.entry!.id)).toBe("explored");
  });

  it("instruction overrides from a hook reach the prompt", async () => {
    const { path, ids } = branchedSession(dir);
    const hooks = new SummaryHooks();
    hooks.on("before_branch_summary", () => ({ customInstructions: "HOOK FOCUS" }));
    const start = server.requests.length;
    await runBranchSummary(options(path, ids.a2b!, { hooks, dryRun: true }));
    expect(server.requests[start]!.promptText).toContain(`${BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: HOOK FOCUS`);
  });
});
