// `list` through the session catalogue: the contract's fields plus the
// catalogue's, `--all` over every project folder, and a second run answered
// from the cache folder (rows equal to the first run's).
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { piSessionDirForCwd } from "../../../src/core/discovery/discover";
import { cli } from "./run-cli";

type Writer = { appendMessage(m: unknown): string; appendSessionInfo(name: string): string; getSessionFile(): string | undefined };

function piSession(agentDir: string, cwd: string, usage: { input: number; output: number; cost: number }, name?: string): string {
  const dir = piSessionDirForCwd(cwd, agentDir);
  mkdirSync(dir, { recursive: true });
  const sm = SessionManager.create(cwd, dir) as unknown as Writer;
  sm.appendMessage({ role: "user", content: `hello from ${cwd}`, timestamp: Date.now() });
  sm.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: "hi" }],
    api: "a",
    provider: "anthropic",
    model: "claude-x",
    usage: { input: usage.input, output: usage.output, cacheRead: 0, cacheWrite: 0, totalTokens: usage.input + usage.output, cost: { total: usage.cost } },
    stopReason: "stop",
    timestamp: Date.now(),
  });
  if (name) sm.appendSessionInfo(name);
  return sm.getSessionFile()!;
}

describe("list", () => {
  it("--all lists every project's sessions with tokens, cost, size and model; a second run gives the same rows from the cache", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "agent-"));
    const cache = mkdtempSync(join(tmpdir(), "cache-"));
    const a = piSession(agentDir, "/work/alpha", { input: 1200, output: 34, cost: 0.5 }, "Alpha work");
    const b = piSession(agentDir, "/work/beta", { input: 800, output: 20, cost: 0.25 });
    const env = { PI_SESSIONS_CACHE_DIR: cache };
    const first = await cli(["list", "--all", "--json", "--agent-dir", agentDir], { env });
    expect(first.code).toBe(0);
    const sessions = first.json().sessions;
    expect(sessions.map((s: any) => s.path).sort()).toEqual([a, b].sort());
    const alpha = sessions.find((s: any) => s.path === a);
    expect(alpha).toMatchObject({
      cwd: "/work/alpha",
      name: "Alpha work",
      entries: 3,
      messages: 2,
      firstUserMessage: "hello from /work/alpha",
      parentSession: null,
      contextTokens: 1234,
      contextTokensEstimated: false,
      model: { provider: "anthropic", modelId: "claude-x" },
      totalTokens: 1234,
      input: 1200,
      output: 34,
      cost: 0.5,
      hasCompactions: false,
      size: statSync(a).size,
    });
    for (const s of sessions) expect(Object.keys(s)).toEqual(expect.arrayContaining(["path", "id", "cwd", "name", "entries", "modified"]));
    expect(existsSync(join(cache, "catalogue"))).toBe(true);
    expect(readdirSync(join(cache, "catalogue")).some((f) => /^catalogue-v\d+-.*\.jsonl$/.test(f))).toBe(true);
    const second = await cli(["list", "--all", "--json", "--agent-dir", agentDir], { env });
    expect(second.json()).toEqual(first.json());
    // Without --all, only the cwd's folder.
    const betaDir = mkdtempSync(join(tmpdir(), "beta-"));
    const c = piSession(agentDir, betaDir, { input: 1, output: 1, cost: 0 });
    const one = await cli(["list", "--json", "--agent-dir", agentDir, "--cwd", betaDir], { env });
    expect(one.json().sessions.map((s: any) => s.path)).toEqual([c]);
    const text = await cli(["list", "--all", "--agent-dir", agentDir], { env });
    expect(text.stdout).toContain("Alpha work");
    expect(text.stdout).toContain("$0.50");
  });
});
