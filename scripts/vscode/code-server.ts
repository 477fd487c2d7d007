// Starts one code-server for one run and stops it again: its own process group, so
// stopping it also ends the extension host and the other helpers it spawned.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import type { CodeServerInstall } from "./install-code-server";

export interface CodeServerOptions {
  install: CodeServerInstall;
  /** Folder code-server opens (the workspace). */
  folder: string;
  /** Scratch folder of this run: config, user data, extensions, HOME and TMPDIR go here. */
  runDir: string;
  userDataDir: string;
  extensionsDir: string;
  /** false: leave workspace trust on, so the folder opens in Restricted Mode. */
  trusted: boolean;
  /** Added to code-server's environment, which the extension host inherits. */
  env: Record<string, string>;
  readyTimeoutMs?: number;
}

export interface RunningCodeServer {
  readonly port: number;
  readonly origin: string;
  readonly pid: number;
  /** Everything code-server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

export function codeServerArgs(options: CodeServerOptions, port: number, configPath: string): string[] {
  return [
    "--config", configPath,
    "--auth", "none",
    "--bind-addr", `127.0.0.1:${port}`,
    "--disable-telemetry",
    "--disable-update-check",
    ...(options.trusted ? ["--disable-workspace-trust"] : []),
    "--extensions-dir", options.extensionsDir,
    "--user-data-dir", options.userDataDir,
    // Without this the workbench ignores the `payload` (extension tests) in the URL.
    "--vscode-option", "enable-smoke-test-driver",
    options.folder,
  ];
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

async function waitUntilAnswering(origin: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output()}`);
    }
    try {
      const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`code-server did not answer within ${timeoutMs} ms:\n${output()}`);
}

export async function startCodeServer(options: CodeServerOptions): Promise<RunningCodeServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // Always a config file: without --config code-server writes one into the home folder.
  const configPath = join(options.runDir, "code-server.yaml");
  await writeFile(configPath, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);

  const child = spawn(options.install.nodeBin, [options.install.codeServerEntry, ...codeServerArgs(options, port, configPath)], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...options.install.env,
      // Keeps the run hermetic: code-server's own state and its /tmp sockets stay in the run folder.
      HOME: join(options.runDir, "home"),
      TMPDIR: join(options.runDir, "tmp"),
      ...options.env,
    },
  });
  const chunks: string[] = [];
  child.stdout?.on("data", (data: Buffer) => chunks.push(data.toString("utf8")));
  child.stderr?.on("data", (data: Buffer) => chunks.push(data.toString("utf8")));
  const output = (): string => chunks.join("");
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start code-server: ${options.install.codeServerEntry}`);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      killGroup(pid, "SIGTERM");
      const done = exited(child);
      const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 5000).unref());
      if ((await Promise.race([done.then(() => "done" as const), timer])) === "timeout") killGroup(pid, "SIGKILL");
      await done;
      // Helpers (extension host, file watcher) share the group: make sure none outlives the run.
      killGroup(pid, "SIGKILL");
    })();
    return stopping;
  };

  try {
    await waitUntilAnswering(origin, child, output, options.readyTimeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, origin, pid, output, stop };
}
