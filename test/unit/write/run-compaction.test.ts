// runCompaction through real pi-ai over real HTTP to the loopback model server
// (nothing mocked), checked against pi 0.73.1: its preparation decides what is
// summarised, its SessionManager reads the result back.

import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { SUMMARIZATION_PROMPT, TURN_PREFIX_SUMMARIZATION_PROMPT, UPDATE_SUMMARIZATION_PROMPT } from "../../../src/core/compaction/index.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { ModelCallError } from "../../../src/core/summarize/model-call-error.js";
import { ModelConfigError } from "../../../src/core/summarize/model-config-error.js";
import { runCompaction, type RunCompactionOptions } from "../../../src/core/write/index.js";
import { loadPiOracle, type PiOracle } from "../../support/pi-oracle.js";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer, type RecordedRequest } from "../../support/model-server.js";
import { assistant, longTurnSession, MODEL_ID, piOpen, PROVIDER, removeDir, sha, tempDir, user } from "./support/sessions.js";

let server: ModelServer;
let agent: LoopbackAgentDir;
const emptyAgentDir = tempDir("pi-sessions-empty-agent-");
let pi: PiOracle;
const dir = tempDir();

const HISTORY_ANSWER = "## Goal\nHistory summary from the loopback model.";
const PREFIX_ANSWER = "## Turn\nPrefix summary from the loopback model.";

beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY });
  agent = await writeLoopbackAgentDir(server);
  pi = await loadPiOracle();
});
afterAll(async () => {
  await server.close();
  await agent.cleanup();
  removeDir(emptyAgentDir);
  removeDir(dir);
});

/** Answers by prompt kind, so parallel calls get the right text whatever their order. */
function answerByKind(): void {
  server.respond = (r) => scenarios.success(r.promptText.includes(TURN_PREFIX_SUMMARIZATION_PROMPT) ? PREFIX_ANSWER : HISTORY_ANSWER);
}

function requestsSince(index: number): RecordedRequest[] {
  return server.requests.slice(index);
}

const settings = (keepRecentTokens: number) => ({ enabled: true, reserveTokens: 16384, keepRecentTokens });

function base(path: string, extra: Partial<RunCompactionOptions> = {}): RunCompactionOptions {
  return { session: openSessionSync(path), agentDir: agent.agentDir, summarizer: { model: `${PROVIDER}/${MODEL_ID}` }, maxRetries: 0, timeoutMs: 20_000, ...extra };
}

describe("one call (the cut is on a user message)", () => {
  it("summarises everything before the kept user message and pi reads back summary + kept messages", async () => {
    const { path, ids } = longTurnSession(dir);
    answerByKind();
    const start = server.requests.length;
    const result = await runCompaction(base(path, { leafId: ids.u3, settings: settings(1) }));
    const requests = requestsSince(start);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.auth.matchesExpectedKey).toBe(true);
    expect(requests[0]!.promptText).toContain(SUMMARIZATION_PROMPT);
    expect(requests[0]!.promptText).toContain("[User]: Add a --json flag to the list command.");
    expect(result.written).toBe(true);
    const entry = result.entry!;
    expect(entry.parentId).toBe(ids.u3);
    expect(entry.firstKeptEntryId).toBe(ids.u3);
    expect(entry.summary.startsWith(`${HISTORY_ANSWER}\n\n<modified-files>\nsrc/cli.ts\n</modified-files>`)).toBe(true);
    expect(entry.summary).toContain("\n\n---\n\n## Files touched (cumulative)\n");
    expect(result.model).toBe(`${PROVIDER}/${MODEL_ID}`);

    const view = piOpen(path, dir);
    expect(view.leafId).toBe(entry.id);
    expect(view.entries.at(-1)).toEqual(entry);
    const messages = view.context.messages as Record<string, unknown>[];
    expect(messages.map((m) => m.role)).toEqual(["compactionSummary", "user"]);
    expect(messages[0]!.summary).toBe(entry.summary);
    expect(result.tokensAfter).toBe(messages.reduce((n, m) => n + pi.estimateTokens(m), 0));
  });
});

