// The real CLI bundle (esbuild, as `npm run build` makes dist/cli.js), built
// once into a temp dir and run as a child process, asynchronously so the
// loopback model server in the test process keeps answering.

import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";
// @ts-expect-error -- a plain .mjs build helper shared with esbuild.mjs (no types)
import { cliPiAiApart, cliPiAiBundle } from "../../../../scripts/cli-pi-ai-apart.mjs";

const root = resolve(__dirname, "..", "..", "..", "..");

export async function buildCli(outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, "cli.js");
  await build({
    entryPoints: [join(root, "src", "cli", "main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
    external: ["@opentelemetry/api"],
    logLevel: "silent",
    plugins: [cliPiAiApart],
  });
  // pi-ai apart, as npm run build writes it.
  await build({ ...cliPiAiBundle({ bundle: true, logLevel: "silent" }, outfile), stdin: { ...cliPiAiBundle({}, outfile).stdin, resolveDir: root } });
  const require = createRequire(join(root, "package.json"));
  copyFileSync(join(dirname(require.resolve("web-tree-sitter/web-tree-sitter.wasm")), "web-tree-sitter.wasm"), join(outDir, "web-tree-sitter.wasm"));
  copyFileSync(join(root, "src", "core", "files-touched", "tree-sitter-bash.wasm"), join(outDir, "tree-sitter-bash.wasm"));
  return outfile;
}

export interface CliProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  pid: number;
  done: Promise<CliProcessResult>;
  kill(signal: NodeJS.Signals): void;
}

/** A clean environment: no provider keys from the machine, HOME and the agent dir as given. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra };
}

/** `node`: the Node that runs it (default this one). */
export function startCli(cli: string, args: string[], env: Record<string, string>, cwd?: string, node: string = process.execPath): RunningCli {
  const child = spawn(node, [cli, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const done = new Promise<CliProcessResult>((resolveDone, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolveDone({ code, signal, stdout, stderr }));
  });
  return { pid: child.pid!, done, kill: (signal) => child.kill(signal) };
}

export function runCliProcess(cli: string, args: string[], env: Record<string, string>, node?: string): Promise<CliProcessResult> {
  return startCli(cli, args, env, undefined, node).done;
}
