// oh-my-pi (omp) 18.3.4's semantics as the seam's strategy: omp's
// buildSessionContext + convertToLlm (reset boundaries, omp's wrappers,
// snapcompact archives with frames from the blob store, dropped failed turns,
// dangling tool calls), omp's byte-per-fragment token estimate, omp's
// usage-calibrated prepareCompaction, omp's branch preparation, and settings
// from omp's config.yml files. One object per blob store (an agent dir):
// entries are read as omp loads them (blob refs resolved, on copies).

import type { BranchReader } from "../../context/branch-reader.js";
import type { ContextMessage } from "../../context/context-message.js";
import type { ContextModel } from "../../context/context-model.js";
import type { LlmMessage, SessionEntry } from "../../session/format/types.js";
import { OMP_18, OMP_RELEASE } from "../../session/format/agent-version.js";
import type { CompactionSettings } from "../../settings/compaction-settings.js";
import type { AgentSemantics } from "../agent-semantics.js";
import { blobStoreAt, entryAsLoaded, lazyFrameData, type OmpBlobStore } from "./blob-store.js";
import { ompPrepareBranchEntries } from "./branch-preparation.js";
import { ompBuildSessionContext, type OmpContextOptions } from "./build-session-context.js";
import { ompContextTokenRule } from "./context-token-rule.js";
import { ompContextUsage } from "./context-usage.js";
import { ompConvertToLlm } from "./convert-to-llm.js";
import { ompDiagnostic } from "./diagnostics.js";
import { describeOmpPlan, ompPlan } from "./describe-preparation.js";
import { describeOmpBranchCompaction } from "./describe-branch-compaction.js";
import { ompContextPath } from "./context-path.js";
import type { OmpMessage } from "./messages.js";
import { calculateContextTokens, getLastAssistantUsage, ompPrepareCompaction } from "./prepare-compaction.js";
import { ompSerializeConversation } from "./serialize-conversation.js";
import { ompDisplayName } from "./session-name.js";
import { asOmpSettings, resolveOmpBranchSummarySettings, resolveOmpCompactionSettings, resolveThresholdTokens, shouldCompact, OMP_DEFAULT_COMPACTION_SETTINGS } from "./settings.js";
import { countMessageTokens, hasNativeTokenizer } from "./tokenizer.js";
import { ompSummaryWriter } from "./summary-writer.js";
import { OMP_FORK_WRITER } from "./fork-writer.js";
import { OMP_RENAME_WRITER } from "./rename-writer.js";
import { defaultOmpDirs } from "./agent-dir.js";
import { settingsInput, type AgentConfigs } from "../agent-configs.js";

/** "provider/id" → {provider, modelId} (split at the first slash). */
export function modelOfKey(key: string | undefined): ContextModel | null {
  if (key === undefined) return null;
  const slash = key.indexOf("/");
  return slash < 0 ? { provider: key, modelId: "" } : { provider: key.slice(0, slash), modelId: key.slice(slash + 1) };
}

/**
 * omp's default model of a branch (the last default-role model_change, else the
 * latest assistant message), read lazily: model changes newest first, then the
 * newest assistant message.
 */
export function ompBranchModel(branch: BranchReader, loaded: (entry: SessionEntry) => OmpMessage): ContextModel | null {
  for (let i = branch.length - 1; i >= 0; i--) {
    if (branch.typeAt(i) !== "model_change") continue;
    const entry = loaded(branch.entry(i));
    if (entry.model && (entry.role ?? "default") === "default") return modelOfKey(entry.model);
  }
  for (let i = branch.length - 1; i >= 0; i--) {
    if (branch.typeAt(i) !== "message") continue;
    const message = loaded(branch.entry(i)).message;
    if (message?.role === "assistant") return modelOfKey(`${message.provider}/${message.model}`);
  }
  return null;
}

/** omp's agent dir: the caller's, else omp's own (its overrides, from the environment). */
function agentDir(configs: AgentConfigs): string {
  return configs.omp?.agentDir ?? defaultOmpDirs().agentDir;
}

export interface OmpSemantics extends AgentSemantics {
  readonly blobs: OmpBlobStore;
  /** The entries as omp holds them after loading (blob refs resolved, on copies). */
  asLoaded(path: readonly SessionEntry[]): OmpMessage[];
  /** omp's full buildSessionContext answer (model roles, configured thinking level, mode). */
  ompContext(pathEntries: readonly SessionEntry[]): ReturnType<typeof ompBuildSessionContext>;
}

