// Writing for a pi 1.5 user, proven with pi 1.5.2 itself: our compaction,
// branch-summary and navigation entries on sessions pi 1.5.2 wrote are
// re-opened by its SessionManager (every old entry kept, the context starts
// with the system checkpoint then the summary) and equal, field by field,
// what its own appendCompaction / branchWithSummary write for the same leaf
// (except id, timestamp and the summary text pi would get from its own model
// call). The model calls go through pi-ai 0.73.1 over real HTTP to the
// loopback server: 1.5's system prompt, no maxTokens from the reserve, the
// prefix call after the history call, a `length` stop fails with the file
// byte-identical. The files still load in pi 0.73.1.

import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSessionContext, SessionManager } from "@mariozechner/pi-coding-agent";
import { SUMMARIZATION_SYSTEM_PROMPT, SUMMARIZATION_SYSTEM_PROMPT_1_5 } from "../../../src/core/compaction/prompts.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { SummaryHooks } from "../../../src/core/hooks/summary-hooks.js";
import { isModelCallError } from "../../../src/core/summarize/model-call-error.js";
import { runBranchSummary, runCompaction, runNavigate } from "../../../src/core/write/index.js";
import { LOOPBACK_MODELS, LOOPBACK_OPENAI, TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer, type RecordedRequest } from "../../support/model-server.js";
import { asJson, describePi15, type Pi15LoadBack } from "../../support/pi15/oracle.js";
import { sha } from "../write/support/sessions.js";

