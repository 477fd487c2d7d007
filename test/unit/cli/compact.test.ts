// `pi-sessions compact` as a real process (the esbuild bundle) against the
// loopback model server over HTTP with real pi-ai: success, split turn,
// update summary, and the failure matrix. Every failure exits 2 (model), 3
// (refused) or 1 (input) and leaves the session file byte-identical.

import { copyFileSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { SUMMARIZATION_PROMPT, TURN_PREFIX_SUMMARIZATION_PROMPT, UPDATE_SUMMARIZATION_PROMPT } from "../../../src/core/compaction/index.js";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelScenario, type ModelServer } from "../../support/model-server.js";
import { buildCli, cleanEnv, runCliProcess, startCli, type CliProcessResult } from "../write/support/built-cli.js";
import { assistant, longTurnSession, piOpen, removeDir, sha, tempDir, user } from "../write/support/sessions.js";

let server: ModelServer;
let agent: LoopbackAgentDir;
let cli: string;
const dir = tempDir("pi-sessions-cli-compact-");
const home = tempDir("pi-sessions-home-");

beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY });
  agent = await writeLoopbackAgentDir(server);
  cli = await buildCli(join(dir, "dist"));
});
afterAll(async () => {
  await server.close();
  await agent.cleanup();
  removeDir(dir);
  removeDir(home);
});

const MODEL = "loopback-openai/summarizer";
const env = () => cleanEnv({ HOME: home, PI_CODING_AGENT_DIR: agent.agentDir });
const compactArgs = (file: string, extra: string[] = []) => ["compact", file, "--model", MODEL, "--keep-recent-tokens", "1500", "--max-retries", "0", "--json", ...extra];

describe("success", () => {
  it("split turn: both calls reach the server with pi's prompts and the focus text; JSON as the contract says", async () => {
    const { path } = longTurnSession(dir);
    server.respond = (r) => scenarios.success(r.promptText.includes(TURN_PREFIX_SUMMARIZATION_PROMPT) ? "PREFIX" : "HISTORY");
    const start = server.requests.length;
    const run = await runCliProcess(cli, compactArgs(path, ["--instructions", "KEEP THE TEST NAMES"]), env());
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(expect.arrayContaining(["written", "entry", "tokensBefore", "tokensAfter", "model"]));
    expect(out).toMatchObject({ written: true, model: MODEL });
    const requests = server.requests.slice(start);
    expect(requests.map((r) => r.promptText.includes(TURN_PREFIX_SUMMARIZATION_PROMPT)).sort()).toEqual([false, true]);
    expect(requests.find((r) => !r.promptText.includes(TURN_PREFIX_SUMMARIZATION_PROMPT))!.promptText).toContain(SUMMARIZATION_PROMPT);
    for (const r of requests) {
      expect(r.auth.matchesExpectedKey).toBe(true);
      expect(r.promptText).toContain("Additional focus: KEEP THE TEST NAMES");
    }
    const entry = out.entry as Record<string, unknown>;
    expect((entry.summary as string).startsWith("HISTORY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX")).toBe(true);
    // "exactly as written": the file's last line is this entry.
    const lastLine = readFileSync(path, "utf8").trimEnd().split("\n").at(-1)!;
    expect(JSON.parse(lastLine)).toEqual(entry);
    expect(piOpen(path, dir).leafId).toBe(entry.id);
  });

  it("update: the second compaction sends the first summary in <previous-summary> with pi's update prompt", async () => {
    const { path } = longTurnSession(dir, { rounds: 3 });
    server.respond = () => scenarios.success("FIRST SUMMARY");
    expect((await runCliProcess(cli, compactArgs(path), env())).code).toBe(0);
    const sm = SessionManager.open(path) as unknown as { appendMessage(m: unknown): string };
    sm.appendMessage(user("Next: add --all."));
    sm.appendMessage(assistant(`Added. ${"words ".repeat(900)}`));
    sm.appendMessage(user("And the README."));
    sm.appendMessage(assistant(`Done. ${"words ".repeat(900)}`));
    server.respond = () => scenarios.success("SECOND SUMMARY");
    const start = server.requests.length;
    const run = await runCliProcess(cli, compactArgs(path, ["--keep-recent-tokens", "1000"]), env());
    expect(run.code).toBe(0);
    const history = server.requests.slice(start).find((r) => r.promptText.includes(UPDATE_SUMMARIZATION_PROMPT));
    expect(history?.promptText).toContain("<previous-summary>\nFIRST SUMMARY");
  });

  it("text mode: what was written, tokens before → after, the model", async () => {
    const { path } = longTurnSession(dir);
    server.respond = () => scenarios.success("TEXT MODE");
    const run = await runCliProcess(cli, compactArgs(path).filter((a) => a !== "--json"), env());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^compaction written: entry [0-9a-f]{8} under [0-9a-f]{8}, keeping from [0-9a-f]{8}\ntokens: \d+ → \d+\nmodel: loopback-openai\/summarizer\n$/);
  });
});

