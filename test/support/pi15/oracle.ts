// pi 1.5.2 as an oracle for the tests: one Node 22 child process per test file
// (loading pi's bundle costs 0.15–0.3 s), asked in batches over JSON lines.
// Results are pi's values after a JSON round trip: compare our values the same
// way (`asJson`). Use `describePi15` for suites that need it: it starts the
// oracle once, and fails every test with one clear line when pi 1.5.2 could not
// be installed (skips them only when PI_SESSIONS_SKIP_PI15 is set).

import { spawn } from "node:child_process";
import { inject } from "vitest";
import { describeWithOracle, OracleWorker } from "../oracle-worker.js";
import { ensurePi15, findPi15Install, type Pi15Install } from "./install.js";
import { PI15_OPT_OUT_ENV, pi15OptedOut, type Pi15Provided } from "./provided.js";
import { buildPi15Worker } from "./worker-bundle.js";
import type { AnswersArgs } from "./worker.js";

export type { AnswersArgs } from "./worker.js";
export type Json = unknown;
type Message = Record<string, unknown> & { role: string };
type Entry = Record<string, unknown> & { id: string; type: string; parentId: string | null };
export interface FileLists { readFiles: string[]; modifiedFiles: string[] }
export interface FileOpLists { read: string[]; written: string[]; edited: string[] }

export interface Pi15Preparation {
  firstKeptEntryId: string;
  messagesToSummarize: Message[];
  turnPrefixMessages: Message[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOpLists;
  files: FileLists;
  serializedHistory: string;
  serializedTurnPrefix: string;
  settings: CompactionSettings;
}
export interface Pi15UsageStats {
  /** Answers and usage entries without a usage (pi's functions would throw; left out of what they were given). */
  withoutUsage: number;
  stats: { tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number }; cost: number; assistantMessages: number };
  breakdown: { key: string; cost: number; tokens: number }[];
}
export interface CompactionSettings { enabled: boolean; reserveTokens: number; keepRecentTokens: number }
export interface TokenEstimate { tokens: number; usageTokens: number; trailingTokens: number; lastUsageIndex: number | null }
export interface CutPoint { firstKeptEntryIndex: number; turnStartIndex: number; isSplitTurn: boolean }
export interface Pi15Context { messages: Message[]; thinkingLevel: string; model: { provider: string; modelId: string } | null }

export interface Pi15LeafAnswers {
  leafId: string;
  /** getBranch(leafId) ids, root → leaf. */
  path: string[];
  context: Pi15Context;
  llm: Message[];
  /** estimateTokens of each context message. */
  tokens: number[];
  estimateContextTokens: TokenEstimate;
  projectedContextTokens: TokenEstimate;
  currentSystemMessage: Message | null;
  /** Source entry ids of buildSessionProjection's entries (what findProjectedCutPoint indexes). */
  projectedEntryIds: string[];
  cutPoints: { start: number; keep: number; cut: CutPoint }[];
  preparations: { settings: CompactionSettings; preparation: Pi15Preparation | null }[];
}
export interface Pi15BranchAnswers {
  oldLeafId: string | null;
  targetId: string;
  collected: { entries: Entry[]; commonAncestorId: string | null };
  prepared: { budget: number; messages: Message[]; fileOps: FileOpLists; files: FileLists; totalTokens: number; serialized: string }[];
}
export interface Pi15Answers {
  leafId: string | null;
  entryIds: string[];
  leaves: Pi15LeafAnswers[];
  branches: Pi15BranchAnswers[];
}

export interface Pi15LoadBack {
  header: Record<string, unknown>;
  entries: Entry[];
  leafId: string | null;
  /** getBranch() ids at the leaf, root → leaf. */
  branch: string[];
  tree: { id: string; children: unknown[] }[];
  labels: Record<string, string>;
  sessionName: string | null;
  context: Pi15Context;
  llm: Message[];
  currentSystemMessage: Message | null;
  projectedContextTokens: TokenEstimate;
}

export interface Pi15Appended {
  /** What the SessionManager method returned (an id, or an entry for appendUsage). */
  returned: Json;
  /** The entry pi 1.5.2 appended. */
  entry: Entry | null;
  leafId: string | null;
  context: Pi15Context;
  llm: Message[];
}

export type Pi15CompactionSettings = { model: string | null } & ({ settings: Record<string, unknown> } | { error: string });

export interface GeneratedSession15 { path: string; seed: number; ids: string[]; features: Record<string, number> }

/** Our value as pi's answers arrive: after a JSON round trip (undefined properties dropped). */
export function asJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function providedByGlobalSetup(): Pi15Provided | undefined {
  try {
    return inject("pi15");
  } catch {
    return undefined;
  }
}

/** Why the pi 1.5 tests are skipped (only with the explicit opt-out), else undefined. */
export function pi15SkipReason(): string | undefined {
  const provided = providedByGlobalSetup();
  if ((provided && "optedOut" in provided) || pi15OptedOut()) {
    return `${PI15_OPT_OUT_ENV} is set`;
  }
  return undefined;
}

