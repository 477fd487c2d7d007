// The thinking level and model of a branch, as pi's buildSessionContext (0.73.1)
// and getSessionContextSettings (1.5.2) find them: the last change on it, an
// assistant's provider/model counting as a model change.

import type { ContextModel } from "./context-model.js";
import { messageOf } from "./context-message.js";
import type { MessageEntry, ModelChangeEntry, SessionEntry } from "../session/format/types.js";
import type { BranchReader } from "./branch-reader.js";

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

/** contextSettings(path).model of a branch read lazily: the newest model change or assistant answer (only those bodies are parsed). */
export function branchModel(branch: BranchReader): ContextModel | null {
  for (let i = branch.length - 1; i >= 0; i--) {
    const type = branch.typeAt(i);
    if (type === "model_change") {
      const entry = branch.entry(i) as ModelChangeEntry;
      return { provider: entry.provider, modelId: entry.modelId };
    }
    if (type !== "message") continue;
    const message = messageOf(branch.entry(i) as MessageEntry);
    if (message?.role === "assistant") return { provider: message.provider as string, modelId: message.model as string };
  }
  return null;
}
