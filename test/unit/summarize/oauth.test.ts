// OAuth entries of auth.json: refreshed when expired, written back under the
// auth.json lock. pi-ai's OAuth providers refresh against fixed https URLs
// (platform.claude.com, auth.openai.com, api.<github domain>), which cannot be
// pointed at the loopback server, so the provider's refresh function is
// injected here; the lock, the file handling and the write-back are real, and
// the lock is checked against the real proper-lockfile that pi uses.

import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OAuthCredentials } from "@mariozechner/pi-ai/oauth";
import { resolveRequestAuth } from "../../../src/core/summarize/auth.js";
import { withFileLock } from "../../../src/core/summarize/file-lock.js";
import { ModelConfigError } from "../../../src/core/summarize/model-config-error.js";
import { loadModelSetup } from "../../../src/core/summarize/model-setup.js";
import type { OAuthProviderLike, OAuthProviderLookup } from "../../../src/core/summarize/oauth.js";

const require = createRequire(import.meta.url);
const properLockfile = require("proper-lockfile") as {
  check(file: string, options?: object): Promise<boolean>;
  lock(file: string, options?: object): Promise<() => Promise<void>>;
};

let agentDir: string;
let authFile: string;
const NOW = 1_750_000_000_000;
const HOUR = 3_600_000;

beforeEach(async () => {
  agentDir = await mkdtemp(join(tmpdir(), "pi-sessions-oauth-"));
  authFile = join(agentDir, "auth.json");
  vi.stubEnv("ANTHROPIC_API_KEY", "");
  vi.stubEnv("ANTHROPIC_OAUTH_TOKEN", "");
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(agentDir, { recursive: true, force: true });
});

const expired = { type: "oauth", refresh: "refresh-old-123", access: "access-old-123", expires: NOW - HOUR };
const other = { openai: { type: "api_key", key: "OTHER_KEY" } };

interface FakeProvider extends OAuthProviderLike {
  refreshCalls: number;
  lockHeldDuringRefresh: boolean[];
}

function fakeProvider(refresh: (c: OAuthCredentials) => Promise<OAuthCredentials>): FakeProvider {
  const provider: FakeProvider = {
    id: "anthropic",
    refreshCalls: 0,
    lockHeldDuringRefresh: [],
    async refreshToken(credentials) {
      provider.refreshCalls++;
      provider.lockHeldDuringRefresh.push(existsSync(`${authFile}.lock`) && statSync(`${authFile}.lock`).isDirectory());
      return refresh(credentials);
    },
    getApiKey: (credentials) => credentials.access,
  };
  return provider;
}

const lookupFor =
  (provider: OAuthProviderLike): OAuthProviderLookup =>
  async (id) =>
    id === provider.id ? provider : undefined;

async function keyFor(provider: OAuthProviderLike | undefined, lock = {}): Promise<string> {
  const setup = await loadModelSetup({ agentDir, oauthProviders: provider ? lookupFor(provider) : undefined, now: () => NOW, lock });
  const model = setup.registry.find("anthropic", "claude-3-5-haiku-20241022");
  if (!model) throw new Error("model missing");
  const auth = await resolveRequestAuth(model, setup);
  return auth.apiKey;
}

