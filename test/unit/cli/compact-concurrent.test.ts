// pi writing to the session while `compact` runs: a child node process appends
// complete pi-style lines to the same file in a loop (bounded in time) while
// the real CLI process compacts against the loopback model. Either our append
// lands after a consistent tail or we refuse (exit 3); afterwards every line
// parses, no line is split, and every line the writer wrote is there.

import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { buildCli, cleanEnv, runCliProcess } from "../write/support/built-cli.js";
import { longTurnSession, piOpen, removeDir, tempDir } from "../write/support/sessions.js";

let server: ModelServer;
let agent: LoopbackAgentDir;
let cli: string;
const dir = tempDir("pi-sessions-cli-concurrent-");
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

// Appends `{"type":"custom","customType":"writer",...}` lines (each one
// appendFileSync of a complete line, as pi's _persist does), pausing between
// lines, until `ms` have passed or the stop file exists, then prints how
// many it wrote.
const WRITER = `
const { appendFileSync, existsSync } = require("node:fs");
const [file, ms, leaf, pause, stopFile] = [process.argv[1], Number(process.argv[2]), process.argv[3], Number(process.argv[4]), process.argv[5]];
const end = Date.now() + ms;
let parent = leaf, n = 0;
const step = () => {
  if (Date.now() >= end || (stopFile && existsSync(stopFile))) { process.stdout.write(String(n)); return; }
  const id = "w" + String(n).padStart(7, "0");
  appendFileSync(file, JSON.stringify({ type: "custom", customType: "writer", data: { n, pad: "x".repeat(200) }, id, parentId: parent, timestamp: new Date().toISOString() }) + "\\n");
  parent = id; n++;
  setTimeout(step, pause);
};
step();
`;

function startWriter(file: string, ms: number, leaf: string, pauseMs = 3, stopFile = ""): Promise<number> {
  const child = spawn(process.execPath, ["-e", WRITER, file, String(ms), leaf, String(pauseMs), stopFile], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => resolve(Number(out)));
  });
}

function checkFile(path: string, writerLines: number): { ours: number } {
  const text = readFileSync(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  const lines = text.slice(0, -1).split("\n");
  const parsed = lines.map((l) => JSON.parse(l) as { type: string; customType?: string; data?: { n: number } });
  const written = parsed.filter((e) => e.customType === "writer").map((e) => e.data!.n);
  expect(written).toEqual(Array.from({ length: writerLines }, (_, i) => i));
  return { ours: parsed.filter((e) => e.type === "compaction").length };
}

describe("compact while another process appends", () => {
  it("a slow answer while the writer runs: refused (exit 3), writer's lines intact", async () => {
    const { path, ids } = longTurnSession(dir);
    server.respond = () => scenarios.slow("slow summary ".repeat(10), 10, 100);
    // The writer runs until the CLI has finished (at most 30 s), so it surely appends while the answer streams.
    const stopFile = join(dir, `stop-${Date.now()}`);
    const writer = startWriter(path, 30_000, ids.a3end!, 3, stopFile);
    const run = await runCliProcess(cli, ["compact", path, "--model", "loopback-openai/summarizer", "--keep-recent-tokens", "1500", "--max-retries", "0"], cleanEnv({ HOME: home, PI_CODING_AGENT_DIR: agent.agentDir }));
    writeFileSync(stopFile, "");
    const count = await writer;
    expect(count).toBeGreaterThan(0);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/changed on disk.*pi may be running/);
    expect(checkFile(path, count).ours).toBe(0);
  });

  it("writers pausing 3 ms to 700 ms between lines: each run lands whole or is refused; the file stays valid for pi", async () => {
    const outcomes: number[] = [];
    for (const pause of [3, 150, 400, 700]) {
      const { path, ids } = longTurnSession(dir);
      const writer = startWriter(path, 2500, ids.a3end!, pause);
      const run = await runCliProcess(cli, ["compact", path, "--digest", "--keep-recent-tokens", "1500"], cleanEnv({ HOME: home, PI_CODING_AGENT_DIR: agent.agentDir }));
      const count = await writer;
      expect([0, 3]).toContain(run.code);
      outcomes.push(run.code!);
      expect(checkFile(path, count).ours).toBe(run.code === 0 ? 1 : 0);
      // pi can open what is there (a compaction that landed mid-stream is a branch under its leaf).
      expect(() => piOpen(path, dir)).not.toThrow();
    }
    console.info(`concurrent runs (writer pause 3/150/400/700 ms): exit codes ${outcomes.join(", ")}`);
  });

  it("no writer: the append lands (control)", async () => {
    const { path } = longTurnSession(dir);
    const run = await runCliProcess(cli, ["compact", path, "--digest", "--keep-recent-tokens", "1500"], cleanEnv({ HOME: home, PI_CODING_AGENT_DIR: agent.agentDir }));
    expect(run.code).toBe(0);
    expect(checkFile(path, 0).ours).toBe(1);
  });
});
