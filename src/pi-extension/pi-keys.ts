// The keys pi itself resolves (auth.json, OAuth it refreshed, environment), by
// provider, for the models a summary may use: the presets' and the session's.
// They win over our own reading of the same files. A provider pi has no key
// for is left to our own resolution.

import type { SessionEntry } from "../core/session/format/types.js";
import { readPiSessionsConfig } from "../core/summarize/pi-sessions-config.js";
import { sessionModel } from "../core/context/session-model.js";
import type { PiContext } from "./pi-shapes.js";

export async function piKeys(ctx: PiContext, agentDir: string, pathEntries: readonly SessionEntry[]): Promise<Record<string, string>> {
  const getKey = ctx.modelRegistry?.getApiKeyForProvider?.bind(ctx.modelRegistry);
  if (!getKey) return {};
  const providers = new Set<string>();
  const session = sessionModel(pathEntries).model;
  if (session) providers.add(session.provider);
  if (ctx.model) providers.add(ctx.model.provider);
  const config = await readPiSessionsConfig(agentDir).catch(() => undefined);
  for (const preset of Object.values(config?.presets ?? {})) {
    const slash = preset.model.indexOf("/");
    if (slash > 0) providers.add(preset.model.slice(0, slash));
  }
  const keys: Record<string, string> = {};
  for (const provider of providers) {
    try {
      const key = await getKey(provider);
      if (key) keys[provider] = key;
    } catch {
      // pi has no key for it: our own resolution decides.
    }
  }
  return keys;
}