describe("expired OAuth entry", () => {
  it("is refreshed under the lock and written back as pi writes it, mode 0600, other entries kept", async () => {
    await writeFile(authFile, JSON.stringify({ ...other, anthropic: expired }), { mode: 0o644 });
    const provider = fakeProvider(async (c) => ({ ...c, refresh: "refresh-new", access: "access-new", expires: NOW + HOUR }));
    expect(await keyFor(provider)).toBe("access-new");
    expect(provider.refreshCalls).toBe(1);
    expect(provider.lockHeldDuringRefresh).toEqual([true]);
    const written = await readFile(authFile, "utf8");
    const expected = { ...other, anthropic: { type: "oauth", refresh: "refresh-new", access: "access-new", expires: NOW + HOUR } };
    expect(written).toBe(JSON.stringify(expected, null, 2));
    expect((await stat(authFile)).mode & 0o777).toBe(0o600);
    expect(existsSync(`${authFile}.lock`)).toBe(false);
  });

  it("two refreshes at once call the provider once: the second reads what the first wrote", async () => {
    await writeFile(authFile, JSON.stringify({ anthropic: expired }));
    const provider = fakeProvider(async (c) => {
      await new Promise((r) => setTimeout(r, 50));
      return { ...c, access: "access-once", expires: NOW + HOUR };
    });
    const keys = await Promise.all([keyFor(provider), keyFor(provider)]);
    expect(keys).toEqual(["access-once", "access-once"]);
    expect(provider.refreshCalls).toBe(1);
  });

  it("waits while pi (proper-lockfile) holds the lock", async () => {
    await writeFile(authFile, JSON.stringify({ anthropic: expired }));
    const release = await properLockfile.lock(authFile, { stale: 30_000 });
    const provider = fakeProvider(async (c) => ({ ...c, access: "after-pi", expires: NOW + HOUR }));
    let done = false;
    const pending = keyFor(provider).then((k) => {
      done = true;
      return k;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(done).toBe(false);
    expect(provider.refreshCalls).toBe(0);
    await release();
    expect(await pending).toBe("after-pi");
  });

  it("our lock is seen as held by proper-lockfile (pi waits for us)", async () => {
    await writeFile(authFile, "{}");
    const seen = await withFileLock(authFile, () => properLockfile.check(authFile, { stale: 30_000 }));
    expect(seen).toBe(true);
    expect(await properLockfile.check(authFile, { stale: 30_000 })).toBe(false);
  });

  it("takes over a stale lock", async () => {
    await writeFile(authFile, JSON.stringify({ anthropic: expired }));
    await mkdir(`${authFile}.lock`);
    const old = new Date(Date.now() - 120_000);
    await utimes(`${authFile}.lock`, old, old);
    const provider = fakeProvider(async (c) => ({ ...c, access: "after-stale", expires: NOW + HOUR }));
    expect(await keyFor(provider)).toBe("after-stale");
  });

  it("gives up on a live lock after the timeout with a clear error", async () => {
    await writeFile(authFile, JSON.stringify({ anthropic: expired }));
    await mkdir(`${authFile}.lock`);
    const provider = fakeProvider(async (c) => c);
    const error = await keyFor(provider, { timeoutMs: 200 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as ModelConfigError).code).toBe("lock-timeout");
    expect(provider.refreshCalls).toBe(0);
  });

  it("a failed refresh is an error without the tokens, and leaves auth.json untouched", async () => {
    const before = JSON.stringify({ anthropic: expired });
    await writeFile(authFile, before);
    const provider = fakeProvider(async () => {
      throw new Error(`invalid_grant: refresh token refresh-old-123 (access access-old-123) revoked`);
    });
    const error = await keyFor(provider).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelConfigError);
    const { code, message } = error as ModelConfigError;
    expect(code).toBe("oauth-refresh-failed");
    expect(message).toContain("invalid_grant");
    expect(message).toContain(authFile);
    expect(message).not.toContain("refresh-old-123");
    expect(message).not.toContain("access-old-123");
    expect(await readFile(authFile, "utf8")).toBe(before);
  });
});

describe("valid OAuth entry", () => {
  it("is used as is, through pi-ai's own provider, without a refresh or a lock", async () => {
    const valid = { type: "oauth", refresh: "r", access: "sk-ant-oat-valid-access", expires: NOW + HOUR };
    await writeFile(authFile, JSON.stringify({ anthropic: valid }));
    // Default lookup: pi-ai's anthropic OAuth provider (its getApiKey returns the access token).
    expect(await keyFor(undefined)).toBe("sk-ant-oat-valid-access");
    expect(existsSync(`${authFile}.lock`)).toBe(false);
  });
});
