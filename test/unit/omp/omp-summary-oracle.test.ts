// omp 18.3.4's own summary functions (agent-core compact() on its
// prepareCompaction, generateBranchSummary), run in the oracle worker with a
// capturing completeImpl, against our CLI on the same file and the loopback
// model answering the same way: equal requests and entries over sessions omp
// wrote at random and for summary models of every transcript dialect omp picks
// (Claude's, OpenAI's harmony, Qwen, GLM, Kimi, DeepSeek, MiniMax, Gemini,
// Gemma); and for every model pi-ai knows, the transcript omp would send is
// ours (the same dialect chosen, rendered the same).

import { getModels, getProviders } from "@mariozechner/pi-ai";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { semanticsFor } from "../../../src/core/agent/index.js";
import { OMP_DIALECTS, preferredDialect } from "../../../src/core/agent/omp-18/model-dialect.js";
import { OMP_18 } from "../../../src/core/session/format/agent-version.js";
import { openSession } from "../../../src/core/session/open/open-session.js";
import { writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer, type RecordedRequest } from "../../support/model-server.js";
import { OMP_FIXTURE_BLOBS, OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { describeOmp, fastTempDir } from "../../support/omp/oracle.js";
import { replyTo, type CapturedRequest, type OmpSummaryModel } from "../../support/omp/summary-requests.js";
import { cli } from "../cli/run-cli.js";

const KEY = "sk-omp-loopback-0123456789";
const PROVIDER = "loopback";
const MODELS: OmpSummaryModel[] = [
  { id: "loopback-coder", contextWindow: 128000, maxTokens: 32000, reasoning: false },
  { id: "claude-sonnet-4-5", contextWindow: 200000, maxTokens: 64000, reasoning: false },
  { id: "gpt-5", contextWindow: 400000, maxTokens: 128000, reasoning: false },
];
/** One summary model per other dialect omp picks. */
const OTHER_DIALECTS: OmpSummaryModel[] = ["qwen3-coder-plus", "glm-4.6", "kimi-k2-0905-preview", "deepseek-chat", "MiniMax-M2", "gemini-2.5-pro", "gemma-3-27b-it"].map((id) => ({
  id,
  contextWindow: 128000,
  maxTokens: 32000,
  reasoning: false,
}));

type Json = Record<string, any>;

const textOf = (content: unknown): string => (typeof content === "string" ? content : (content as Json[]).map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join(""));

/** One request as omp's provider layer gets it / as our pi-ai sent it: system prompt, messages, output budget, reasoning. */
const fromOmp = (r: CapturedRequest): Json => ({ system: r.systemPrompt.join("\n\n"), messages: r.messages, maxTokens: r.maxTokens ?? null, reasoning: r.reasoning });
function fromWire(r: RecordedRequest): Json {
  const body = r.body as Json;
  const [system, ...messages] = body.messages as Json[];
  return { system: textOf(system!.content), messages: messages.map((m) => ({ role: m.role, text: textOf(m.content) })), maxTokens: body.max_completion_tokens ?? body.max_tokens ?? null, reasoning: body.reasoning_effort ?? null };
}
const sorted = (list: Json[]): Json[] => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const without = (entry: Json, ...keys: string[]): Json => Object.fromEntries(Object.entries(entry).filter(([k]) => !keys.includes(k)));

describeOmp(
  "omp 18.3.4's own compact() and generateBranchSummary against our writer",
  (oracle) => {
    let server: ModelServer;
    let agent: LoopbackAgentDir;
    let dir: string;
    let compared = 0;

    beforeAll(async () => {
      server = await startModelServer({
        expectedKey: KEY,
        respond: (r) => {
          const messages = (r.body as Json).messages as Json[];
          return scenarios.success(replyTo(textOf(messages[messages.length - 1]!.content)));
        },
      });
      agent = await writeLoopbackAgentDir(server, {
        key: KEY,
        models: [],
        extraProviders: {
          [PROVIDER]: {
            baseUrl: server.openaiBaseUrl,
            api: "openai-completions",
            apiKey: "PI_SESSIONS_LOOPBACK_UNSET_KEY_VAR",
            models: [...MODELS, ...OTHER_DIALECTS].map((m) => ({ ...m, name: m.id, input: ["text"] })),
          },
        },
        authJson: { [PROVIDER]: { type: "api_key", key: KEY } },
        files: { "config.yml": "compaction:\n  keepRecentTokens: 2000\n" },
      });
      dir = fastTempDir("omp-summary-oracle-");
    });
    afterAll(async () => {
      await server?.close();
      await agent?.cleanup();
      if (dir) rmSync(dir, { recursive: true, force: true });
      console.log(`omp summary oracle: ${compared} requests compared with omp's own compact() / generateBranchSummary`);
    });

    async function ours(args: string[]): Promise<{ out: Json; requests: RecordedRequest[] }> {
      const start = server.requests.length;
      const run = await cli([...args, "--agent", "omp", "--agent-dir", agent.agentDir, "--max-retries", "0", "--json"]);
      return { out: run.code === 0 ? run.json<Json>() : { code: run.code, stderr: run.stderr }, requests: server.requests.slice(start) };
    }

    /** Compacts `file` both ways; returns omp's result and ours. */
    async function compactBoth(file: string, model: OmpSummaryModel) {
      const theirs = (await oracle().summaryRequests({ file, model, settings: { keepRecentTokens: 2000 } })) as { requests: CapturedRequest[]; result: Json | null };
      const copy = join(dir, `${compared}-${Math.random().toString(36).slice(2)}.jsonl`);
      copyFileSync(file, copy);
      const us = await ours(["compact", copy, "--model", `${PROVIDER}/${model.id}`]);
      return { theirs, us };
    }

    it("sessions omp wrote at random (every entry type, snapcompact archives, branches, pi files resumed): same requests, same entry", async () => {
      let compactable = 0;
      let exact = 0;
      let remote = 0;
      for (let seed = 1; seed <= 18; seed++) {
        const generated = await oracle().generate({ seed: 7000 + seed, dir: join(dir, `seed-${seed}`) });
        const { theirs, us } = await compactBoth(generated.path, MODELS[0]!);
        // After an OpenAI remote compaction omp may pick another range (it skips what its model cannot replay):
        // then ours is never claimed as omp's — nothing to compact, or an entry marked fromExtension.
        const session = await openSession(generated.path);
        const previous = session.pathTo(session.index.leafId!).filter((e) => e.type === "compaction").at(-1) as Json | undefined;
        if (previous?.method === "remote" && (us.out.code !== undefined || us.out.entry.fromExtension === true)) {
          remote++;
          continue;
        }
        if (theirs.result === null) {
          expect(us.out.code, `seed ${seed}: omp has nothing to compact`).toBe(1);
          continue;
        }
        compactable++;
        expect(us.out.code, `seed ${seed}: ${us.out.stderr}`).toBeUndefined();
        expect(sorted(us.requests.map(fromWire)), `seed ${seed}`).toEqual(sorted(theirs.requests.map(fromOmp)));
        compared += theirs.requests.length;
        const entry = us.out.entry as Json;
        const { details, ...rest } = without(theirs.result, "preserveData");
        expect(without(entry, "type", "id", "parentId", "timestamp", "tokensAfter", "method", "fromExtension", "details"), `seed ${seed}`).toEqual(rest);
        expect(entry.details, `seed ${seed}`).toMatchObject(details as Json);
        // Exact unless the conversation is over twice the input budget in bytes (then omp's native tokenizer decides the windows).
        if (entry.fromExtension === false) {
          exact++;
          expect(entry).toMatchObject({ method: "soft", details });
          expect(Object.keys(entry.details)).toEqual(["readFiles", "modifiedFiles"]);
        } else expect(entry.method).toBeUndefined();
      }
      expect(compactable).toBeGreaterThanOrEqual(8);
      expect(exact).toBeGreaterThanOrEqual(compactable / 2);
    });

    it("Claude and OpenAI summary models: omp's anthropic transcript (thinking left out, <function_calls>, <function_results>) and harmony (channels, its tokens escaped)", async () => {
      for (const [model, marker] of [
        [MODELS[1]!, "<function_results>"],
        [MODELS[2]!, "to=assistant<\\|channel\\|>commentary<\\|message\\|>"],
      ] as const) {
        for (const name of ["omp-simple.jsonl", "omp-soft-compaction-branch-summary.jsonl", "pi073-digest-compaction-resumed-by-omp.jsonl"]) {
          const { theirs, us } = await compactBoth(join(OMP_FIXTURES_DIR, name), model);
          expect(sorted(us.requests.map(fromWire)), `${model.id} ${name}`).toEqual(sorted(theirs.requests.map(fromOmp)));
          compared += theirs.requests.length;
          expect(us.out.entry).toMatchObject({ method: "soft", fromExtension: false, summary: theirs.result!.summary, shortSummary: theirs.result!.shortSummary });
          if (name.startsWith("pi073")) expect(theirs.requests.some((r) => r.messages[0]!.text.includes(marker)), model.id).toBe(true);
        }
      }
    });

    it("summary models of every other dialect omp picks (Qwen, GLM, Kimi, DeepSeek, MiniMax, Gemini, Gemma): same requests, omp's own entry", async () => {
      for (const model of OTHER_DIALECTS) {
        expect(preferredDialect(model.id), model.id).not.toBe("xml");
        const { theirs, us } = await compactBoth(join(OMP_FIXTURES_DIR, "pi073-digest-compaction-resumed-by-omp.jsonl"), model);
        expect(sorted(us.requests.map(fromWire)), model.id).toEqual(sorted(theirs.requests.map(fromOmp)));
        compared += theirs.requests.length;
        expect(us.out.entry).toMatchObject({ method: "soft", fromExtension: false, summary: theirs.result!.summary, shortSummary: theirs.result!.shortSummary });
      }
    });

    it("not omp's own, so marked fromExtension (omp keeps its file lists out of its next compaction): a pi-sessions prompt file, the digest", async () => {
      const file = join(OMP_FIXTURES_DIR, "omp-soft-compaction-branch-summary.jsonl");
      writeFileSync(join(agent.agentDir, "prompt.md"), "Summarise in three bullet points.");
      writeFileSync(join(agent.agentDir, "pi-sessions.json"), JSON.stringify({ compactionPromptFile: "prompt.md" }));
      try {
        const { theirs, us } = await compactBoth(file, MODELS[0]!);
        const history = us.requests.map(fromWire).find((r) => r.maxTokens === theirs.requests.map(fromOmp).find((o) => o.messages[0].text.includes("<previous-summary>"))!.maxTokens)!;
        expect(history.messages[0].text.endsWith("Summarise in three bullet points.")).toBe(true);
        expect(us.out.entry).toMatchObject({ fromExtension: true, details: { piSessions: { digest: false } } });
        expect(us.out.entry.method).toBeUndefined();
        expect(us.out.entry.summary).toMatch(/<files>\n[\s\S]*<\/files>$/);
      } finally {
        rmSync(join(agent.agentDir, "pi-sessions.json"));
      }
      const copy = join(dir, "digest.jsonl");
      copyFileSync(file, copy);
      const digest = await ours(["compact", copy, "--digest"]);
      expect(digest.requests).toEqual([]);
      expect(digest.out.entry).toMatchObject({ fromExtension: true, details: { piSessions: { digest: true } } });
      expect(digest.out.entry.method).toBeUndefined();
      // The CLI says which it is.
      copyFileSync(file, copy);
      const text = await cli(["compact", copy, "--digest", "--agent", "omp", "--agent-dir", agent.agentDir]);
      expect(text.stdout).toContain("omp: marked fromExtension (not made exactly as omp makes it");
      copyFileSync(file, copy);
      const own = await cli(["compact", copy, "--model", `${PROVIDER}/${MODELS[0]!.id}`, "--agent", "omp", "--agent-dir", agent.agentDir]);
      expect(own.stdout).toContain("omp: written as omp's own compaction (omp's prompts and calls, method soft)");
    });

    it("a branch summary with custom instructions: they replace omp's prompt", async () => {
      const file = join(OMP_FIXTURES_DIR, "omp-soft-compaction-branch-summary.jsonl");
      for (const [target, instructions] of [
        ["95fdcdba", "Only list the files written"],
        ["daad7ae2", undefined],
      ] as const) {
        const theirs = (await oracle().summaryRequests({ file, model: MODELS[0]!, branch: { targetId: target, ...(instructions ? { customInstructions: instructions } : {}) } })) as {
          requests: CapturedRequest[];
          result: Json;
        };
        const copy = join(dir, `branch-${target}.jsonl`);
        copyFileSync(file, copy);
        const us = await ours(["branch-summary", copy, "--target", target, "--model", `${PROVIDER}/${MODELS[0]!.id}`, ...(instructions ? ["--instructions", instructions] : [])]);
        expect(us.requests.map(fromWire)).toEqual(theirs.requests.map(fromOmp));
        compared += theirs.requests.length;
        expect(us.out.entry).toMatchObject({ summary: theirs.result.summary, details: { readFiles: theirs.result.readFiles, modifiedFiles: theirs.result.modifiedFiles }, fromExtension: false });
      }
    });

    it("for every model pi-ai knows, the transcript omp sends is ours (its dialect chosen as omp chooses it), on a pi file resumed by omp and a random omp session", async () => {
      const ids = new Set<string>();
      for (const provider of getProviders()) for (const m of getModels(provider)) ids.add(m.id);
      const generated = await oracle().generate({ seed: 7101, dir: join(dir, "dialects") });
      const omp = semanticsFor(OMP_18);
      const dialects = new Set<string>();
      for (const file of [join(OMP_FIXTURES_DIR, "pi073-digest-compaction-resumed-by-omp.jsonl"), generated.path]) {
        const session = await openSession(file);
        const path = session.pathTo(session.index.leafId!);
        const target = path.find((e) => e.type === "message")!.id;
        const abandoned = omp.prepareBranchEntries(path.slice(path.findIndex((e) => e.id === target) + 1), 128000 - 16384).messages;
        for (const id of [...ids].sort()) {
          const model = { id, contextWindow: 128000, maxTokens: 32000, reasoning: false };
          const theirs = (await oracle().summaryRequests({ file, model, branch: { targetId: target } })) as { requests: CapturedRequest[] };
          let sent = "";
          const made = await omp.summaryWriter.branchText({ messages: abandoned, model }, async (call) => {
            sent = call.userText;
            return { text: "x" };
          });
          expect(sent, `${id}: dialect ${preferredDialect(id)}`).toBe(theirs.requests[0]!.messages[0]!.text);
          expect(made.exact, id).toBe(true);
          dialects.add(preferredDialect(id));
        }
      }
      expect([...dialects].sort()).toEqual([...OMP_DIALECTS].sort());
    });
  },
  { blobsFrom: [OMP_FIXTURE_BLOBS] },
);
