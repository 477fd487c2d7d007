// Runs the real `omp` 18.3.4 CLI (Bun + the package's dist/cli.js) against the
// loopback model server: a throwaway HOME whose agent dir has a models.yml with
// one provider pointing at the server (openai-completions), omp resumes the given
// session file in print mode (`-p --resume <file>`), sends one prompt, and exits.
// Returns what omp sent to the model (the server's recorded requests during the
// run) and the session file after. Nothing else leaves the machine: the only
// provider omp knows is the loopback one.

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelServer, RecordedRequest } from "../model-server.js";
import type { OmpInstall } from "./install.js";
import { fastTempDir, ompEnv } from "./omp-env.js";

export const OMP_LOOPBACK_PROVIDER = "loopback";
/** The environment variable the models.yml names as the provider's key (omp resolves `apiKey` from it). */
export const OMP_LOOPBACK_KEY_ENV = "LOOPBACK_API_KEY";

export interface OmpLoopbackModel {
  id: string;
  input?: ("text" | "image")[];
  contextWindow?: number;
  maxTokens?: number;
}

export const OMP_LOOPBACK_MODELS: OmpLoopbackModel[] = [
  { id: "loopback-coder", input: ["text"], contextWindow: 128000, maxTokens: 8192 },
  { id: "loopback-vision", input: ["text", "image"], contextWindow: 128000, maxTokens: 8192 },
];

/** omp's models.yml for the loopback provider. */
export function loopbackModelsYml(server: ModelServer, models: OmpLoopbackModel[] = OMP_LOOPBACK_MODELS): string {
  const lines = ["providers:", `  ${OMP_LOOPBACK_PROVIDER}:`, `    baseUrl: ${server.openaiBaseUrl}`, `    apiKey: ${OMP_LOOPBACK_KEY_ENV}`, "    api: openai-completions", "    models:"];
  for (const m of models) {
    lines.push(
      `      - id: ${m.id}`,
      `        name: ${m.id}`,
      "        reasoning: false",
      `        input: [${(m.input ?? ["text"]).join(", ")}]`,
      `        contextWindow: ${m.contextWindow ?? 128000}`,
      `        maxTokens: ${m.maxTokens ?? 8192}`,
    );
  }
  return lines.join("\n") + "\n";
}

export interface OmpCliOptions {
  /** The session file omp resumes (and appends to): pass a copy if the original must stay. */
  file: string;
  prompt: string;
  server: ModelServer;
  /** Key the server expects (sent by omp as the loopback provider's key). */
  key: string;
  /** A loopback model id (default "loopback-coder"). */
  model?: string;
  /** Working directory omp starts in (default: a folder in the throwaway HOME). */
  cwd?: string;
  /** Extra files in the agent dir (e.g. `{"config.yml": "compaction:\n  keepRecentTokens: 2000\n"}`). */
  agentFiles?: Record<string, string>;
  /** Files copied into the agent dir's blob store (name → path). */
  blobs?: Record<string, string>;
  extraArgs?: string[];
  timeoutMs?: number;
}

export interface OmpCliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The model requests omp made during the run, in order. */
  requests: RecordedRequest[];
  /** The session file's bytes after the run. */
  fileAfter: Buffer;
}

/** A throwaway HOME whose agent dir knows only the loopback provider; `cleanup()` removes it. */
export interface OmpHome {
  home: string;
  agentDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function prepareOmpHome(options: Pick<OmpCliOptions, "server" | "key" | "cwd" | "agentFiles" | "blobs">): OmpHome {
  const home = fastTempDir("omp-cli-home-");
  const agentDir = join(home, ".omp", "agent");
  mkdirSync(join(agentDir, "blobs"), { recursive: true });
  writeFileSync(join(agentDir, "models.yml"), loopbackModelsYml(options.server));
  for (const [name, content] of Object.entries(options.agentFiles ?? {})) writeFileSync(join(agentDir, name), content);
  for (const [name, path] of Object.entries(options.blobs ?? {})) writeFileSync(join(agentDir, "blobs", name), readFileSync(path));
  const cwd = options.cwd ?? join(home, "work");
  mkdirSync(cwd, { recursive: true });
  const env = ompEnv(home, agentDir, { [OMP_LOOPBACK_KEY_ENV]: options.key, TMPDIR: home });
  return { home, agentDir, cwd, env, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** omp's flags for a quiet, offline run on the loopback model resuming `file`. */
export function ompResumeArgs(install: OmpInstall, file: string, model = "loopback-coder"): string[] {
  return [
    "--no-install",
    install.cliJs,
    "--resume",
    file,
    "--model",
    `${OMP_LOOPBACK_PROVIDER}/${model}`,
    "--no-title",
    "--no-extensions",
    "--no-skills",
    "--no-rules",
    "--no-lsp",
  ];
}

export async function runOmpCli(install: OmpInstall, options: OmpCliOptions): Promise<OmpCliRun> {
  const omp = prepareOmpHome(options);
  const before = options.server.requests.length;
  const args = [...ompResumeArgs(install, options.file, options.model), "-p", ...(options.extraArgs ?? []), options.prompt];
  try {
    const run = await new Promise<Omit<OmpCliRun, "requests" | "fileAfter">>((resolve, reject) => {
      const child = spawn(install.bun, args, { cwd: omp.cwd, env: omp.env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
    return { ...run, requests: options.server.requests.slice(before), fileAfter: readFileSync(options.file) };
  } finally {
    omp.cleanup();
  }
}
