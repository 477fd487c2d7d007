// Provider ids that differ between pi versions. pi 1.5 calls pi-ai's
// "azure-openai-responses" provider "azure" (in models.json, auth.json and
// session entries); pi-ai 0.73.1, our model layer, still knows the old id.

import type { PiVersion } from "../session/format/pi-version.js";

const RENAMED_IN_1_5: Readonly<Record<string, string>> = { "azure-openai-responses": "azure" };
const PI_AI_ID: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(RENAMED_IN_1_5).map(([old, now]) => [now, old]));

/** The id the user's pi shows for one of pi-ai 0.73.1's providers. */
export function userProviderId(piAiProvider: string, piVersion: PiVersion): string {
  return piVersion === "1.5" ? (RENAMED_IN_1_5[piAiProvider] ?? piAiProvider) : piAiProvider;
}

/** pi-ai 0.73.1's id for a provider as the user's pi names it. */
export function piAiProviderId(provider: string, piVersion: PiVersion): string {
  return piVersion === "1.5" ? (PI_AI_ID[provider] ?? provider) : provider;
}