describe("split turn", () => {
  it("makes pi's two calls in parallel (history and turn prefix), with the focus text and the files list in both", async () => {
    const { path } = longTurnSession(dir);
    const s = settings(1500);
    const piPrep = pi.prepareCompaction(SessionManager.open(piOpen(path, dir).copy).getBranch() as never, s)!;
    expect(piPrep.isSplitTurn).toBe(true);
    expect(piPrep.messagesToSummarize.length).toBeGreaterThan(0);
    answerByKind();
    const start = server.requests.length;
    const result = await runCompaction(base(path, { settings: s, instructions: "FOCUS ON THE FAILING TEST" }));
    const requests = requestsSince(start);
    expect(requests).toHaveLength(2);
    const history = requests.find((r) => r.promptText.includes(SUMMARIZATION_PROMPT))!;
    const prefix = requests.find((r) => r.promptText.includes(TURN_PREFIX_SUMMARIZATION_PROMPT))!;
    expect(history).toBeDefined();
    expect(prefix).toBeDefined();
    for (const r of [history, prefix]) {
      expect(r.promptText).toContain("Additional focus: FOCUS ON THE FAILING TEST");
      expect(r.promptText).toContain("<files-touched>");
    }
    // The prefix call sees the turn's request; the history call does not.
    expect(prefix.promptText).toContain("[User]: Now run the tests and fix what fails.");
    expect(history.promptText).not.toContain("[User]: Now run the tests and fix what fails.");
    expect(prefix.promptText).toMatch(/<files-touched>[\s\S]*out0\.log[\s\S]*<\/files-touched>/);
    // pi's maxTokens: 0.8 × and 0.5 × reserveTokens.
    const maxTokens = (r: RecordedRequest) => (r.body as Record<string, number>).max_completion_tokens ?? (r.body as Record<string, number>).max_tokens;
    expect(maxTokens(history)).toBe(Math.floor(0.8 * 16384));
    expect(maxTokens(prefix)).toBe(Math.floor(0.5 * 16384));

    const entry = result.entry!;
    expect(entry.firstKeptEntryId).toBe(piPrep.firstKeptEntryId);
    expect(entry.tokensBefore).toBe(piPrep.tokensBefore);
    expect(entry.summary.startsWith(`${HISTORY_ANSWER}\n\n---\n\n**Turn Context (split turn):**\n\n${PREFIX_ANSWER}`)).toBe(true);
    const lists = pi.computeFileLists(piPrep.fileOps);
    expect(entry.details).toMatchObject({ readFiles: lists.readFiles, modifiedFiles: lists.modifiedFiles, model: `${PROVIDER}/${MODEL_ID}` });
    const files = (entry.details as { piSessions: { filesTouched: { displayPath: string; ops: string }[] } }).piSessions.filesTouched;
    expect(files).toEqual(expect.arrayContaining([{ path: "/work/project/out0.log", displayPath: "out0.log", ops: "W" }]));
  });

  it("clamps maxTokens to the model's output limit (pi #4390)", async () => {
    const { path } = longTurnSession(dir);
    answerByKind();
    const start = server.requests.length;
    await runCompaction(base(path, { settings: settings(1500), summarizer: { model: `${PROVIDER}/small-output` } }));
    for (const r of requestsSince(start)) {
      const body = r.body as Record<string, number>;
      expect(body.max_completion_tokens ?? body.max_tokens).toBe(1000);
    }
  });
});

describe("update summary", () => {
  it("sends the previous summary (without our manifest) in <previous-summary> with pi's update prompt", async () => {
    const { path } = longTurnSession(dir, { rounds: 3 });
    answerByKind();
    const first = await runCompaction(base(path, { settings: settings(1500) }));
    // pi itself continues the session in the same file.
    const sm = SessionManager.open(path) as unknown as { appendMessage(m: unknown): string };
    sm.appendMessage(user("Also add a --all flag, please."));
    sm.appendMessage(assistant(`Added --all. ${"details ".repeat(800)}`));
    sm.appendMessage(user("Thanks; now update the README."));
    sm.appendMessage(assistant(`README updated. ${"more ".repeat(800)}`));
    // pi's next compaction carries our file lists over from details (they stay at its top level).
    const firstDetails = first.entry!.details as { readFiles: string[]; modifiedFiles: string[] };
    expect(firstDetails.modifiedFiles.length).toBeGreaterThan(0);
    const piNext = pi.prepareCompaction(SessionManager.open(piOpen(path, dir).copy).getBranch() as never, settings(1000))!;
    expect([...piNext.fileOps.edited]).toEqual(expect.arrayContaining(firstDetails.modifiedFiles));
    expect([...piNext.fileOps.read]).toEqual(expect.arrayContaining(firstDetails.readFiles));
    const start = server.requests.length;
    const second = await runCompaction(base(path, { settings: settings(1000) }));
    const history = requestsSince(start).find((r) => r.promptText.includes(UPDATE_SUMMARIZATION_PROMPT))!;
    expect(history).toBeDefined();
    const previous = first.entry!.summary.split("\n\n---\n\n## Files touched (cumulative)")[0]!;
    expect(history.promptText).toContain(`<previous-summary>\n${previous}\n</previous-summary>`);
    expect(history.promptText.split("<previous-summary>")[1]!.split("</previous-summary>")[0]).not.toContain("Files touched");
    expect(second.written).toBe(true);
    const messages = piOpen(path, dir).context.messages as Record<string, unknown>[];
    expect(messages[0]).toMatchObject({ role: "compactionSummary", summary: second.entry!.summary });
  });
});

