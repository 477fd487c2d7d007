// The session semantics of one pi version, as one object: every caller (CLI,
// runners, extension) picks it once per session (`semanticsFor(version)`) and
// asks it, instead of branching on the version itself. All functions take
// plain root→leaf `SessionEntry[]` paths, as pi's own functions do, so each can
// be compared with that pi version one to one.

import type { PreparedBranchEntries } from "../branch/prepare-branch-entries.js";
import type { BranchPreparationJson } from "../compaction/describe-branch-compaction.js";
import type { CompactionPlan } from "../compaction/prepare-compaction.js";
import type { PreparationJson } from "../compaction/describe-preparation.js";
import type { ContextMessage } from "../context/context-message.js";
import type { BranchReader } from "../context/branch-reader.js";
import type { ContextModel, SessionContext } from "../context/build-session-context.js";
import type { LlmMessage, SessionEntry, SystemMessage } from "../session/format/types.js";
import type { BranchSummarySettings, CompactionSettings } from "../settings/compaction-settings.js";
import type { LoadedSettings, LoadSettingsOptions } from "../settings/load-settings.js";
import type { ResolvedSettings } from "../settings/resolve-settings.js";
import type { ContextTokenRule } from "../tokens/context-token-rule.js";
import type { ContextTokenEstimate } from "../tokens/context-tokens.js";
import type { ContextUsage } from "../tokens/context-usage.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { Diagnostic } from "../diagnostics.js";
import type { AgentVersion } from "../session/format/agent-version.js";
import type { SummaryWriter } from "./summary-writer.js";
import type { ForkWriter } from "./fork-writer.js";
import type { RenameWriter } from "./rename-writer.js";
import type { AgentConfigs, ModelDirs } from "./agent-configs.js";
import type { AgentName } from "../session/format/agent-version.js";

