// The API key behind an OAuth entry of auth.json, refreshed when expired the
// way pi does it (AuthStorage.refreshOAuthTokenWithLock): take the auth.json
// lock, re-read the file (another pi may have refreshed meanwhile), refresh
// through the provider only if still expired, write the whole file back with
// the new credentials, release. If the refresh fails, read the file once more
// in case someone else succeeded.

import type { OAuthCredentials } from "@mariozechner/pi-ai/oauth";
import { checkAuthData, credentialFor, readAuthJson } from "./auth-json.js";
import type { OAuthCredential } from "./auth-json.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { withFileLock } from "./file-lock.js";
import type { FileLockOptions } from "./file-lock.js";
import { ModelConfigError } from "./model-config-error.js";
import { loadPiAiOAuth } from "./pi-ai-loader.js";
import { redactSecrets } from "./redact.js";

/** The part of pi-ai's OAuthProviderInterface we use. */
export interface OAuthProviderLike {
  readonly id: string;
  refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials>;
  getApiKey(credentials: OAuthCredentials): string;
}

export type OAuthProviderLookup = (providerId: string) => Promise<OAuthProviderLike | undefined>;

export const piAiOAuthProviders: OAuthProviderLookup = async (providerId) => (await loadPiAiOAuth()).getOAuthProvider(providerId);

export interface OAuthKeyOptions {
  authFile: string;
  provider: string;
  /** The credential as first read (decides whether a refresh is needed). */
  credential: OAuthCredential;
  oauthProviders?: OAuthProviderLookup;
  now?: () => number;
  lock?: FileLockOptions;
}

function secretsOf(credential: object | undefined): string[] {
  if (!credential) return [];
  return Object.entries(credential)
    .filter(([field]) => field !== "type")
    .map(([, value]) => value)
    .filter((v): v is string => typeof v === "string");
}

/** The key for an OAuth entry, or undefined when no OAuth provider of that id exists (pi then gives up on it too). */
export async function oauthApiKey(options: OAuthKeyOptions): Promise<string | undefined> {
  const now = options.now ?? Date.now;
  const lookup = options.oauthProviders ?? piAiOAuthProviders;
  const oauthProvider = await lookup(options.provider);
  if (!oauthProvider) return undefined;
  if (now() < options.credential.expires) return oauthProvider.getApiKey(options.credential);

  let refreshError: unknown;
  try {
    const key = await withFileLock(
      options.authFile,
      async () => {
        const current = await readAuthJson(options.authFile);
        const cred = credentialFor(current, options.provider);
        if (cred?.type !== "oauth") return undefined;
        if (now() < cred.expires) return oauthProvider.getApiKey(cred);
        const refreshed = await oauthProvider.refreshToken(cred);
        const merged = { ...current, [options.provider]: { type: "oauth", ...refreshed } };
        checkAuthData(merged, options.authFile);
        await writeFileAtomic(options.authFile, JSON.stringify(merged, null, 2), 0o600);
        return oauthProvider.getApiKey(refreshed);
      },
      options.lock,
    );
    if (key !== undefined) return key;
  } catch (error) {
    if (error instanceof ModelConfigError) throw error;
    refreshError = error;
  }

  const reread = credentialFor(await readAuthJson(options.authFile), options.provider);
  if (reread?.type === "oauth" && now() < reread.expires) return oauthProvider.getApiKey(reread);

  const reason = refreshError instanceof Error ? refreshError.message : refreshError === undefined ? "the entry is gone" : String(refreshError);
  const safeReason = redactSecrets(reason, [...secretsOf(options.credential), ...secretsOf(reread)]);
  throw new ModelConfigError(
    "oauth-refresh-failed",
    `The OAuth login for "${options.provider}" in ${options.authFile} has expired and could not be refreshed (${safeReason}). Log in again with pi (/login ${options.provider}).`,
    { file: options.authFile },
  );
}