describe("without a model", () => {
  // A built-in provider whose key is nowhere: not in the (empty) agent dir, not in the environment.
  const NO_KEY_MODEL = { provider: "anthropic", model: "claude-sonnet-4-5" };
  beforeEach(() => {
    for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN"]) vi.stubEnv(name, undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("writes the digest, loudly, when the session model has no key", async () => {
    const { path } = longTurnSession(dir, { model: NO_KEY_MODEL });
    const start = server.requests.length;
    const result = await runCompaction({ session: openSessionSync(path), agentDir: emptyAgentDir, settings: settings(1500) });
    expect(requestsSince(start)).toHaveLength(0);
    expect(result).toMatchObject({ written: true, model: "digest", digest: true });
    expect(result.warnings.join("\n")).toMatch(/WARNING: no model available .*digest/);
    expect(result.entry!.summary.startsWith("> Digest (no model)")).toBe(true);
    expect((result.entry!.details as { piSessions: { digest: boolean } }).piSessions.digest).toBe(true);
  });

  it("does not fall back when a model was asked for explicitly", async () => {
    const { path } = longTurnSession(dir, { model: NO_KEY_MODEL });
    const hash = sha(path);
    const error = await runCompaction({ session: openSessionSync(path), agentDir: emptyAgentDir, settings: settings(1500), summarizer: { model: "anthropic/claude-sonnet-4-5" } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as ModelConfigError).code).toBe("missing-key");
    expect(sha(path)).toBe(hash);
  });

  it("--digest gives the same summary for the same branch, and another for another leaf", async () => {
    const { path, ids } = longTurnSession(dir);
    const run = (leafId?: string) => runCompaction({ session: openSessionSync(path), agentDir: agent.agentDir, settings: settings(1500), summarizer: { digest: true }, dryRun: true, ...(leafId ? { leafId } : {}) });
    const a = await run();
    const b = await run();
    const c = await run(ids.a3_5);
    expect(a.entry!.summary).toBe(b.entry!.summary);
    expect(c.entry!.summary).not.toBe(a.entry!.summary);
  });
});

describe("nothing is written when", () => {
  it("there is nothing to compact (the leaf is a compaction)", async () => {
    const { path } = longTurnSession(dir, { rounds: 2 });
    await runCompaction(base(path, { settings: settings(500), summarizer: { digest: true } }));
    const hash = sha(path);
    await expect(runCompaction(base(path, { settings: settings(500) }))).rejects.toThrow(/nothing to compact: .*already a compaction/);
    expect(sha(path)).toBe(hash);
  });

  it("the call is aborted mid-stream", async () => {
    const { path } = longTurnSession(dir);
    const hash = sha(path);
    server.respond = () => scenarios.slow("slow words ".repeat(20), 20, 50);
    const controller = new AbortController();
    const start = server.requests.length;
    const running = runCompaction(base(path, { settings: settings(1500), signal: controller.signal }));
    const request = await server.waitForRequest(start);
    await request.waitForChunks(1);
    controller.abort();
    const error = await running.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).kind).toBe("aborted");
    expect(sha(path)).toBe(hash);
  });

  it("dry run: the entry is worked out (model call made) but not written", async () => {
    const { path } = longTurnSession(dir);
    const hash = sha(path);
    answerByKind();
    const result = await runCompaction(base(path, { settings: settings(1500), dryRun: true }));
    expect(result).toMatchObject({ outcome: "dry-run", written: false });
    expect(result.entry!.summary).toContain(HISTORY_ANSWER);
    expect(sha(path)).toBe(hash);
    expect(readFileSync(path, "utf8")).not.toContain(result.entry!.id);
  });
});

describe("what the session keeps after the run", () => {
  it("no meta per entry of the branch: the run reads bodies by position, and the index stays as it was opened", async () => {
    const { path } = longTurnSession(dir, { rounds: 40 });
    answerByKind();
    const session = openSessionSync(path);
    const before = session.index.metasMade;
    const result = await runCompaction({ ...base(path, { settings: settings(1500) }), session });
    expect(result.written).toBe(true);
    expect(session.pathTo(result.leafId).length).toBeGreaterThan(80);
    // The leaf and the parent of the new entry are looked up by id; nothing else is kept.
    expect(session.index.metasMade - before).toBeLessThanOrEqual(2);
  });
});
