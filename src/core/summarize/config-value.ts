// pi's resolveConfigValue (pi-coding-agent core/resolve-config-value.js) for
// apiKey and header values in models.json and keys in auth.json:
// - "!command": run the command in a shell, use its trimmed stdout (10 s limit,
//   stderr ignored); empty output or a failure gives no value;
// - otherwise: the environment variable of that name if set and non-empty,
//   else the text itself as a literal.
// Difference from pi: the command runs asynchronously (pi blocks), and pi
// caches command output for auth.json keys for the process lifetime; we run it
// each time a key is resolved.

import { exec } from "node:child_process";

export interface ConfigValueOptions {
  /** Environment to read variables from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Allow "!command" values; default true (pi runs them). */
  allowCommands?: boolean;
}

export type ConfigValueResult =
  | { ok: true; value: string; source: "command" | "environment" | "literal" }
  | { ok: false; reason: "command-failed" | "commands-disabled" };

const COMMAND_TIMEOUT_MS = 10_000;

export function isCommandValue(config: string): boolean {
  return config.startsWith("!");
}

export async function resolveConfigValue(config: string, options: ConfigValueOptions = {}): Promise<ConfigValueResult> {
  if (isCommandValue(config)) {
    if (options.allowCommands === false) return { ok: false, reason: "commands-disabled" };
    const output = await runCommand(config.slice(1));
    return output === undefined ? { ok: false, reason: "command-failed" } : { ok: true, value: output, source: "command" };
  }
  const env = options.env ?? process.env;
  const fromEnv = env[config];
  if (fromEnv) return { ok: true, value: fromEnv, source: "environment" };
  return { ok: true, value: config, source: "literal" };
}

function runCommand(command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = exec(command, { encoding: "utf8", timeout: COMMAND_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      if (error) {
        resolve(undefined);
        return;
      }
      const trimmed = stdout.trim();
      resolve(trimmed === "" ? undefined : trimmed);
    });
    child.stdin?.end();
  });
}
