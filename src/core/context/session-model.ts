// The model and thinking level a session is using at the end of a path, as
// pi's buildSessionContext computes them: the later of the last model_change
// and the last assistant message's provider/model; the last
// thinking_level_change (default "off"). Unlike pi, an assistant message or
// model_change without string provider/model is skipped instead of producing
// an undefined model.

import type { SessionEntry } from "../session/format/types.js";

export interface SessionModelRef {
  provider: string;
  modelId: string;
}

export interface SessionModel {
  model: SessionModelRef | null;
  /** As written in the session (pi writes one of off…xhigh; kept verbatim). */
  thinkingLevel: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

export function sessionModel(pathEntries: readonly SessionEntry[]): SessionModel {
  let model: SessionModelRef | null = null;
  let thinkingLevel = "off";
  for (const entry of pathEntries) {
    const e = entry as unknown as Record<string, unknown>;
    if (e.type === "thinking_level_change") {
      if (typeof e.thinkingLevel === "string") thinkingLevel = e.thinkingLevel;
    } else if (e.type === "model_change") {
      if (typeof e.provider === "string" && typeof e.modelId === "string") model = { provider: e.provider, modelId: e.modelId };
    } else if (e.type === "message" && isRecord(e.message) && e.message.role === "assistant") {
      const { provider, model: id } = e.message;
      if (typeof provider === "string" && typeof id === "string") model = { provider, modelId: id };
    }
  }
  return { model, thinkingLevel };
}