export function createOmpSemantics(blobsDir: string | undefined): OmpSemantics {
  const blobs = blobStoreAt(blobsDir);
  const options: OmpContextOptions = { resolveFrameData: (data) => lazyFrameData(blobs, data) };
  const one = (entry: SessionEntry): OmpMessage => entryAsLoaded(entry as unknown as OmpMessage, blobs);
  const asLoaded = (path: readonly SessionEntry[]): OmpMessage[] => path.map(one);
  const ompContext = (path: readonly SessionEntry[]) => ompBuildSessionContext(asLoaded(path), options);
  const plan = (path: readonly SessionEntry[], settings: CompactionSettings) => ompPlan(ompPrepareCompaction(asLoaded(path), settings.keepRecentTokens), settings);
  const contextTokens: AgentSemantics["contextTokens"] = (path) => {
    const usage = getLastAssistantUsage(asLoaded(path));
    const tokens = usage ? calculateContextTokens(usage) : 0;
    return { tokens, usageTokens: tokens, trailingTokens: 0, lastUsageIndex: null };
  };
  const convertToLlm: AgentSemantics["convertToLlm"] = (messages) => ompConvertToLlm(messages as readonly OmpMessage[]) as LlmMessage[];
  const serializeConversation: AgentSemantics["serializeConversation"] = (messages) => ompSerializeConversation(messages as readonly OmpMessage[]);
  const semantics: OmpSemantics = {
    agent: OMP_18,
    // omp's format descends from pi 0.7x (branch summaries' fromId, compaction ranges): pi's 0.73 rules where a pi version is asked.
    version: "0.73",
    blobs,
    asLoaded,
    ompContext,
    buildSessionContext(path) {
      const context = ompContext(path);
      return { messages: context.messages as ContextMessage[], thinkingLevel: context.thinkingLevel, model: modelOfKey(context.models.default) };
    },
    convertToLlm,
    estimateTokens: (message) => countMessageTokens(message as OmpMessage),
    contextTokens,
    contextUsage: (path) => ompContextUsage(asLoaded(path), options),
    contextTokenRule: ompContextTokenRule(options, one),
    planCompaction: plan,
    describePreparation: describeOmpPlan,
    describeBranchCompaction: (branch: BranchReader, settings) => describeOmpBranchCompaction(branch, settings.keepRecentTokens, one),
    branchModel: (branch: BranchReader) => ompBranchModel(branch, one),
    contextPath: (branch: BranchReader) => ompContextPath(branch, one),
    prepareBranchEntries(entries, tokenBudget) {
      const prepared = ompPrepareBranchEntries(asLoaded(entries), tokenBudget);
      const f = prepared.fileOps;
      return {
        messages: prepared.messages as ContextMessage[],
        fileOps: { read: [...f.read].sort(), written: [...f.written].sort(), edited: [...f.edited].sort() },
        totalTokens: prepared.totalTokens,
      };
    },
    serializeConversation,
    summaryWriter: ompSummaryWriter({ convertToLlm, contextTokens, asLoaded, buildSessionContext: (path) => { const context = ompContext(path); return { messages: context.messages as ContextMessage[], thinkingLevel: context.thinkingLevel, model: modelOfKey(context.models.default) }; } }),
    currentSystemMessage: () => undefined,
    resolveCompactionSettings(from) {
      if ("layers" in from) return { settings: { ...OMP_DEFAULT_COMPACTION_SETTINGS }, sources: {} as never, diagnostics: [] };
      return resolveOmpCompactionSettings(from);
    },
    resolveBranchSummarySettings: (from) => resolveOmpBranchSummarySettings(from as never),
    tokenCountsExact: (model) => !hasNativeTokenizer(model),
    explainDiagnostic: ompDiagnostic,
    compactionThreshold: (contextWindow, settings) => resolveThresholdTokens(contextWindow, asOmpSettings(settings)),
    shouldCompact: (tokens, contextWindow, settings) => shouldCompact(tokens, contextWindow, asOmpSettings(settings)),
    // omp's title: the slot's (an empty one means none and hides the header's, as its /resume list reads it), else the header's; pi's session_info is not read.
    sessionName: (facts) => {
      if (facts.titleSlot) return facts.titleSlot.title.trim() || null;
      const title = (facts.header as { title?: unknown } | null)?.title;
      return typeof title === "string" && title ? title : null;
    },
    listTitle: (facts) => facts.ompListTitle,
    displayName: (facts) => ompDisplayName(facts, facts.modified),
    forkWriter: OMP_FORK_WRITER,
    renameWriter: OMP_RENAME_WRITER,
    agentDir,
    settingsFrom: (configs, cwd, trustProject) => settingsInput(agentDir(configs), configs.omp, cwd, trustProject),
    modelDirs: (configs) => ({ agentDir: configs.pi.agentDir, ompAgentDir: agentDir(configs) }),
    fallbackCompactionSettings: () => ({ ...OMP_DEFAULT_COMPACTION_SETTINGS }),
    tags: Object.freeze({ agent: "omp" }),
    listTag: "omp",
    readingNote: (reason) => `an oh-my-pi session (omp ${OMP_RELEASE}: ${reason})`,
  };
  return Object.freeze(semantics);
}
