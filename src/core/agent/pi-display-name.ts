// How pi names a session in its picker (session-selector: `name ?? firstMessage`,
// where SessionInfo.firstMessage is "(no messages)" when there is none).

import type { DisplayNameFacts } from "./agent-semantics.js";

export function piDisplayName(facts: DisplayNameFacts): string {
  return facts.title ?? (facts.firstMessage || "(no messages)");
}
