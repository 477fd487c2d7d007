// omp 18.3.4's own modules, reached through the module registry its bundle keeps
// (the one omp hands to its extensions) in the oracle copy of the bundle. Runs
// under Bun only. The types name just what the oracle calls.

export type Json = unknown;
export type Entry = { id: string; type: string; parentId: string | null; [key: string]: unknown };
export type Message = { role: string; [key: string]: unknown };
export type FileOps = { read: Set<string>; written: Set<string>; edited: Set<string> };
export type Usage = Record<string, number | undefined>;

export interface OmpSessionManager {
  getEntries(): Entry[];
  getEntry(id: string): Entry | undefined;
  getBranch(fromId?: string): Entry[];
  getHeader(): Record<string, unknown> | null;
  getLeafId(): string | null;
  getSessionId(): string;
  getSessionFile(): string | undefined;
  getSessionName(): string | undefined;
  readonly titleSource: string | undefined;
  getLabel(id: string): string | undefined;
  getTree(): { entry: Entry; children: unknown[] }[];
  branch(id: string): void;
  resetLeaf(): void;
  buildSessionContext(options?: { transcript?: boolean }): { messages: Message[]; thinkingLevel: string; [key: string]: unknown };
  appendMessage(message: unknown): string;
  appendThinkingLevelChange(level?: string, configured?: string): string;
  appendModelChange(model: string, role?: string, fallback?: boolean): string;
  appendServiceTierChange(tier: unknown): string;
  appendModeChange(mode: string, data?: Record<string, unknown>): string;
  appendSessionInit(init: Record<string, unknown>): string;
  appendModelUsage(usage: Record<string, unknown>, owner: { sessionId: string; parentId: string | null }): string | undefined;
  appendCompaction(summary: string, shortSummary: string | undefined, firstKeptEntryId: string, tokensBefore: number, options?: Record<string, unknown>): string;
  appendResetBoundary(): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown, attribution?: string): string;
  appendTtsrInjection(rules: string[]): string;
  appendCredentialPin(provider: string, hash: string): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  branchWithSummary(branchFromId: string | null, summary: string, details?: unknown, fromExtension?: boolean): string;
  setSessionName(name: string, source?: "auto" | "user", trigger?: string): Promise<boolean>;
  rewriteEntries(): Promise<void>;
  putBlob(data: Buffer, options?: unknown): Promise<{ ref?: string; hash?: string; [key: string]: unknown }>;
  flush(): Promise<void>;
  close(): Promise<void> | void;
}

export interface OmpSessionManagerClass {
  create(cwd: string, sessionDir?: string): OmpSessionManager;
  open(file: string, sessionDir?: string): Promise<OmpSessionManager>;
  /** What /resume lists for a cwd (its folder `sessionDir`). */
  list(cwd: string, sessionDir?: string): Promise<unknown[]>;
}

export interface OmpTokenizer {
  encoding: unknown;
  countMessage(message: Message, options?: { excludeEncryptedReasoning?: boolean }): number;
  countMessages(messages: Message[], options?: { excludeEncryptedReasoning?: boolean }): number;
}

