// <agent-dir>/auth.json as pi stores it (pi-coding-agent core/auth-storage.js):
// { "<provider>": {"type":"api_key","key":"..."} | {"type":"oauth","refresh","access","expires",...} }.
// A broken file is an error naming the file and position, never its content.

import { join } from "node:path";
import { isPlainObject, readJsonConfigFile } from "./json-config.js";
import { ModelConfigError } from "./model-config-error.js";

export interface ApiKeyCredential {
  type: "api_key";
  /** A literal, an environment variable's name, or "!command", as pi's resolveConfigValue reads it. */
  key: string;
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

/** The entry for a provider when it is one pi understands; undefined otherwise. */
export function credentialFor(data: AuthData, provider: string): AuthCredential | undefined {
  const entry = data[provider];
  if (!isPlainObject(entry)) return undefined;
  if (entry.type === "api_key" && typeof entry.key === "string") return entry as unknown as ApiKeyCredential;
  if (entry.type === "oauth" && typeof entry.expires === "number") return entry as unknown as OAuthCredential;
  return undefined;
}
