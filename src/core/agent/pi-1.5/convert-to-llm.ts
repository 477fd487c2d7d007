// pi 1.5.2's convertToLlm (messages.js): 0.73.1's, except that system messages
// are sent (0.73 dropped them).

import { isObject, type ContextMessage } from "../../context/context-message.js";
import { convertToLlm as convertToLlm073 } from "../../context/convert-to-llm.js";
import type { LlmMessage } from "../../session/format/types.js";

export function convertToLlm(messages: readonly ContextMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) {
    if (!isObject(message)) continue;
    if (message.role === "system") out.push(message as unknown as LlmMessage);
    else out.push(...convertToLlm073([message]));
  }
  return out;
}
