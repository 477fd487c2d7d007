// omp keeps two things pi-sessions needs in SQLite files, read and written
// with node:sqlite (Node 24 here, as in VS Code's extension host).
//
// Logins: omp users log in with omp (`/login`): their keys and OAuth tokens live in
// omp's SQLite agent.db, not in an environment variable. Here omp 18.3.4's own
// AuthStorage stores them, omp says which key it would send per provider, and
// pi-sessions — run as its own process on Node 24, which has node:sqlite —
// must find the same key (a /login key before the provider's variable, a
// plain stored key after it, a key naming a variable read through it, a live
// OAuth token, the first of several). End to end, `pi-sessions compact` on an
// omp session whose provider's only key is omp's login writes omp's
// compaction through the loopback server with that key. On Node 20 (no
// SQLite) and for an expired token the error says why, and nothing is written.
//
// Titles: omp's welcome screen lists recent sessions by the title cached in
// its history.db; after `pi-sessions rename` omp's own welcome screen shows
// the new name (on Node 20 the rename says it may not: omp-writers.test.ts).

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureNode24 } from "../../../scripts/vscode/install-code-server.js";
import { resolveRequestAuth } from "../../../src/core/summarize/auth.js";
import { loadModelSetup } from "../../../src/core/summarize/model-setup.js";
import { nodeSqlite } from "../../../src/core/fs/index.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import type { StoredLogin } from "../../support/omp/login-keys.js";
import { ompDiscovery } from "../../support/omp/discovery-oracle.js";
import { describeOmp, fastTempDir } from "../../support/omp/oracle.js";
import { buildCli, cleanEnv, runCliProcess } from "../write/support/built-cli.js";

const HOUR = 3_600_000;
const LOGIN_KEY = "gsk-from-omp-login-0123456789";
const GROQ_MODEL = "llama-3.1-8b-instant";

type Probed = Record<string, { key: string; source: string } | { error: string }>;

