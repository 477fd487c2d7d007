// pi 1.5.2's semantics (`@earendil-works/pi-coding-agent` 1.5.2): the context
// projection with context edits and system messages, projected token counts and
// cut points, summaries without thinking. Modules in ./v1_5/, one concept each.

import { describePreparation } from "../compaction/describe-preparation.js";
import { branchModel } from "../context/context-settings.js";
import { resolveModelCompactionSettings } from "../settings/model-compaction-settings.js";
import type { PiSemantics } from "./pi-semantics.js";
import { pi15ContextTokenRule } from "./v1_5/context-token-rule.js";
import { contextUsage } from "./v1_5/context-usage.js";
import { convertToLlm } from "./v1_5/convert-to-llm.js";
import { estimateTokens } from "./v1_5/estimate-tokens.js";
import { describeBranchCompaction } from "./v1_5/describe-branch-compaction.js";
import { planCompaction } from "./v1_5/prepare-compaction.js";
import { prepareBranchEntries } from "./v1_5/prepare-branch-entries.js";
import { estimateProjectedContextTokens } from "./v1_5/projected-tokens.js";
import { buildSessionProjection } from "./v1_5/projection.js";
import { serializeConversation } from "./v1_5/serialize-conversation.js";
import { getCurrentSystemMessage } from "./v1_5/system-message.js";

export const PI_1_5_SEMANTICS: PiSemantics = Object.freeze({
  version: "1.5",
  buildSessionContext: (path) => {
    const { messages, thinkingLevel, model } = buildSessionProjection(path);
    return { messages, thinkingLevel, model };
  },
  convertToLlm,
  estimateTokens,
  contextTokens: (path) => estimateProjectedContextTokens(buildSessionProjection(path), path),
  contextUsage,
  contextTokenRule: pi15ContextTokenRule,
  planCompaction,
  describePreparation: (plan) => describePreparation(plan, { convertToLlm, serializeConversation }),
  describeBranchCompaction,
  branchModel,
  prepareBranchEntries,
  serializeConversation,
  currentSystemMessage: (path) => getCurrentSystemMessage(buildSessionProjection(path).messages),
  resolveCompactionSettings: resolveModelCompactionSettings,
} satisfies PiSemantics);
