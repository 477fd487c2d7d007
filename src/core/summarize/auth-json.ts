// <agent-dir>/auth.json as pi stores it (pi-coding-agent core/auth-storage.js):
// { "<provider>": {"type":"api_key","key":"..."} | {"type":"oauth","refresh","access","expires",...} }.
// pi 1.5 adds an `env` map to api_key entries (variables for `$NAME` in the
// key and headers, and for the provider's own variables) and lets `key` be
// omitted. A broken file is an error naming the file and position, never its content.

import { join } from "node:path";
import type { PiVersion } from "../session/format/pi-version.js";
import { isPlainObject, readJsonConfigFile } from "./json-config.js";
import { ModelConfigError } from "./model-config-error.js";

export interface ApiKeyCredential {
  type: "api_key";
  /** A literal, an environment variable's name (0.73) / `$NAME` template (1.5), or "!command". 1.5 may omit it. */
  key?: string;
  /** 1.5: variables read before the process environment. */
  env?: Record<string, string>;
}

export interface OAuthCredential {
  type: "oauth";
  refresh: string;
  access: string;
  /** Unix milliseconds. */
  expires: number;
  [key: string]: unknown;
}

export type AuthCredential = ApiKeyCredential | OAuthCredential;

/** Every entry as read (unknown shapes kept so a write-back preserves them). */
export type AuthData = Record<string, unknown>;

export function authJsonPath(agentDir: string): string {
  return join(agentDir, "auth.json");
}

/** The file's entries, or {} when it does not exist. */
export async function readAuthJson(file: string): Promise<AuthData> {
  const raw = await readJsonConfigFile(file);
  if (raw === undefined) return {};
  return checkAuthData(raw, file);
}

export function checkAuthData(raw: unknown, file: string): AuthData {
  if (!isPlainObject(raw)) {
    throw new ModelConfigError("invalid-config", `${file}: expected an object of provider credentials`, { file });
  }
  return raw;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return isPlainObject(value) && Object.values(value).every((v) => typeof v === "string");
}

/** The entry for a provider when it is one the pi version understands; undefined otherwise. */
export function credentialFor(data: AuthData, provider: string, piVersion: PiVersion = "0.73"): AuthCredential | undefined {
  const entry = data[provider];
  if (!isPlainObject(entry)) return undefined;
  if (entry.type === "api_key") {
    if (piVersion === "0.73") return typeof entry.key === "string" ? { type: "api_key", key: entry.key } : undefined;
    const keyOk = entry.key === undefined || typeof entry.key === "string";
    const envOk = entry.env === undefined || isStringMap(entry.env);
    if (!keyOk || !envOk) return undefined;
    return { type: "api_key", ...(typeof entry.key === "string" ? { key: entry.key } : {}), ...(entry.env ? { env: entry.env as Record<string, string> } : {}) };
  }
  if (entry.type === "oauth" && typeof entry.expires === "number") return entry as unknown as OAuthCredential;
  return undefined;
}
