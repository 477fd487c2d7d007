// pi's resolveConfigValue for apiKey and header values in models.json and
// keys in auth.json, in the syntax of the pi version the user runs:
// - both: "!command" runs the command in a shell and uses its trimmed stdout
//   (10 s limit, stderr ignored); empty output or a failure gives no value;
// - 0.73 (pi-coding-agent 0.73.1): otherwise the environment variable of that
//   name if set and non-empty, else the text itself as a literal;
// - 1.5 (pi-coding-agent 1.5.2): otherwise a literal with `$NAME` / `${NAME}`
//   interpolation, `$$` → `$`, `$!` → `!` (config-template.ts); an unset
//   variable leaves the value unresolved.
// Difference from pi: the command runs asynchronously (pi blocks), and pi
// caches command output for auth.json keys for the process lifetime; we run it
// each time a key is resolved.

import { exec } from "node:child_process";
import type { PiVersion } from "../session/format/pi-version.js";
import { resolveConfigTemplate } from "./config-template.js";

/** Which pi's rules a config value is read with: the session's pi version. */
export type ConfigSyntax = PiVersion;

export interface ConfigValueOptions {
  /** Default "0.73". */
  syntax?: ConfigSyntax;
  /** Environment to read variables from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** 1.5: an auth.json credential's `env` map, read before the environment. */
  credentialEnv?: Readonly<Record<string, string>>;
  /** Allow "!command" values; default true (pi runs them). */
  allowCommands?: boolean;
}

export type ConfigValueResult =
  | { ok: true; value: string; source: "command" | "environment" | "literal" }
  | { ok: false; reason: "command-failed" | "commands-disabled" }
  | { ok: false; reason: "unset-variable"; variables: string[] };

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
  if (options.syntax === "1.5") {
    const resolved = resolveConfigTemplate(config, options.credentialEnv, env);
    if (!resolved.ok) return { ok: false, reason: "unset-variable", variables: resolved.unset };
    return { ok: true, value: resolved.value, source: resolved.interpolated ? "environment" : "literal" };
  }
  const fromEnv = env[config];
  if (fromEnv) return { ok: true, value: fromEnv, source: "environment" };
  return { ok: true, value: config, source: "literal" };
}

/** Why a value did not resolve, in words (never the value itself: it may be a key). */
export function unresolvedReason(result: Extract<ConfigValueResult, { ok: false }>): string {
  switch (result.reason) {
    case "commands-disabled":
      return "is a !command, and running commands is disabled here";
    case "command-failed":
      return "is a !command that failed or printed nothing";
    case "unset-variable":
      return `names the environment variable${result.variables.length > 1 ? "s" : ""} ${result.variables.join(", ")}, which ${result.variables.length > 1 ? "are" : "is"} not set`;
  }
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
