// The parts of pi's extension API this extension reads, by shape (pi 0.73.1
// and pi 1.5.x agree on them; 1.5 adds `reason` and `willRetry`).

export interface PiModel {
  provider: string;
  id: string;
  contextWindow?: number;
}

export interface PiContext {
  cwd: string;
  hasUI?: boolean;
  ui?: { notify?: (message: string, type?: "info" | "warning" | "error") => void };
  model?: PiModel;
  modelRegistry?: { getApiKeyForProvider?: (provider: string) => Promise<string | undefined> };
  sessionManager?: {
    getHeader?: () => { cwd?: string } | null | undefined;
    getBranch?: (fromId?: string) => unknown[];
  };
}

export interface PiCompactEvent {
  preparation: { firstKeptEntryId: string; tokensBefore: number; settings: { enabled: boolean; reserveTokens: number; keepRecentTokens: number } };
  branchEntries: unknown[];
  customInstructions?: string;
  reason?: string;
  signal?: AbortSignal;
}

export interface PiTreeEvent {
  preparation: {
    targetId: string;
    oldLeafId: string | null;
    entriesToSummarize: unknown[];
    userWantsSummary: boolean;
    customInstructions?: string;
    replaceInstructions?: boolean;
  };
  signal?: AbortSignal;
}

export interface PiApi {
  on(event: "session_start", handler: () => Promise<void>): unknown;
  on(event: "session_before_compact", handler: (event: PiCompactEvent, ctx: PiContext) => Promise<unknown>): unknown;
  on(event: "session_before_tree", handler: (event: PiTreeEvent, ctx: PiContext) => Promise<unknown>): unknown;
}
