// pi 0.73.1's semantics: the core's original modules, proven equal to pi 0.73.1
// by test/unit/session/pi-differential.test.ts.

import { prepareBranchEntries } from "../../branch/prepare-branch-entries.js";
import { describeBranchCompaction } from "../../compaction/describe-branch-compaction.js";
import { describePreparation } from "../../compaction/describe-preparation.js";
import { planCompaction } from "../../compaction/prepare-compaction.js";
import { serializeConversation } from "../../compaction/serialize-conversation.js";
import { buildContextFromPath } from "../../context/build-session-context.js";
import { branchModel } from "../../context/context-settings.js";
import { convertToLlm } from "../../context/convert-to-llm.js";
import { resolveBranchSummarySettings, resolveCompactionSettings } from "../../settings/resolve-settings.js";
import { estimateContextTokens } from "../../tokens/context-tokens.js";
import { pi073ContextTokenRule } from "../../tokens/context-token-rule.js";
import { contextUsage } from "../../tokens/context-usage.js";
import { estimateTokens } from "../../tokens/estimate-tokens.js";
import type { AgentSemantics } from "../agent-semantics.js";
import { piDisplayName } from "../pi-display-name.js";
import { shouldCompact } from "../../tokens/should-compact.js";
import { PI_0_73 } from "../../session/format/agent-version.js";
import { piSummaryWriter } from "../pi-summary-writer.js";
import { piAgentParts } from "../pi-agent.js";

const contextTokens: AgentSemantics["contextTokens"] = (path) => estimateContextTokens(buildContextFromPath(path).messages);

export const PI_0_73_SEMANTICS: AgentSemantics = Object.freeze({
  agent: PI_0_73,
  version: "0.73",
  buildSessionContext: buildContextFromPath,
  convertToLlm,
  estimateTokens,
  contextTokens,
  contextUsage,
  contextTokenRule: pi073ContextTokenRule,
  planCompaction,
  describePreparation: (plan) => describePreparation(plan),
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
  currentSystemMessage: () => undefined,
  resolveCompactionSettings: (from) => resolveCompactionSettings(from),
  resolveBranchSummarySettings: (from) => resolveBranchSummarySettings(from),
  ...piAgentParts("0.73"),
  summaryWriter: piSummaryWriter({ version: "0.73", convertToLlm, serializeConversation, contextTokens }),
} satisfies AgentSemantics);
