// End to end: an omp user whose only model setup is omp's own — a home folder
// with `~/.omp/agent/models.yml` (the loopback provider, its apiKey the name
// of an environment variable, as omp's loopback setup writes it) and no pi
// agent dir, no models.json, no auth.json — runs `pi-sessions compact` on an
// omp session whose model is that provider's. The session's own model is
// used (no --model), its key read as omp reads it, and omp's soft compaction
// is written through the loopback server. Without the variable, the key omp
// would send (the variable's name) is refused by the server: the key really
// comes from models.yml.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { fastTempDir } from "../../support/omp/oracle.js";
import { loopbackModelsYml, OMP_LOOPBACK_KEY_ENV, OMP_LOOPBACK_PROVIDER } from "../../support/omp/run-omp-cli.js";
import { cli } from "../cli/run-cli.js";

const KEY = "sk-omp-models-yml-0123456789";

describe("pi-sessions compact on an omp session whose model is in omp's models.yml (no pi setup at all)", () => {
  let server: ModelServer;
  let home: string;

  beforeAll(async () => {
    server = await startModelServer({
      expectedKey: KEY,
      respond: (r) =>
        !r.auth.matchesExpectedKey ? scenarios.httpError(401, "invalid key") : scenarios.success(r.promptText.includes("pull request description") ? "Worked on the task." : "## Goal\nThe task."),
    });
    home = fastTempDir("omp-models-yml-home-");
    const agentDir = join(home, ".omp", "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "models.yml"), loopbackModelsYml(server));
    writeFileSync(join(agentDir, "config.yml"), "compaction:\n  keepRecentTokens: 2000\n");
  });

  afterAll(async () => {
    await server?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /** omp-simple, its model moved to the loopback provider of models.yml. */
  function session(name: string): string {
    const dir = join(home, "work");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, name);
    const text = readFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), "utf8")
      .replaceAll('"model":"fake/fake-coder"', `"model":"${OMP_LOOPBACK_PROVIDER}/loopback-coder"`)
      .replaceAll('"provider":"fake"', `"provider":"${OMP_LOOPBACK_PROVIDER}"`)
      .replaceAll('"model":"fake-coder"', '"model":"loopback-coder"');
    writeFileSync(file, text);
    return file;
  }

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /** The CLI's environment: the throwaway home, no agent-dir overrides; the key's variable as given (config values read the process's). */
  const env = (key: string | undefined) => {
    vi.stubEnv(OMP_LOOPBACK_KEY_ENV, key ?? "");
    return { HOME: home, PI_CODING_AGENT_DIR: undefined, PI_CONFIG_DIR: undefined, XDG_DATA_HOME: undefined, OMP_PROFILE: undefined, PI_PROFILE: undefined, [OMP_LOOPBACK_KEY_ENV]: key };
  };

  it("writes omp's own soft compaction through the loopback server, with the key models.yml names", async () => {
    const file = session("a.jsonl");
    const before = readFileSync(file);
    const start = server.requests.length;
    const run = await cli(["compact", file, "--max-retries", "0", "--json"], { env: env(KEY) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(home, ".pi"))).toBe(false);
    const out = run.json<Record<string, any>>();
    expect(out).toMatchObject({ written: true, agent: "omp", digest: false, model: `${OMP_LOOPBACK_PROVIDER}/loopback-coder` });
    expect(out.entry).toMatchObject({ type: "compaction", method: "soft", fromExtension: false, shortSummary: "Worked on the task." });
    const requests = server.requests.slice(start);
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) expect(r.auth.matchesExpectedKey).toBe(true);
    expect(requests.every((r) => (r.body as { model?: string }).model === "loopback-coder")).toBe(true);
    const after = readFileSync(file);
    expect(after.subarray(0, before.length)).toEqual(before);
    const last = JSON.parse(after.toString("utf8").trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    expect(last.id).toBe(out.entry.id);
  });

  it("without the variable models.yml names, omp's rule sends the name itself: the server refuses it and nothing is written", async () => {
    const file = session("b.jsonl");
    const before = readFileSync(file);
    const start = server.requests.length;
    const run = await cli(["compact", file, "--max-retries", "0", "--json"], { env: env(undefined) });
    expect(run.code).not.toBe(0);
    const requests = server.requests.slice(start);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => !r.auth.matchesExpectedKey)).toBe(true);
    expect(readFileSync(file)).toEqual(before);
  });
});