export interface AgentSemantics {
  /** Which agent and version these semantics are exact with. */
  readonly agent: AgentVersion;
  /** The pi version whose rules apply (for omp, whose format descends from pi 0.7x: "0.73"). */
  readonly version: PiVersion;
  /** pi's buildSessionContext on the branch `pathEntries` (root→leaf). */
  buildSessionContext(pathEntries: readonly SessionEntry[]): SessionContext;
  /** pi's convertToLlm: what the model is sent (1.5 passes system messages, 0.73 drops them). */
  convertToLlm(messages: readonly ContextMessage[]): LlmMessage[];
  /** pi's estimateTokens (chars / 4). */
  estimateTokens(message: ContextMessage): number;
  /**
   * The token count pi's prepareCompaction reports as `tokensBefore`:
   * 0.73 `estimateContextTokens(buildSessionContext(path).messages)`,
   * 1.5 `estimateProjectedContextTokens(projection, path)`.
   */
  contextTokens(pathEntries: readonly SessionEntry[]): ContextTokenEstimate;
  /** How full the context is, for a sidebar or status bar (pi's getContextUsage, with an estimate where pi says "unknown"). */
  contextUsage(pathEntries: readonly SessionEntry[]): ContextUsage;
  /** `contextUsage` split for live facts and the catalogue (updated from appended entries). */
  readonly contextTokenRule: ContextTokenRule;
  /** pi's prepareCompaction plus why a branch cannot be compacted. */
  planCompaction(pathEntries: readonly SessionEntry[], settings: CompactionSettings): CompactionPlan;
  /** The `prepare --json` document for a plan (serialised with this version's convertToLlm / serializeConversation). */
  describePreparation(plan: CompactionPlan): PreparationJson;
  /**
   * `describePreparation(planCompaction(branch, settings))` on a branch read
   * lazily: only the bodies the decisions need, then the summarised history in
   * one pass in file order, never holding every parsed body.
   */
  describeBranchCompaction(branch: BranchReader, settings: CompactionSettings): BranchPreparationJson;
  /**
   * The branch as `buildSessionContext` and `contextUsage` read it, parsing only
   * the bodies they read (others may be stubs of their type and id): both give
   * what they give on `branch.all()`. Absent: use `branch.all()`.
   */
  contextPath?(branch: BranchReader): SessionEntry[];
  /** `buildSessionContext(branch).model`, parsing only the newest entries that decide it. */
  branchModel(branch: BranchReader): ContextModel | null;
  /** pi's prepareBranchEntries (`tokenBudget` 0 = no limit). */
  prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget: number): PreparedBranchEntries;
  /** pi's serializeConversation (1.5 leaves thinking out). */
  serializeConversation(messages: readonly LlmMessage[]): string;
  /**
   * pi 1.5's getCurrentSystemMessage of the branch's projected context: what a
   * compaction entry stores as `systemMessage` (the caller sets its timestamp).
   * Always undefined for 0.73.
   */
  currentSystemMessage(pathEntries: readonly SessionEntry[]): SystemMessage | undefined;
  /**
   * The compaction settings pi uses with `model` ("provider/modelId"): 1.5 applies
   * `compaction.modelOverrides[model]` and throws InvalidSettingError (pi 1.5's
   * message) on a token value that is not a non-negative safe integer.
   */
  resolveCompactionSettings(
    from: LoadSettingsOptions | LoadedSettings,
    model?: string,
  ): ResolvedSettings<CompactionSettings>;
  /** The branch-summary settings this agent reads (pi: its settings.json files; omp: `branchSummary` of its config.yml files). */
  resolveBranchSummarySettings(from: LoadSettingsOptions): ResolvedSettings<BranchSummarySettings>;
  /**
   * Whether this agent's own token counts equal ours for `model` (omp counts
   * Claude, Qwen, DeepSeek, Kimi and GLM models with native tokenizers; ours is
   * then an estimate). Absent: always.
   */
  tokenCountsExact?(model: ContextModel | null): boolean;
  /** The context size above which this agent compacts on its own (pi: window − reserveTokens; omp: at least 15 % of the window free, or its threshold settings). */
  compactionThreshold(contextWindow: number, settings: CompactionSettings): number;
  /** Whether this agent would compact at `contextTokens` (its settings' `enabled` and its threshold). */
  shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean;
  /** A reader diagnostic in this agent's words (the reader words them for pi). */
  explainDiagnostic(d: Diagnostic): Diagnostic;
  /** How this agent writes a compaction and a branch summary with a model (calls, merge, entry fields). */
  readonly summaryWriter: SummaryWriter;
  /** How this agent forks a session into a new file (refusals, header, title slot, labels' times). */
  readonly forkWriter: ForkWriter;
  /** How this agent names a session (the name's form, refusals, the entry, omp's title slot). */
  readonly renameWriter: RenameWriter;
  /** This agent's dir, from what the caller knows of each agent's (omp's default: its own, from the environment). */
  agentDir(configs: AgentConfigs): string;
  /** What this agent's settings are read from for a session in `cwd`: its agent dir, the project, the caller's values over this agent's files. */
  settingsFrom(configs: AgentConfigs, cwd: string, trustProject?: boolean): LoadSettingsOptions;
  /** Where the model registry of this agent's sessions is read (pi's models.json and auth.json; omp adds its models.yml). */
  modelDirs(configs: AgentConfigs): ModelDirs;
  /** The compaction settings shown while `resolveCompactionSettings` rejects the files (pi 1.5's check): pi's files as pi 0.73 reads them; omp's defaults. */
  fallbackCompactionSettings(from: LoadSettingsOptions): CompactionSettings;
  /** What `--json` outputs carry of whose rules these are: the agent, and for pi its version. */
  readonly tags: { agent: AgentName; piVersion?: PiVersion };
  /** The tag a session list shows before this agent's sessions (pi's are the default: none). */
  readonly listTag?: string;
  /** Whose rules read a session, in words, with why (`reason` as the caller escapes it). */
  readingNote(reason: string): string;
  /** The session's name as this agent shows it (pi: the last `session_info`; omp: its title slot, else the header's title). */
  sessionName(facts: SessionNameFacts): string | null;
  /**
   * The title a session list shows, from what a list row keeps of the file:
   * pi's last `session_info` name; omp's /resume title read from the file's
   * first 4 KiB (the title slot, else the header's title, else a compaction's
   * shortSummary). omp never reads `session_info`.
   */
  listTitle(facts: ListTitleFacts): string | null;
  /**
   * The name this agent's session picker shows: pi `title ?? firstMessage`
   * (`"(no messages)"` when there is none); omp the title, else the first user
   * message, else `Untitled · HH:MM`, each cut to its first line.
   */
  displayName(facts: DisplayNameFacts): string;
}

export interface ListTitleFacts {
  /** pi's name: the latest `session_info` name on file. */
  sessionInfoName: string | null;
  /** omp's /resume title (title slot, header title, compaction shortSummary in the first 4 KiB). */
  ompListTitle: string | null;
}

export interface DisplayNameFacts {
  /** The agent's title (`sessionName` or `listTitle`), or null. */
  title: string | null;
  /** The first user message's text, or null. */
  firstMessage: string | null;
  /** The header's timestamp, or null. */
  created: string | null;
  /** When the file last changed. */
  modified: Date;
}

export interface SessionNameFacts {
  /** The latest `session_info` name on file (pi's). */
  sessionInfoName: string | undefined;
  titleSlot: { title: string } | null;
  header: object | null;
}
