// Runs the real pi 1.5.2 CLI (Node 22 + the extracted bundle) offline: its agent
// folder (models.json, auth.json, settings.json) is the caller's, typically
// written by writeLoopbackAgentDir so that every model request goes to the
// loopback model server. stdin is closed; the run is killed after `timeoutMs`.

import { spawn } from "node:child_process";

export interface Pi15CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Pi15CliOptions {
  /** PI_CODING_AGENT_DIR of the run. */
  agentDir: string;
  /** pi's arguments, e.g. ["-p", "hello", "--session", file, "--model", "loopback-openai/summarizer"]. */
  args: readonly string[];
  /** Working directory (pi reads project files such as AGENTS.md and .pi/ from here). */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export function runPi15Cli(paths: { node: string; cliJs: string }, options: Pi15CliOptions): Promise<Pi15CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(paths.node, [paths.cliJs, ...options.args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, PI_OFFLINE: "1", PI_CODING_AGENT_DIR: options.agentDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
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
}
