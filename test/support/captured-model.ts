// pi-ai's own in-process faux provider (registerFauxProvider, part of
// @mariozechner/pi-ai), used so pi's real summary functions run end to end and
// the exact request they send can be compared. No network; nothing mocked in pi.

import { fauxAssistantMessage, registerFauxProvider, type Context, type Model } from "@mariozechner/pi-ai";

export interface CapturedCall {
  systemPrompt: string | undefined;
  userText: string;
  maxTokens: number | undefined;
  reasoning: unknown;
}

export interface CapturingModel {
  model: Model<string>;
  calls: CapturedCall[];
  unregister(): void;
}

/** Each call is answered by `answer(userText)`; every request is recorded. */
export function captureModel(answer: (userText: string) => string, contextWindow = 128000): CapturingModel {
  const calls: CapturedCall[] = [];
  const faux = registerFauxProvider({ models: [{ id: "capture-1", contextWindow, maxTokens: 32000 }] });
  const respond = (context: Context, options: unknown) => {
    const first = context.messages[0];
    const block = first && Array.isArray(first.content) ? first.content[0] : undefined;
    const userText = block && block.type === "text" ? block.text : "";
    const opts = (options ?? {}) as { maxTokens?: number; reasoning?: unknown };
    calls.push({ systemPrompt: context.systemPrompt, userText, maxTokens: opts.maxTokens, reasoning: opts.reasoning });
    return fauxAssistantMessage(answer(userText));
  };
  faux.setResponses(Array.from({ length: 100 }, () => respond));
  return { model: faux.getModel(), calls, unregister: () => faux.unregister() };
}
