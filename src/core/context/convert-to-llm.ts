// pi's convertToLlm (messages.js): session messages → what the model sees.
// user/assistant/toolResult pass through as the same objects; bashExecution,
// custom and both summary kinds become user messages; excluded bash runs and
// unknown roles are dropped.

import type { BashExecutionMessage, ImageContent, LlmMessage, TextContent } from "../session/format/types.js";
import { bashExecutionToText } from "./bash-execution-text.js";
import { isObject, type ContextMessage } from "./context-message.js";
import {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
} from "./message-wrappers.js";

export function convertToLlm(messages: readonly ContextMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const m of messages) {
    // pi throws on a non-object here; a junk array element is skipped instead.
    if (!isObject(m)) continue;
    const converted = convertOne(m);
    if (converted !== undefined) out.push(converted);
  }
  return out;
}

function convertOne(m: ContextMessage): LlmMessage | undefined {
  const timestamp = m.timestamp as number;
  switch (m.role) {
    case "bashExecution": {
      const bash = m as BashExecutionMessage;
      if (bash.excludeFromContext) return undefined;
      return { role: "user", content: [{ type: "text", text: bashExecutionToText(bash) }], timestamp };
    }
    case "custom": {
      const content = m.content as (TextContent | ImageContent)[] | string;
      return {
        role: "user",
        content: typeof content === "string" ? [{ type: "text", text: content }] : content,
        timestamp,
      };
    }
    case "branchSummary":
      return {
        role: "user",
        content: [{ type: "text", text: BRANCH_SUMMARY_PREFIX + String(m.summary) + BRANCH_SUMMARY_SUFFIX }],
        timestamp,
      };
    case "compactionSummary":
      return {
        role: "user",
        content: [{ type: "text", text: COMPACTION_SUMMARY_PREFIX + String(m.summary) + COMPACTION_SUMMARY_SUFFIX }],
        timestamp,
      };
    case "user":
    case "assistant":
    case "toolResult":
      return m as LlmMessage;
    default:
      return undefined;
  }
}