describeOmp("omp's SQLite stores: the key omp sends is the key we send (agent.db); its welcome screen shows our rename (history.db)", (oracle) => {
  let node24: string;
  let probe: string;
  let cliJs: string;
  let work: string;
  let server: ModelServer;

  beforeAll(async () => {
    node24 = await ensureNode24(() => {});
    work = fastTempDir("omp-logins-");
    probe = join(work, "probe.cjs");
    await build({
      entryPoints: [resolve(__dirname, "../../support/omp/login-key-probe.ts")],
      outfile: probe,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      external: ["@opentelemetry/api"],
      logLevel: "silent",
    });
    cliJs = await buildCli(join(work, "cli"));
    server = await startModelServer({
      expectedKey: LOGIN_KEY,
      respond: (r) =>
        !r.auth.matchesExpectedKey ? scenarios.httpError(401, "invalid key") : scenarios.success(r.promptText.includes("pull request description") ? "Worked on the task." : "## Goal\nThe task."),
    });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A throwaway home with omp's agent dir; omp's AuthStorage stores `logins` in its agent.db. */
  async function homeWith(name: string, logins: StoredLogin[], ask: string[], env: Record<string, string> = {}) {
    const home = join(work, name);
    const agentDir = join(home, ".omp", "agent");
    mkdirSync(agentDir, { recursive: true });
    const { keys } = await oracle().loginKeys({ agentDir, logins, providers: ask, env });
    return { home, agentDir, ompKeys: keys };
  }

  function probeKeys(home: string, agentDir: string, providers: string[], env: Record<string, string> = {}): Probed {
    const args = JSON.stringify({ agentDir: join(home, ".pi", "agent"), ompAgentDir: agentDir, ompAgentDb: join(agentDir, "agent.db"), providers });
    const out = execFileSync(node24, [probe, args], { env: cleanEnv({ HOME: home, ...env }), encoding: "utf8" });
    return JSON.parse(out) as Probed;
  }

  it("every provider: a /login key before the variable, a stored key after it, a variable's name read through it, a live token, the first of two", async () => {
    const now = Date.now();
    const logins: StoredLogin[] = [
      { provider: "anthropic", kind: "login", key: "sk-ant-from-login" },
      { provider: "openai", kind: "key", key: "sk-openai-stored" },
      { provider: "mistral", kind: "key", key: "MY_MISTRAL_KEY" },
      { provider: "groq", kind: "oauth", access: "groq-access-token", expires: now + HOUR },
      { provider: "google", kind: "key", key: "google-first" },
      { provider: "google", kind: "key", key: "google-second" },
      { provider: "xai", kind: "key", key: "xai-stored" },
    ];
    const env = { ANTHROPIC_API_KEY: "anthropic-from-env", OPENAI_API_KEY: "openai-from-env", MY_MISTRAL_KEY: "mistral-through-variable" };
    const providers = ["anthropic", "openai", "mistral", "groq", "google", "xai", "cerebras"];
    const { home, agentDir, ompKeys } = await homeWith("every-provider", logins, providers, env);
    // omp's own answers first: the rules this test is about hold in omp.
    expect(ompKeys).toEqual({
      anthropic: "sk-ant-from-login",
      openai: "openai-from-env",
      mistral: "mistral-through-variable",
      groq: "groq-access-token",
      google: "google-first",
      xai: "xai-stored",
      cerebras: null,
    });
    const ours = probeKeys(home, agentDir, providers, env);
    for (const provider of providers) {
      const got = ours[provider]!;
      expect("key" in got ? got.key : null, `${provider}: ${JSON.stringify(got)}`).toBe(ompKeys[provider]);
    }
    expect(ours.anthropic).toMatchObject({ source: "agent.db" });
    expect(ours.openai).toMatchObject({ source: "environment" });
    expect(ours.groq).toMatchObject({ source: "agent.db" });
    expect((ours.cerebras as { error: string }).error).toMatch(/No API key for provider "cerebras".*log in with omp \(\/login\)/);
  });

  it("an expired OAuth token is not used: the error says running omp refreshes it", async () => {
    const { home, agentDir } = await homeWith("expired", [{ provider: "groq", kind: "oauth", access: "old-token", expires: Date.now() - HOUR }], []);
    const ours = probeKeys(home, agentDir, ["groq"]);
    expect((ours.groq as { error: string }).error).toContain(`omp's login for it in ${join(agentDir, "agent.db")} has expired: running omp once refreshes it`);
  });

  /**
   * omp-simple moved to groq, whose requests models.yml sends to the loopback
   * server (a baseUrl override, no key in it): the key can only come from
   * omp's /login.
   */
  async function loopbackHome(name: string) {
    const { home, agentDir, ompKeys } = await homeWith(name, [{ provider: "groq", kind: "login", key: LOGIN_KEY }], ["groq"]);
    expect(ompKeys.groq).toBe(LOGIN_KEY);
    writeFileSync(join(agentDir, "models.yml"), `providers:\n  groq:\n    baseUrl: ${server.openaiBaseUrl}\n`);
    writeFileSync(join(agentDir, "config.yml"), "compaction:\n  keepRecentTokens: 2000\n");
    const file = join(home, "work", "session.jsonl");
    mkdirSync(join(home, "work"), { recursive: true });
    const text = readFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), "utf8")
      .replaceAll('"model":"fake/fake-coder"', `"model":"groq/${GROQ_MODEL}"`)
      .replaceAll('"provider":"fake"', '"provider":"groq"')
      .replaceAll('"model":"fake-coder"', `"model":"${GROQ_MODEL}"`);
    writeFileSync(file, text);
    return { home, file };
  }

  it("pi-sessions compact (Node 24) on an omp session whose only key is omp's /login: omp's compaction, sent with that key", async () => {
    const { home, file } = await loopbackHome("compact");
    const before = readFileSync(file);
    const start = server.requests.length;
    const run = await runCliProcess(cliJs, ["compact", file, "--agent", "omp", "--max-retries", "0", "--json"], cleanEnv({ HOME: home }), node24);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, any>;
    expect(out).toMatchObject({ written: true, agent: "omp", model: `groq/${GROQ_MODEL}` });
    expect(out.entry).toMatchObject({ type: "compaction", method: "soft", fromExtension: false });
    const requests = server.requests.slice(start);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.auth.matchesExpectedKey)).toBe(true);
    expect(requests.every((r) => (r.body as { model?: string }).model === GROQ_MODEL)).toBe(true);
    expect(readFileSync(file).subarray(0, before.length)).toEqual(before);
  });

  it("on Node 20, which has no SQLite: the error says omp's logins cannot be read and why, and the file is byte-identical", async () => {
    const { home, file } = await loopbackHome("node20");
    const before = readFileSync(file);
    const start = server.requests.length;
    const run = await runCliProcess(cliJs, ["compact", file, "--agent", "omp", "--model", `groq/${GROQ_MODEL}`, "--max-retries", "0"], cleanEnv({ HOME: home }));
    if (nodeSqlite()) {
      // A Node with SQLite runs this suite: it finds the login like Node 24.
      expect(run.code, run.stderr).toBe(0);
      return;
    }
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`omp's logins in ${join(home, ".omp", "agent", "agent.db")} cannot be read: this Node.js has no SQLite`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests.length).toBe(start);
    expect(readFileSync(file)).toEqual(before);
    // The same answer in-process (what the extension host on an older VS Code would say).
    const setup = await loadModelSetup({ agentDir: join(home, ".pi", "agent"), ompAgentDir: join(home, ".omp", "agent"), ompAgentDb: join(home, ".omp", "agent", "agent.db") });
    const model = setup.registry.models.find((m) => m.provider === "groq")!;
    await expect(resolveRequestAuth(model, setup)).rejects.toThrow(/cannot be read: this Node\.js has no SQLite/);
  });

  /** omp-simple in omp's folder for a project, in a home of its own. */
  function ompSessionInHome(name: string) {
    const home = join(work, name);
    const folder = join(home, ".omp", "agent", "sessions", "-proj");
    mkdirSync(folder, { recursive: true });
    const path = join(folder, "2026-11-23T22-32-57-180Z_01a20a8a-7a5c-7328-b37d-344f0d311926.jsonl");
    writeFileSync(path, readFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl")));
    return { home, folder, path };
  }

  it("pi-sessions rename (Node 24) of a session omp named: omp's /resume and its welcome screen both show the new name, and no notice is given", async () => {
    const { home, folder, path } = ompSessionInHome("title-cache");
    const env = { HOME: home, TMPDIR: work };
    const named = await ompDiscovery(env, { renameByOmp: [{ path, title: "Named by omp" }], recentDirs: [folder] });
    expect(named.recent[folder]!.map((s) => s.name)).toEqual(["Named by omp"]);
    const history = join(home, ".omp", "agent", "history.db");
    expect(existsSync(history)).toBe(true);
    const run = await runCliProcess(cliJs, ["rename", path, "Named by pi-sessions", "--json"], cleanEnv({ HOME: home }), node24);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ written: true, agent: "omp", name: "Named by pi-sessions", previousName: "Named by omp" });
    expect(out.notice).toBeUndefined();
    const after = await ompDiscovery(env, { renameByOmp: [{ path }], recentDirs: [folder] });
    expect(after.listAll.map((s) => s.title)).toEqual(["Named by pi-sessions"]);
    expect(after.recent[folder]!.map((s) => s.name)).toEqual(["Named by pi-sessions"]);
  });

  it("rename where omp keeps no history.db: none is made, and nothing is said (nothing cached can be stale)", async () => {
    const { home, path } = ompSessionInHome("no-history");
    const run = await runCliProcess(cliJs, ["rename", path, "First name", "--json"], cleanEnv({ HOME: home }), node24);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as Record<string, unknown>).notice).toBeUndefined();
    expect(existsSync(join(home, ".omp", "agent", "history.db"))).toBe(false);
  });
});