interface FailureCase {
  name: string;
  scenario: ModelScenario;
  extra?: string[];
  message: RegExp;
}

const FAILURES: FailureCase[] = [
  { name: "HTTP 401", scenario: scenarios.httpError(401, "invalid api key"), message: /refused the key/ },
  { name: "HTTP 429", scenario: scenarios.httpError(429, "slow down"), message: /rate limited/ },
  { name: "HTTP 500", scenario: scenarios.httpError(500, "boom"), message: /server error/ },
  { name: "timeout (no answer)", scenario: scenarios.hang(), extra: ["--timeout", "1"], message: /timed out/ },
  { name: "stream cut mid-way", scenario: scenarios.cut("partial answer that never ends", 2), message: /connection failed|call failed/ },
  { name: "empty answer", scenario: scenarios.empty(), message: /no text/ },
  { name: "stopReason length", scenario: scenarios.length("cut off by the output limit"), message: /output limit/ },
];

export const failureMatrix: { scenario: string; exit: number | null; message: string }[] = [];

describe("failure matrix: exit 2, file byte-identical", () => {
  it.each(FAILURES)("$name", async ({ name, scenario, extra, message }) => {
    const { path } = longTurnSession(dir);
    const hash = sha(path);
    server.respond = () => scenario;
    const run = await runCliProcess(cli, compactArgs(path, extra), env());
    failureMatrix.push({ scenario: name, exit: run.code, message: run.stderr.trim() });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: Model call to loopback-openai\/summarizer failed: /);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain(TEST_KEY);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(sha(path)).toBe(hash);
  });

  it("Ctrl-C (SIGINT) mid-stream", async () => {
    const { path } = longTurnSession(dir);
    const hash = sha(path);
    server.respond = () => scenarios.slow("slow ".repeat(50), 40, 50);
    const start = server.requests.length;
    const running = startCli(cli, compactArgs(path), env());
    const request = await server.waitForRequest(start);
    await request.waitForChunks(1);
    running.kill("SIGINT");
    const run: CliProcessResult = await running.done;
    failureMatrix.push({ scenario: "SIGINT mid-stream", exit: run.code, message: run.stderr.trim() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cancelled/);
    expect(sha(path)).toBe(hash);
  });

  afterAll(() => {
    console.info(`failure matrix:\n${failureMatrix.map((f) => `  ${f.scenario} → exit ${f.exit}: ${f.message}`).join("\n")}`);
  });
});

describe("refusals (exit 3) and bad input (exit 1)", () => {
  it("a version 1 file: exit 3, says to migrate", async () => {
    const copy = join(dir, "v1.jsonl");
    copyFileSync(resolve("test/fixtures/pi-mono/before-compaction.jsonl"), copy);
    const hash = sha(copy);
    const run = await runCliProcess(cli, ["compact", copy, "--digest"], env());
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`pi-sessions migrate ${copy}`);
    expect(sha(copy)).toBe(hash);
  });

  it("nothing to compact: exit 1", async () => {
    const { path } = longTurnSession(dir);
    const run = await runCliProcess(cli, ["compact", path, "--digest", "--keep-recent-tokens", "1000000"], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: nothing to compact/);
  });

  it("an unknown model: exit 1, no fallback to the digest", async () => {
    const { path } = longTurnSession(dir);
    const hash = sha(path);
    const run = await runCliProcess(cli, ["compact", path, "--model", "loopback-openai/nope"], env());
    expect(run.code).toBe(1);
    expect(sha(path)).toBe(hash);
  });

  it("two of --model / --preset / --digest: exit 1", async () => {
    const { path } = longTurnSession(dir);
    const run = await runCliProcess(cli, ["compact", path, "--digest", "--model", MODEL], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/only one of/);
  });
});

describe("without any key (empty agent dir)", () => {
  it("falls back to the digest, says so on stderr, and pi reads the result", async () => {
    const empty = tempDir("pi-sessions-empty-agent-");
    try {
      const { path } = longTurnSession(dir, { model: { provider: "anthropic", model: "claude-sonnet-4-5" } });
      const run = await runCliProcess(cli, ["compact", path, "--keep-recent-tokens", "1500", "--json"], cleanEnv({ HOME: home, PI_CODING_AGENT_DIR: empty }));
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/WARNING: no model available .*digest/);
      const out = JSON.parse(run.stdout) as { model: string; entry: { summary: string } };
      expect(out.model).toBe("digest");
      expect(out.entry.summary.startsWith("> Digest (no model)")).toBe(true);
      expect((piOpen(path, dir).context.messages[0] as { summary: string }).summary).toBe(out.entry.summary);
    } finally {
      removeDir(empty);
    }
  });
});
