// omp's logins, by omp's own code (runs in the oracle worker under Bun): the
// credentials are stored in `<agentDir>/agent.db` by omp's AuthStorage
// (`storeLoginApiKey` as `/login` stores a key, `credentials.set` for the
// others), then omp says which key it would send for each provider
// (`AuthStorage.keys.get`), with the given environment variables set.

import type { Json, Omp } from "./omp-modules.js";

export interface StoredLogin {
  provider: string;
  /** "login": a key as `/login` stores it; "key": a stored key; "oauth": a token. */
  kind: "login" | "key" | "oauth";
  key?: string;
  access?: string;
  expires?: number;
}

export interface LoginKeysArgs {
  agentDir: string;
  logins: StoredLogin[];
  /** Providers to ask omp about (never one whose only login is an expired token: omp would try to refresh it). */
  providers: string[];
  /** Environment variables set while omp answers (removed after). */
  env?: Record<string, string>;
}

export async function loginKeys(omp: Omp, args: LoginKeysArgs): Promise<Json> {
  const discover = await omp.module("@oh-my-pi/pi-ai/auth-broker/discover");
  const auth = await discover.discoverAuthStorage({ agentDir: args.agentDir });
  const saved = new Map<string, string | undefined>();
  try {
    const byProvider = new Map<string, StoredLogin[]>();
    for (const login of args.logins) byProvider.set(login.provider, [...(byProvider.get(login.provider) ?? []), login]);
    for (const [provider, logins] of byProvider) {
      const others = logins.filter((l) => l.kind !== "login");
      if (others.length > 0) {
        await auth.credentials.set(
          provider,
          others.map((l) => (l.kind === "key" ? { type: "api_key", key: l.key } : { type: "oauth", access: l.access, refresh: "refresh-token", expires: l.expires })),
        );
      }
      for (const l of logins) if (l.kind === "login") await auth.credentials.storeLoginApiKey(provider, l.key);
    }
    for (const [name, value] of Object.entries(args.env ?? {})) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
    const keys: Record<string, string | null> = {};
    for (const provider of args.providers) keys[provider] = (await auth.keys.get(provider)) ?? null;
    return { keys };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    auth.close?.();
  }
}
