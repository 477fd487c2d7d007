// The thinking level and model of a branch, as pi's buildSessionContext (0.73.1)
// and getSessionContextSettings (1.5.2) find them: the last change on it, an
// assistant's provider/model counting as a model change.

import type { ContextModel } from "./build-session-context.js";
import { messageOf } from "./context-message.js";
import type { SessionEntry } from "../session/types.js";

export function contextSettings(path: readonly SessionEntry[]): { thinkingLevel: string; model: ContextModel | null } {
  let thinkingLevel = "off";
  let model: ContextModel | null = null;
  for (const entry of path) {
    if (entry.type === "thinking_level_change") {
      thinkingLevel = entry.thinkingLevel;
    } else if (entry.type === "model_change") {
      model = { provider: entry.provider, modelId: entry.modelId };
    } else if (entry.type === "message") {
      const message = messageOf(entry);
      if (message?.role === "assistant") model = { provider: message.provider as string, modelId: message.model as string };
    }
  }
  return { thinkingLevel, model };
}