const FIXTURES = new URL("../../fixtures/pi-1.5/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "pi15-write-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const KEEP_2000 = { enabled: true, reserveTokens: 16384, keepRecentTokens: 2000 };
const MODEL = `${LOOPBACK_OPENAI}/summarizer`;
const MODEL_MAX_TOKENS = LOOPBACK_MODELS.find((m) => m.id === "summarizer")!.maxTokens!;

type Entry = Record<string, unknown> & { id: string; type: string };
type Body = { messages: { role: string; content: unknown }[]; max_tokens?: number; max_completion_tokens?: number };

let copies = 0;
function copyFixture(name: string): string {
  const target = join(work, `${copies++}-${name}`);
  copyFileSync(join(FIXTURES, name), target);
  return target;
}

const bodyOf = (r: RecordedRequest): Body => r.body as Body;
const maxTokensOf = (r: RecordedRequest): number | undefined => bodyOf(r).max_completion_tokens ?? bodyOf(r).max_tokens;
const systemTextOf = (r: RecordedRequest): string => {
  const first = bodyOf(r).messages[0]!;
  return typeof first.content === "string" ? first.content : JSON.stringify(first.content);
};
const userTextOf = (r: RecordedRequest): string => {
  const user = bodyOf(r).messages.find((m) => m.role === "user")!;
  return typeof user.content === "string" ? user.content : (user.content as { text: string }[]).map((c) => c.text).join("");
};

/** Our entry and pi's for the same leaf, without what differs by nature (new id, the time). */
function comparable(entry: Entry): Entry {
  const { id: _id, timestamp: _t, ...rest } = asJson(entry);
  const system = rest.systemMessage as Record<string, unknown> | undefined;
  if (system) rest.systemMessage = { ...system, timestamp: "(entry time)" };
  return rest as Entry;
}

/** pi 0.73.1 opens the file and builds the context without throwing. */
function loadsIn073(file: string): number {
  const copy = join(work, `073-${copies++}.jsonl`);
  copyFileSync(file, copy);
  const sm = SessionManager.open(copy);
  buildSessionContext(sm.getEntries(), sm.getLeafId());
  return sm.getEntries().length;
}

describePi15("our entries for a pi 1.5 user, as pi 1.5.2 reads and writes them", (oracle) => {
  let server: ModelServer;
  let agent: LoopbackAgentDir;
  beforeAll(async () => {
    server = await startModelServer({ expectedKey: TEST_KEY });
    agent = await writeLoopbackAgentDir(server);
  });
  afterAll(async () => {
    await agent.cleanup();
    await server.close();
  });

  describe.each(["01-system-messages.jsonl", "04-compaction-1.5.jsonl", "10-split-turn-nested.jsonl", "13-cut-at-custom-message.jsonl", "14-overflow-recovery.jsonl"])(
    "compaction of %s (keepRecentTokens 2000)",
    (name) => {
      it("pi 1.5.2 keeps every entry, rebuilds [system checkpoint, summary, …], and would write the same entry", async () => {
        const file = copyFixture(name);
        const before: Pi15LoadBack = await oracle().loadBack(file);
        const leaf = before.leafId!;
        const piPrep = (await oracle().answers({ file, leaves: [leaf], settings: [KEEP_2000], cutKeeps: [], branchPairs: [], branchBudgets: [] })).leaves[0]!.preparations[0]!.preparation!;
        const calls: { index: number; earlierFinished: boolean }[] = [];
        server.respond = (r) => {
          calls.push({ index: r.index, earlierFinished: server.requests.slice(0, r.index).every((q) => q.finished) });
          return scenarios.success(`summary for request ${r.index}`);
        };
        const first = server.requests.length;

        const result = await runCompaction({ session: openSessionSync(file), piVersion: "1.5", agentDir: agent.agentDir, settings: KEEP_2000, summarizer: { model: MODEL }, maxRetries: 0, timeoutMs: 20_000 });
        expect(result.piVersion).toBe("1.5");
        const ours = result.entry as unknown as Entry;
        expect(ours).toMatchObject({ firstKeptEntryId: piPrep.firstKeptEntryId, tokensBefore: piPrep.tokensBefore });

        // The calls: 1.5's prompts, the model's limit (0.73 sent 0.8 × reserve), history then prefix.
        const requests = server.requests.slice(first);
        const expectedCalls = (piPrep.messagesToSummarize.length > 0 ? 1 : 0) + (piPrep.isSplitTurn && piPrep.turnPrefixMessages.length > 0 ? 1 : 0);
        expect(requests).toHaveLength(expectedCalls);
        for (const r of requests) {
          expect(systemTextOf(r)).toBe(SUMMARIZATION_SYSTEM_PROMPT_1_5);
          expect(systemTextOf(r)).not.toBe(SUMMARIZATION_SYSTEM_PROMPT);
          expect(maxTokensOf(r)).toBe(MODEL_MAX_TOKENS);
          expect(maxTokensOf(r)).not.toBe(Math.floor(0.8 * KEEP_2000.reserveTokens));
        }
        if (expectedCalls === 2) {
          expect(userTextOf(requests[0]!).startsWith("<conversation>\n")).toBe(true);
          expect(userTextOf(requests[1]!).startsWith("# Conversation\n")).toBe(true);
          expect(calls.at(-1)!.earlierFinished).toBe(true);
        }
        // usage: what the model reported (combined over both calls).
        expect((ours.usage as { output: number }).output).toBeGreaterThan(0);

        // pi 1.5.2 re-opens the file: every old entry kept, ours the leaf, checkpoint first.
        const after = await oracle().loadBack(file);
        expect(after.entries.slice(0, -1)).toEqual(before.entries);
        expect(after.entries.at(-1)).toEqual(asJson(ours));
        expect(after.leafId).toBe(ours.id);
        const roles = after.context.messages.map((m) => m.role);
        if (before.currentSystemMessage) {
          expect(roles.slice(0, 2)).toEqual(["system", "compactionSummary"]);
          expect(after.context.messages[0]).toEqual(after.currentSystemMessage);
        } else {
          expect(roles[0]).toBe("compactionSummary");
        }

        // pi 1.5.2's own appendCompaction on the same leaf writes the same entry.
        const mine = ours as unknown as { summary: string; firstKeptEntryId: string; tokensBefore: number; details: unknown; usage: unknown; timestamp: string; systemMessage?: { timestamp: number } };
        const piWrote = await oracle().appendCompaction([before.header, ...before.entries], leaf, {
          summary: mine.summary,
          firstKeptEntryId: mine.firstKeptEntryId,
          tokensBefore: mine.tokensBefore,
          details: mine.details,
          fromHook: false,
          usage: mine.usage,
        });
        expect(Object.keys(asJson(ours))).toEqual(Object.keys(piWrote.entry!));
        expect(comparable(ours)).toEqual(comparable(piWrote.entry!));
        if (mine.systemMessage) expect(mine.systemMessage.timestamp).toBe(Date.parse(mine.timestamp));
        expect(loadsIn073(file)).toBe(before.entries.length + 1);
      });
    },
  );

  it("retain-none from a before_compact hook: the entry keeps nothing (firstKeptEntryId = its own id), as pi 1.5.2 writes it", async () => {
    const file = copyFixture("01-system-messages.jsonl");
    const before = await oracle().loadBack(file);
    const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const hooks = new SummaryHooks();
    hooks.on("before_compact", () => ({ compaction: { summary: "everything, summarised by a hook", firstKeptEntryId: null, tokensBefore: 4950, usage } }));
    const result = await runCompaction({ session: openSessionSync(file), piVersion: "1.5", agentDir: agent.agentDir, settings: KEEP_2000, hooks, summarizer: { digest: true } });
    const ours = result.entry as unknown as Entry & { firstKeptEntryId: string };
    expect(ours.firstKeptEntryId).toBe(ours.id);
    expect(ours).toMatchObject({ usage, fromHook: true });
    const after = await oracle().loadBack(file);
    expect(after.entries.slice(0, -1)).toEqual(before.entries);
    expect(after.context.messages.map((m) => m.role)).toEqual(["system", "compactionSummary"]);
    const piWrote = await oracle().appendCompaction([before.header, ...before.entries], before.leafId!, {
      summary: "everything, summarised by a hook",
      firstKeptEntryId: null,
      tokensBefore: 4950,
      fromHook: true,
      usage,
    });
    expect(piWrote.entry!.firstKeptEntryId).toBe(piWrote.entry!.id);
    // Both name themselves; details travel to pi as JSON null (no details given) and are not written by us.
    const strip = (e: Entry): Entry => {
      const { firstKeptEntryId: _f, details, ...rest } = comparable(e);
      return (details === null || details === undefined ? rest : { ...rest, details }) as Entry;
    };
    expect(strip(ours)).toEqual(strip(piWrote.entry!));
  });

  it("a `length` stop is a failure: exit-2 error, the file byte-identical", async () => {
    const file = copyFixture("10-split-turn-nested.jsonl");
    const hash = sha(file);
    server.respond = (r) => (r.index % 2 === 0 ? scenarios.length("cut short") : scenarios.length("cut"));
    const error = await runCompaction({ session: openSessionSync(file), piVersion: "1.5", agentDir: agent.agentDir, settings: KEEP_2000, summarizer: { model: MODEL }, maxRetries: 0 }).catch((e: unknown) => e);
    expect(isModelCallError(error) && error.kind).toBe("truncated");
    expect(sha(file)).toBe(hash);
  });

  it("the model's limit is clamped to the window the way pi-ai 1.5 clamps it", async () => {
    const tight = await writeLoopbackAgentDir(server, { models: [{ id: "tight", contextWindow: 20000, maxTokens: 30000 }] });
    try {
      const file = copyFixture("13-cut-at-custom-message.jsonl");
      server.respond = () => scenarios.success("tight summary");
      const first = server.requests.length;
      await runCompaction({ session: openSessionSync(file), piVersion: "1.5", agentDir: tight.agentDir, settings: KEEP_2000, summarizer: { model: `${LOOPBACK_OPENAI}/tight` }, maxRetries: 0 });
      const request = server.requests[first]!;
      // clampMaxTokensToContext: input at 3.5 chars/token; under 32768 of room, up to the window less 4096.
      const input = Math.ceil(systemTextOf(request).length / 3.5) + Math.ceil(userTextOf(request).length / 3.5);
      expect(maxTokensOf(request)).toBe(Math.min(30000, 20000 - input - 4096));
      expect(maxTokensOf(request)).toBeLessThan(30000);
    } finally {
      await tight.cleanup();
    }
  });

  it("branch summary (06, leaving the Y branch for the X tip): fromId = the leaf left, usage, pi 1.5.2's own branchWithSummary", async () => {
    const file = copyFixture("06-branch-summary.jsonl");
    const before = await oracle().loadBack(file);
    const oldLeaf = before.leafId!;
    const target = "a1d1f5e0";
    server.respond = () => scenarios.success("branch summary text");
    const first = server.requests.length;
    const result = await runBranchSummary({ session: openSessionSync(file), piVersion: "1.5", targetId: target, agentDir: agent.agentDir, summarizer: { model: MODEL }, maxRetries: 0 });
    const ours = result.entry as unknown as Entry & { summary: string; details: unknown; usage: unknown; parentId: string };
    expect(ours).toMatchObject({ parentId: result.newLeafId, fromId: oldLeaf });
    const request = server.requests[first]!;
    expect(systemTextOf(request)).toBe(SUMMARIZATION_SYSTEM_PROMPT_1_5);
    expect(maxTokensOf(request)).toBe(MODEL_MAX_TOKENS); // 0.73: 2048

    const after = await oracle().loadBack(file);
    expect(after.entries.slice(0, -1)).toEqual(before.entries);
    expect(after.entries.at(-1)).toEqual(asJson(ours));
    expect(after.context.messages.at(-1)).toMatchObject({ role: "branchSummary", summary: ours.summary, fromId: oldLeaf });
    expect(after.context.messages[0]!.role).toBe("system");

    const piWrote = await oracle().branchWithSummary([before.header, ...before.entries], oldLeaf, {
      branchFromId: result.newLeafId,
      summary: ours.summary,
      details: ours.details,
      fromHook: false,
      usage: ours.usage,
    });
    expect(Object.keys(asJson(ours))).toEqual(Object.keys(piWrote.entry!));
    expect(comparable(ours)).toEqual(comparable(piWrote.entry!));
    expect(loadsIn073(file)).toBe(before.entries.length + 1);
  });

  it("navigation: pi 1.5.2 resumes at the target with its context, every entry kept", async () => {
    const file = copyFixture("06-branch-summary.jsonl");
    const before = await oracle().loadBack(file);
    const target = "70915a30";
    const result = runNavigate({ session: openSessionSync(file), piVersion: "1.5", targetId: target });
    expect(result.piVersion).toBe("1.5");
    const after = await oracle().loadBack(file);
    expect(after.entries.slice(0, -1)).toEqual(before.entries);
    const atTarget = (await oracle().answers({ file, leaves: [target], settings: [], cutKeeps: [], branchPairs: [], branchBudgets: [] })).leaves[0]!;
    expect(after.context).toEqual(atTarget.context);
    expect(loadsIn073(file)).toBe(before.entries.length + 1);
  });

  it("the real pi 1.5.2 CLI resumes a session we compacted: its request starts with the system prompt", async () => {
    const { runPi15Cli } = await import("../../support/pi15/run-pi-cli.js");
    const session = join(work, "e2e-01.jsonl");
    const [header, ...rest] = readFileSync(join(FIXTURES, "01-system-messages.jsonl"), "utf8").split("\n");
    // pi 1.5 refuses a session whose recorded cwd does not exist.
    const text = [JSON.stringify({ ...(JSON.parse(header!) as object), cwd: work }), ...rest].join("\n");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(session, text);
    server.respond = () => scenarios.success("compacted summary");
    const compacted = await runCompaction({ session: openSessionSync(session), piVersion: "1.5", agentDir: agent.agentDir, settings: KEEP_2000, summarizer: { model: MODEL }, maxRetries: 0 });
    expect(compacted.entry!.systemMessage).toBeDefined();

    server.respond = () => scenarios.success("pi answers after the compaction");
    const first = server.requests.length;
    const run = await runPi15Cli(oracle().paths, {
      agentDir: agent.agentDir,
      cwd: work,
      args: ["-p", "continue please", "--session", session, "--model", MODEL, "--no-extensions", "--no-skills", "--no-context-files"],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("pi answers after the compaction");
    const request = server.requests[first]!;
    const messages = bodyOf(request).messages;
    expect(messages[0]!.role).toBe("system");
    // Then the compaction summary (as a user message), then the kept tail and the new prompt.
    expect(JSON.stringify(messages[1]!.content)).toContain("compacted summary");
    expect(JSON.stringify(messages.at(-1)!.content)).toContain("continue please");
  }, 120_000);
});

describePi15("why the checkpoint matters: pi 1.5.2 on Anthropic with mid-conversation system messages", (oracle) => {
  it("after our 1.5 compaction the request has a leading system prompt; after a 0.73-shaped one it has none (spec §7.4)", async () => {
    const { runPi15Cli } = await import("../../support/pi15/run-pi-cli.js");
    const { writeFileSync } = await import("node:fs");
    const server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success("answer") });
    const mid = `${LOOPBACK_OPENAI}-anthropic-mid`;
    const agent = await writeLoopbackAgentDir(server, {
      extraProviders: {
        [mid]: { baseUrl: server.anthropicBaseUrl, api: "anthropic-messages", apiKey: TEST_KEY, compat: { supportsMidConvoSystemMessages: true }, models: [{ id: "summarizer" }] },
      },
    });
    try {
      const [header, ...rest] = readFileSync(join(FIXTURES, "01-system-messages.jsonl"), "utf8").split("\n");
      const text = [JSON.stringify({ ...(JSON.parse(header!) as object), cwd: work }), ...rest].join("\n");
      const systemOf = async (piVersion: "0.73" | "1.5"): Promise<unknown> => {
        const session = join(work, `e2e-anthropic-${piVersion}.jsonl`);
        writeFileSync(session, text);
        await runCompaction({ session: openSessionSync(session), piVersion, agentDir: agent.agentDir, settings: KEEP_2000, summarizer: { digest: true } });
        const first = server.requests.length;
        const run = await runPi15Cli(oracle().paths, {
          agentDir: agent.agentDir,
          cwd: work,
          args: ["-p", "continue please", "--session", session, "--model", `${mid}/summarizer`, "--no-extensions", "--no-skills", "--no-context-files"],
        });
        expect(run.code, run.stderr).toBe(0);
        const request = server.requests[first]!;
        expect(request.protocol).toBe("anthropic");
        return (request.body as { system?: unknown }).system;
      };
      const with15 = await systemOf("1.5");
      expect(JSON.stringify(with15)).toContain("You are an expert coding assistant");
      const with073 = await systemOf("0.73");
      expect(with073).toBeUndefined();
    } finally {
      await agent.cleanup();
      await server.close();
    }
  }, 120_000);
});
