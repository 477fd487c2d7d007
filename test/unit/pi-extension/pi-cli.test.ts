// The pi extension in the real pi CLIs: pi 0.73.1 (the devDependency) and pi
// 1.5.2 (the cache) load the bundle from <agent-dir>/settings.json
// "extensions", run in RPC mode against the loopback model server, and their
// own /compact, threshold auto-compaction and /tree summaries go through our
// core: the preset's model (the server sees its id), `-p NAME focus`, the
// grounded files-touched block (a bash-touched file in it), the fallback to
// the session's model, and the session reloads in that pi with the summary
// first. Nothing mocked: real pi, real pi-ai, real HTTP.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installExtension } from "../../../src/core/pi-extension-setup/index.js";
import { buildPiExtension } from "../../support/built-pi-extension.js";
import { writeManyFilesSession } from "../../support/many-files-session.js";
import { LOOPBACK_MODELS, TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { startModelServer, type ModelScenario, type ModelServer, type RecordedRequest } from "../../support/model-server.js";
import { startPiRpc, type PiCli, type PiRpc } from "../../support/pi-rpc.js";
import { describePi15, type Pi15Oracle } from "../../support/pi15/oracle.js";
import { ensurePi15Jiti, findPi15Install } from "../../support/pi15/install.js";

const NAVIGATE_EXTENSION = resolve(__dirname, "..", "..", "fixtures", "pi-extension", "navigate-tree.js");
const work = mkdtempSync(join(tmpdir(), "pi-ext-cli-"));
let extensionJs: string;
beforeAll(async () => {
  extensionJs = await buildPiExtension(join(work, "dist"));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Entry = { type: string; id: string; parentId: string | null; summary?: string; details?: Record<string, unknown>; fromHook?: boolean; usage?: unknown; firstKeptEntryId?: string };

function entriesOf(file: string): Entry[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .slice(1)
    .map((l) => JSON.parse(l) as Entry);
}

const isAgentRequest = (r: RecordedRequest): boolean => Array.isArray((r.body as { tools?: unknown[] }).tools) && ((r.body as { tools: unknown[] }).tools.length > 0);
const modelOf = (r: RecordedRequest): string => (r.body as { model?: string }).model ?? "";

interface Suite {
  server: ModelServer;
  agent: LoopbackAgentDir;
  /** Scripted answers to agent (not summary) requests, in order. */
  agentAnswers: ModelScenario[];
  /** Fail every summary request of ours (they carry <files-touched>; pi's own do not). */
  failOurs: boolean;
}

async function startSuite(extraExtensions: string[] = []): Promise<Suite> {
  const agentAnswers: ModelScenario[] = [];
  const state = { failOurs: false };
  const server = await startModelServer({
    expectedKey: TEST_KEY,
    respond: (r) => {
      if (state.failOurs && !isAgentRequest(r) && r.promptText.includes("<files-touched>")) return { kind: "http-error", status: 500, message: "loopback: failing pi-sessions' calls", retryAfterSeconds: 0 };
      if (modelOf(r) === "broken") return { kind: "http-error", status: 500, message: "loopback: this model is broken", retryAfterSeconds: 0 };
      if (isAgentRequest(r)) return agentAnswers.shift() ?? { kind: "stream", text: "ok", usage: { input: 100, output: 5 } };
      return { kind: "stream", text: `## Goal\nSUMMARY BY ${modelOf(r)}`, usage: { input: 300, output: 20 } };
    },
  });
  const agent = await writeLoopbackAgentDir(server, {
    models: [...LOOPBACK_MODELS, { id: "broken", reasoning: false, contextWindow: 128000, maxTokens: 4096 }],
    files: {
      "settings.json": JSON.stringify({
        extensions: extraExtensions,
        // A threshold of 128000 − 124000 = 4000 tokens: one big answer crosses it.
        compaction: { enabled: true, reserveTokens: 124000, keepRecentTokens: 200 },
      }),
      "pi-sessions.json": JSON.stringify({
        presets: {
          cheap: { model: "loopback-openai/small-output" },
          deep: { model: "loopback-openai/reasoner", thinkingLevel: "low" },
          broken: { model: "loopback-openai/broken" },
        },
        defaultPreset: "cheap",
      }),
    },
  });
  // The one-step setup (the CLI's and VS Code's) lists the extension, as a user would.
  await installExtension("global", { agentDir: agent.agentDir, cwd: work }, extensionJs);
  return {
    server,
    agent,
    agentAnswers,
    get failOurs() {
      return state.failOurs;
    },
    set failOurs(value: boolean) {
      state.failOurs = value;
    },
  };
}

function newSession(name: string): { file: string; cwd: string; bashFile: string; files: string[] } {
  const cwd = join(work, name);
  mkdirSync(join(cwd, "notes"), { recursive: true });
  writeFileSync(join(cwd, "notes", "todo.md"), "old item\n");
  const s = writeManyFilesSession(cwd, 20, { cwd });
  return { file: s.path, cwd, bashFile: s.bashFile, files: s.files };
}

function rpc(cli: PiCli, suite: Suite, session: { file: string; cwd: string }, paths?: { node: string; cliJs: string }): PiRpc {
  return startPiRpc(cli, {
    paths,
    agentDir: suite.agent.agentDir,
    cwd: session.cwd,
    args: ["--session", session.file, "--model", "loopback-openai/summarizer", "--no-skills", "--no-context-files"],
    env: { PI_SESSIONS_PI_LOG: join(work, `${cli}-events.log`) },
  });
}

function lastOfType(file: string, type: string): Entry {
  const found = entriesOf(file).filter((e) => e.type === type).at(-1);
  expect(found, `no ${type} entry in ${file}`).toBeDefined();
  return found!;
}

function blockOf(summary: string): string {
  const at = summary.indexOf("## Files touched (cumulative)");
  expect(at).toBeGreaterThan(0);
  return summary.slice(at);
}

/** The session as that pi reloads it: the first message of the rebuilt context. */
type Reload = (file: string) => Promise<string>;

function suiteFor(cli: PiCli, paths: () => { node: string; cliJs: string } | undefined, reloadFirstRole: Reload): void {
  let suite: Suite;
  beforeAll(async () => {
    suite = await startSuite([NAVIGATE_EXTENSION]);
  });
  afterAll(async () => {
    await suite.server.close();
    await suite.agent.cleanup();
  });

  it("manual /compact: the default preset's model writes it, with the grounded block; details say which model; pi reloads it first", async () => {
    const session = newSession(`${cli}-manual`);
    const pi = rpc(cli, suite, session, paths());
    try {
      const start = suite.server.requests.length;
      const response = await pi.call({ type: "compact" }, 90_000);
      expect(response.success, JSON.stringify(response) + pi.stderr()).toBe(true);
      const requests = suite.server.requests.slice(start);
      expect(requests.map(modelOf)).toEqual(["small-output"]);
      const entry = lastOfType(session.file, "compaction");
      expect(entry.summary).toContain("SUMMARY BY small-output");
      expect(blockOf(entry.summary!)).toContain(session.bashFile);
      expect(entry.fromHook).toBe(true);
      expect(entry.details).toMatchObject({ model: "loopback-openai/small-output", piSessions: { writer: "pi-extension" } });
      if (cli === "1.5") expect(entry.usage).toMatchObject({ input: 300, output: 20 });
      // The model's prompt carries the authoritative list (with the bash-touched file).
      expect(requests[0]!.promptText).toContain("<files-touched>");
      expect(await reloadFirstRole(session.file)).toBe("compactionSummary");
    } finally {
      await pi.close();
    }
  });

  it("/compact -p NAME focus: that preset's model, the focus passed on (without the flag), its thinking level recorded", async () => {
    const session = newSession(`${cli}-preset`);
    const pi = rpc(cli, suite, session, paths());
    try {
      const start = suite.server.requests.length;
      const response = await pi.call({ type: "compact", customInstructions: "-p deep keep the API notes" }, 90_000);
      expect(response.success, JSON.stringify(response) + pi.stderr()).toBe(true);
      const requests = suite.server.requests.slice(start);
      expect(requests.map(modelOf)).toEqual(["reasoner"]);
      expect(requests[0]!.promptText).toContain("Additional focus: keep the API notes");
      expect(requests[0]!.promptText).not.toContain("-p deep");
      const entry = lastOfType(session.file, "compaction");
      expect(entry.summary).toContain("SUMMARY BY reasoner");
      expect(entry.details).toMatchObject({ model: "loopback-openai/reasoner", thinkingLevel: "low", piSessions: { preset: "deep" } });
    } finally {
      await pi.close();
    }
  });

  it("a failing preset falls back to the session's model, and a compaction is still written", async () => {
    const session = newSession(`${cli}-fallback`);
    const pi = rpc(cli, suite, session, paths());
    try {
      const start = suite.server.requests.length;
      const response = await pi.call({ type: "compact", customInstructions: "--preset broken" }, 90_000);
      expect(response.success, JSON.stringify(response) + pi.stderr()).toBe(true);
      const models = suite.server.requests.slice(start).map(modelOf);
      expect(models[0]).toBe("broken");
      expect(models.at(-1)).toBe("summarizer");
      const entry = lastOfType(session.file, "compaction");
      expect(entry.summary).toContain("SUMMARY BY summarizer");
      expect(entry.details).toMatchObject({ model: "loopback-openai/summarizer", piSessions: { writer: "pi-extension" } });
    } finally {
      await pi.close();
    }
  });

  it("the preset and the session's model both fail: pi's own compaction runs, and a compaction is still written", async () => {
    const session = newSession(`${cli}-stock`);
    const pi = rpc(cli, suite, session, paths());
    suite.failOurs = true;
    try {
      const response = await pi.call({ type: "compact", customInstructions: "-p deep" }, 120_000);
      expect(response.success, JSON.stringify(response) + pi.stderr()).toBe(true);
      const entry = lastOfType(session.file, "compaction");
      expect(entry.summary).toContain("SUMMARY BY summarizer");
      expect(entry.summary).not.toContain("## Files touched (cumulative)");
      expect(entry.fromHook).not.toBe(true);
      expect((entry.details as { piSessions?: unknown } | undefined)?.piSessions).toBeUndefined();
    } finally {
      suite.failOurs = false;
      await pi.close();
    }
  });

  it("a threshold auto-compaction during a prompt writes our summary, with the file bash touched in that prompt", async () => {
    const session = newSession(`${cli}-threshold`);
    suite.agentAnswers.push(
      { kind: "stream", text: "", toolCall: { name: "bash", arguments: { command: "sed -i 's/old/new/' notes/todo.md" } }, usage: { input: 900, output: 10 } },
      { kind: "stream", text: "Updated the todo list.", usage: { input: 9000, output: 10 } },
    );
    const pi = rpc(cli, suite, session, paths());
    try {
      const response = await pi.call({ type: "prompt", message: "Mark the old item as new." }, 30_000);
      expect(response.success, JSON.stringify(response) + pi.stderr()).toBe(true);
      await pi.waitFor((m) => m.type === "auto_compaction_end" || m.type === "compaction_end", 90_000);
      expect(readFileSync(join(session.cwd, "notes", "todo.md"), "utf8")).toBe("new item\n");
      const entry = lastOfType(session.file, "compaction");
      expect(entry.summary).toContain("SUMMARY BY small-output");
      expect(blockOf(entry.summary!)).toMatch(/E\s+notes\/todo\.md/);
      expect(entry.details).toMatchObject({ piSessions: { writer: "pi-extension" } });
      if (cli === "1.5") expect(entry.details).toMatchObject({ piSessions: { reason: "threshold" } });
      expect(await reloadFirstRole(session.file)).toBe("compactionSummary");
    } finally {
      await pi.close();
    }
  });

  it("/tree with a summary: our summary of the abandoned branch, with its files-touched block", async () => {
    const session = newSession(`${cli}-tree`);
    const pi = rpc(cli, suite, session, paths());
    try {
      const start = suite.server.requests.length;
      const response = await pi.call({ type: "prompt", message: "/navigate-summarize 00000001" }, 90_000);
      expect(response.success, JSON.stringify(response) + pi.stderr()).toBe(true);
      await pi.waitFor(() => entriesOf(session.file).some((e) => e.type === "branch_summary"), 90_000).catch(() => undefined);
      const entry = lastOfType(session.file, "branch_summary");
      expect(suite.server.requests.slice(start).map(modelOf)).toEqual(["small-output"]);
      expect(entry.summary).toContain("SUMMARY BY small-output");
      const block = blockOf(entry.summary!);
      for (const file of session.files) expect(block).toContain(file);
      expect(entry.details).toMatchObject({ model: "loopback-openai/small-output", piSessions: { writer: "pi-extension" } });
    } finally {
      await pi.close();
    }
  });
}

describe("pi 0.73.1 loads the pi extension", () => {
  suiteFor(
    "0.73",
    () => undefined,
    async (file) => {
      const copy = `${file}.reload.jsonl`;
      writeFileSync(copy, readFileSync(file));
      const messages = SessionManager.open(copy).buildSessionContext().messages as { role: string }[];
      return messages[0]!.role;
    },
  );
});

describePi15("pi 1.5.2 loads the pi extension", (oracle: () => Pi15Oracle) => {
  beforeAll(async () => {
    const install = findPi15Install();
    if (install) await ensurePi15Jiti(install);
  }, 120_000);
  suiteFor(
    "1.5",
    () => oracle().paths,
    async (file) => {
      const back = await oracle().loadBack(file);
      const first = back.context.messages.find((m) => (m as { role: string }).role !== "system") as { role: string };
      return first.role;
    },
  );
});