export interface Preparation {
  firstKeptEntryId: string;
  messagesToSummarize: Message[];
  turnPrefixMessages: Message[];
  recentMessages: Message[];
  recentEntryIds: string[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOps;
  settings: Json;
}

export interface Omp {
  loadSessionFile(file: string): Promise<{ entries: Entry[]; titleSlot?: Json; invalidHeader: boolean; malformedRecords: number }>;
  SessionManager: OmpSessionManagerClass;
  convertToLlm(messages: Message[]): Message[];
  Tokenizer: new (model: unknown) => OmpTokenizer;
  getBundledModel(provider: string, id: string): ({ tokenizer?: string; contextWindow?: number } & Record<string, unknown>) | undefined;
  DEFAULT_COMPACTION_SETTINGS: Record<string, unknown>;
  prepareCompaction(path: Entry[], settings: Json, model: unknown, tokenizer: OmpTokenizer): Preparation | undefined;
  computeFileLists(fileOps: FileOps): { readFiles: string[]; modifiedFiles: string[] };
  formatFileOperations(readFiles: string[], modifiedFiles: string[], readSet?: Set<string>): string;
  serializeConversation(messages: Message[]): string;
  getLastAssistantUsage(path: Entry[]): Usage | undefined;
  calculateContextTokens(usage: Usage): number;
  calculatePromptTokens(usage: Usage): number;
  resolveThresholdTokens(contextWindow: number, settings: Json): number;
  effectiveReserveTokens(contextWindow: number, settings: Json): number;
  shouldCompact(contextTokens: number, contextWindow: number, settings: Json): boolean;
  collectEntriesForBranchSummary(sm: OmpSessionManager, oldLeafId: string | null, targetId: string): { entries: Entry[]; commonAncestorId: string | null };
  prepareBranchEntries(entries: Entry[], tokenizer: OmpTokenizer, budget: number): { messages: Message[]; fileOps: FileOps; totalTokens: number };
  /** agent-core compact(preparation, model, apiKey, customInstructions, signal, options). */
  compact(preparation: Preparation, model: unknown, apiKey: string, focus: string | undefined, signal: AbortSignal, options: Record<string, unknown>): Promise<Json>;
  /** agent-core generateBranchSummary(entries, options). */
  generateBranchSummary(entries: Entry[], options: Record<string, unknown>): Promise<Json>;
  /** `cfgCompaction.get(settings)` of omp's settings read (read-only) from `<agentDir>/config.yml` and the project's. */
  compactionSettingsFrom(cwd: string, agentDir: string): Promise<Record<string, unknown>>;
  /** `cfgBranchSummaryReserveTokens` / `cfgBranchSummaryEnabled` from the same files. */
  branchSummarySettingsFrom(cwd: string, agentDir: string): Promise<{ enabled: boolean; reserveTokens: number }>;
  /** Any module of omp's registry by its name, e.g. "@oh-my-pi/pi-ai/auth-broker/discover". */
  module(key: string): Promise<Record<string, any>>;
}

type Registry = Record<string, () => Promise<Record<string, unknown>>>;

export async function loadOmp(oracleJs: string): Promise<Omp> {
  const bundle = (await import(oracleJs)) as { __OMP_MODULES: Registry; __OMP_MODULES_INIT(): void };
  bundle.__OMP_MODULES_INIT();
  const registry = bundle.__OMP_MODULES;
  const load = async (key: string): Promise<Record<string, any>> => {
    const get = registry[key];
    if (!get) throw new Error(`omp's bundle has no module ${key}`);
    return get();
  };
  const [loader, manager, messages, core, comp, ai, settingsModule, contextSettings] = await Promise.all([
    load("@oh-my-pi/pi-coding-agent/session/session-loader"),
    load("@oh-my-pi/pi-coding-agent/session/session-manager"),
    load("@oh-my-pi/pi-coding-agent/session/messages"),
    load("@oh-my-pi/pi-agent-core"),
    load("@oh-my-pi/pi-agent-core/compaction"),
    load("@oh-my-pi/pi-ai"),
    load("@oh-my-pi/pi-coding-agent/config/settings"),
    load("@oh-my-pi/pi-coding-agent/session/context-settings"),
  ]);
  const readSettings = (cwd: string, agentDir: string) => settingsModule.Settings.loadReadOnly({ cwd, agentDir });
  return {
    module: load,
    loadSessionFile: loader.loadSessionFile,
    SessionManager: manager.SessionManager,
    convertToLlm: messages.convertToLlm,
    Tokenizer: core.Tokenizer,
    getBundledModel: ai.getBundledModel,
    DEFAULT_COMPACTION_SETTINGS: comp.DEFAULT_COMPACTION_SETTINGS,
    prepareCompaction: comp.prepareCompaction,
    computeFileLists: comp.computeFileLists,
    formatFileOperations: comp.formatFileOperations,
    serializeConversation: comp.serializeConversation,
    getLastAssistantUsage: comp.getLastAssistantUsage,
    calculateContextTokens: comp.calculateContextTokens,
    calculatePromptTokens: comp.calculatePromptTokens,
    resolveThresholdTokens: comp.resolveThresholdTokens,
    effectiveReserveTokens: comp.effectiveReserveTokens,
    shouldCompact: comp.shouldCompact,
    collectEntriesForBranchSummary: comp.collectEntriesForBranchSummary,
    prepareBranchEntries: comp.prepareBranchEntries,
    compact: comp.compact,
    generateBranchSummary: comp.generateBranchSummary,
    compactionSettingsFrom: async (cwd, agentDir) => contextSettings.cfgCompaction.get(await readSettings(cwd, agentDir)),
    branchSummarySettingsFrom: async (cwd, agentDir) => {
      const settings = await readSettings(cwd, agentDir);
      return {
        enabled: contextSettings.cfgBranchSummaryEnabled.get(settings),
        reserveTokens: contextSettings.cfgBranchSummaryReserveTokens.get(settings),
      };
    },
  };
}
