// pi 1.5.2's semantics (`@earendil-works/pi-coding-agent` 1.5.2): the context
// projection with context edits and system messages, projected token counts and
// cut points, summaries without thinking. Modules in this folder, one concept each.

import { describePreparation } from "../../compaction/describe-preparation.js";
import { branchModel } from "../../context/context-settings.js";
import { resolveModelCompactionSettings } from "../../settings/model-compaction-settings.js";
import { resolveBranchSummarySettings } from "../../settings/resolve-settings.js";
import type { AgentSemantics } from "../agent-semantics.js";
import { piDisplayName } from "../pi-display-name.js";
import { shouldCompact } from "../../tokens/should-compact.js";
import { PI_1_5 } from "../../session/format/agent-version.js";
import { pi15ContextTokenRule } from "./context-token-rule.js";
import { contextUsage } from "./context-usage.js";
import { convertToLlm } from "./convert-to-llm.js";
import { estimateTokens } from "./estimate-tokens.js";
import { describeBranchCompaction } from "./describe-branch-compaction.js";
import { planCompaction } from "./prepare-compaction.js";
import { prepareBranchEntries } from "./prepare-branch-entries.js";
import { estimateProjectedContextTokens } from "./projected-tokens.js";
import { buildSessionProjection } from "./projection.js";
import { serializeConversation } from "./serialize-conversation.js";
import { getCurrentSystemMessage } from "./system-message.js";
import { piSummaryWriter } from "../pi-summary-writer.js";
import { piAgentParts } from "../pi-agent.js";

const contextTokens: AgentSemantics["contextTokens"] = (path) => estimateProjectedContextTokens(buildSessionProjection(path), path);

export const PI_1_5_SEMANTICS: AgentSemantics = Object.freeze({
  agent: PI_1_5,
  version: "1.5",
  buildSessionContext: (path) => {
    const { messages, thinkingLevel, model } = buildSessionProjection(path);
    return { messages, thinkingLevel, model };
  },
  convertToLlm,
  estimateTokens,
  contextTokens,
  contextUsage,
  contextTokenRule: pi15ContextTokenRule,
  planCompaction,
  describePreparation: (plan) => describePreparation(plan, { convertToLlm, serializeConversation }),
  describeBranchCompaction,
  branchModel,
  prepareBranchEntries,
  serializeConversation,
  sessionName: (facts) => facts.sessionInfoName ?? null,
  listTitle: (facts) => facts.sessionInfoName,
  displayName: piDisplayName,
  explainDiagnostic: (d) => d,
  compactionThreshold: (contextWindow, settings) => contextWindow - settings.reserveTokens,
  shouldCompact,
  currentSystemMessage: (path) => getCurrentSystemMessage(buildSessionProjection(path).messages),
  resolveCompactionSettings: resolveModelCompactionSettings,
  resolveBranchSummarySettings: (from) => resolveBranchSummarySettings(from),
  ...piAgentParts("1.5"),
  summaryWriter: piSummaryWriter({ version: "1.5", convertToLlm, serializeConversation, contextTokens }),
} satisfies AgentSemantics);