/** pi 1.5.2's paths (Node 22 and the CLI), installing it if needed; throws one clear line if it cannot be. */
export async function pi15Install(): Promise<Pi15Install> {
  const provided = providedByGlobalSetup();
  if (provided && "error" in provided) {
    throw new Error(`${provided.error} — offline, set ${PI15_OPT_OUT_ENV}=1 to skip the pi 1.5 tests`);
  }
  if (provided && "install" in provided) return provided.install;
  return findPi15Install() ?? (await ensurePi15());
}

export class Pi15Oracle {
  private constructor(
    readonly install: Pi15Install,
    private readonly worker: OracleWorker,
  ) {}


  static async start(): Promise<Pi15Oracle> {
    const install = await pi15Install();
    const provided = providedByGlobalSetup();
    const worker = provided && "worker" in provided ? provided.worker : await buildPi15Worker();
    const child = spawn(install.node, [worker, install.chunk], { stdio: ["pipe", "pipe", "pipe"] });
    const oracle = new Pi15Oracle(install, new OracleWorker("pi 1.5.2", child));
    await oracle.request("ping", {});
    return oracle;
  }

  private request<T>(op: string, args: unknown): Promise<T> {
    return this.worker.request(op, args);
  }


  /** Node 22 and pi's CLI: `spawn(paths.node, [paths.cliJs, "-p", …])` runs the real pi 1.5.2. */
  get paths(): { node: string; cliJs: string } {
    return { node: this.install.node, cliJs: this.install.cliJs };
  }

  /** pi 1.5.2's context, tokens, cut points, preparations and branch preparations for one file. */
  answers(args: AnswersArgs): Promise<Pi15Answers> {
    return this.request("answers", args);
  }

  /** The file re-opened by pi 1.5.2's SessionManager.open (on a copy): entries, tree, leaf and context. */
  loadBack(file: string): Promise<Pi15LoadBack> {
    return this.request("loadBack", { file });
  }

  /** pi 1.5.2's /session numbers of a file (AgentSession.getSessionStats) and its getUsageCostBreakdown. */
  usageStats(file: string): Promise<Pi15UsageStats> {
    return this.request("usageStats", { file });
  }

  /**
   * The entry pi 1.5.2 itself writes: SessionManager.inMemory over `entries`
   * (header first), then branch(leafId) (null: resetLeaf), then `method(...args)`.
   */
  appendAs(entries: readonly unknown[], leafId: string | null | undefined, method: string, args: readonly unknown[]): Promise<Pi15Appended> {
    return this.request("appendAs", { entries, ...(leafId === undefined ? {} : { leafId }), method, args });
  }

  /** pi 1.5.2's appendCompaction on the branch at `leafId` (firstKeptEntryId null = retain none). */
  appendCompaction(
    entries: readonly unknown[],
    leafId: string | undefined,
    c: { summary: string; firstKeptEntryId: string | null; tokensBefore: number; details?: unknown; fromHook?: boolean; usage?: unknown },
  ): Promise<Pi15Appended> {
    return this.appendAs(entries, leafId, "appendCompaction", [c.summary, c.firstKeptEntryId, c.tokensBefore, c.details, c.fromHook, c.usage]);
  }

  /** pi 1.5.2's branchWithSummary from the leaf `fromLeafId` to `branchFromId` (fromId = the leaf left). */
  branchWithSummary(
    entries: readonly unknown[],
    fromLeafId: string | undefined,
    b: { branchFromId: string | null; summary: string; details?: unknown; fromHook?: boolean; usage?: unknown },
  ): Promise<Pi15Appended> {
    return this.appendAs(entries, fromLeafId, "branchWithSummary", [b.branchFromId, b.summary, b.details, b.fromHook, b.usage]);
  }

  /**
   * pi 1.5.2's SettingsManager.create(cwd, agentDir).getCompactionSettings(model) for each
   * "provider/id" (null: no model), or the message of the error pi throws.
   */
  compactionSettings(cwd: string, agentDir: string, models: (string | null)[]): Promise<Pi15CompactionSettings[]> {
    return this.request("compactionSettings", { cwd, agentDir, models });
  }

  /** A random session written by pi 1.5.2's own SessionManager into `dir`. */
  generate(seed: number, dir: string, steps?: number): Promise<GeneratedSession15> {
    return this.request("generate", { seed, dir, ...(steps === undefined ? {} : { steps }) });
  }

  close(): void {
    this.worker.close();
  }
}

/**
 * A describe block whose tests get a started oracle (`get()`): skipped only
 * with the explicit opt-out, otherwise a missing pi 1.5.2 fails every test.
 */
export function describePi15(name: string, body: (get: () => Pi15Oracle) => void): void {
  describeWithOracle(name, "pi 1.5.2", pi15SkipReason(), () => Pi15Oracle.start(), body);
}
