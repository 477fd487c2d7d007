// omp 18.3.4 as an oracle for the tests: one Bun child process per oracle (start-up
// ≈ 0.6 s: omp's bundle is 30 MB), asked in batches over JSON lines. Each oracle
// has its own throwaway HOME and agent dir (`agentDir`: blobs/, config.yml), so
// nothing touches the user's ~/.omp. Results are omp's values after a JSON round
// trip, image payloads replaced by their SHA-256 (`digestImages`): compare our
// values the same way. Use `describeOmp` for suites that need it: it starts the
// oracle once, and fails every test with one clear line when omp could not be
// installed (skips them only when PI_SESSIONS_SKIP_OMP is set).

import { spawn } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { inject } from "vitest";
import { describeWithOracle, OracleWorker } from "../oracle-worker.js";
import type { OmpAnswersArgs } from "./answers.js";
import { ensureOmp, findOmpInstall, type OmpInstall } from "./install.js";
import { OMP_OPT_OUT_ENV, ompOptedOut, type OmpProvided } from "./provided.js";
import type { GenerateArgs, GeneratedOmpSession } from "./random-session-omp.js";
import type { CapturedRequest, SummaryRequestsArgs } from "./summary-requests.js";
import type { LoginKeysArgs } from "./login-keys.js";
import { buildOmpWorker } from "./worker-bundle.js";
import { fastTempDir, ompEnv } from "./omp-env.js";

export { fastTempDir, ompEnv };

export type { OmpAnswersArgs, OmpSettingsSpec } from "./answers.js";
export type { GenerateArgs, GeneratedOmpSession } from "./random-session-omp.js";
export { digestImages } from "./image-digest.js";

type Message = Record<string, unknown> & { role: string };
type Entry = Record<string, unknown> & { id: string; type: string; parentId: string | null };
export interface FileLists { readFiles: string[]; modifiedFiles: string[] }
export interface FileOpLists { read: string[]; written: string[]; edited: string[] }

export interface OmpPreparation {
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary: string | null;
  messagesToSummarize: Message[];
  turnPrefixMessages: Message[];
  recentMessages: number;
  recentEntryIds: string[];
  fileOps: FileOpLists;
  files: FileLists;
  /** omp's `<files>` block for these lists ("" when none). */
  filesBlock: string;
  serializedHistory: string;
  serializedTurnPrefix: string;
}

export interface OmpLeafAnswers {
  leafId: string;
  /** getBranch(leafId) ids, root → leaf. */
  path: string[];
  /** buildSessionContext at the leaf: messages, thinkingLevel, configuredThinkingLevel, models, mode, … */
  context: { messages: Message[]; thinkingLevel: string; models: Record<string, string>; [key: string]: unknown };
  /** Roles of the display transcript (`buildSessionContext({transcript: true})`). */
  transcriptRoles: string[];
  llm: Message[];
  tokens: { perMessage: number[]; total: number; totalExcludingEncryptedReasoning: number };
  usage: { lastAssistantUsage: Record<string, number>; contextTokens: number; promptTokens: number } | null;
  thresholds: { settingsIndex: number; contextWindow: number; thresholdTokens: number; effectiveReserveTokens: number; shouldCompactAtUsage: boolean | null }[];
  /** prepareCompaction per settings (null: nothing to compact). */
  preparations: (OmpPreparation | null)[];
}

export interface OmpBranchAnswers {
  oldLeafId: string | null;
  targetId: string;
  commonAncestorId: string | null;
  /** collectEntriesForBranchSummary: old leaf back to the common ancestor (exclusive), chronological. */
  entryIds: string[];
  prepared: { budget: number; messages: Message[]; totalTokens: number; fileOps: FileOpLists; files: FileLists; serialized: string }[];
}

export interface OmpAnswers {
  file: string;
  sha256: string;
  /** The compaction settings used, resolved (defaults merged, or read from config.yml). */
  settings: Record<string, unknown>[];
  tokenizers: { model: string; inCatalog: boolean; family: string | null; native: boolean }[];
  load: { titleSlot: Record<string, unknown> | null; invalidHeader: boolean; malformedRecords: number; entries: number; header: Record<string, unknown> | null };
  /** SessionManager.open, or the error omp throws. */
  open:
    | { sessionId: string; header: Record<string, unknown>; title: string | null; leafId: string | null; entryIds: string[]; labels: Record<string, string>; fileUnchangedAfterOpen: boolean }
    | { error: string };
  leaves: OmpLeafAnswers[];
  branches: OmpBranchAnswers[];
}

export interface OmpLoadBack {
  titleSlot: Record<string, unknown> | null;
  malformedRecords: number;
  header: Record<string, unknown>;
  title: string | null;
  titleSource: string | null;
  entries: Entry[];
  leafId: string | null;
  branch: string[];
  tree: { id: string; children: unknown[] }[];
  labels: Record<string, string>;
  context: { messages: Message[]; thinkingLevel: string; models: Record<string, string>; [key: string]: unknown };
  llm: Message[];
}

export interface OmpSettingsAnswer {
  compaction: Record<string, unknown>;
  branchSummary: { enabled: boolean; reserveTokens: number };
}

function providedByGlobalSetup(): OmpProvided | undefined {
  try {
    return inject("omp");
  } catch {
    return undefined;
  }
}

/** Why the omp tests are skipped (only with the explicit opt-out), else undefined. */
export function ompSkipReason(): string | undefined {
  const provided = providedByGlobalSetup();
  if ((provided && "optedOut" in provided) || ompOptedOut()) return `${OMP_OPT_OUT_ENV} is set`;
  return undefined;
}

/** omp's paths (Bun, the CLI, the oracle bundle), installing it if needed; throws one clear line if it cannot be. */
export async function ompInstall(): Promise<OmpInstall> {
  const provided = providedByGlobalSetup();
  if (provided && "error" in provided) throw new Error(`${provided.error} — offline, set ${OMP_OPT_OUT_ENV}=1 to skip the omp tests`);
  if (provided && "install" in provided) return provided.install;
  return findOmpInstall() ?? (await ensureOmp());
}

export class OmpOracle {
  private constructor(
    readonly install: OmpInstall,
    /** The throwaway HOME omp runs with. */
    readonly home: string,
    /** omp's agent dir (`$PI_CODING_AGENT_DIR`): put blobs into `blobs/`, settings into `config.yml`. */
    readonly agentDir: string,
    private readonly ownsHome: boolean,
    private readonly worker: OracleWorker,
  ) {}


  /**
   * Starts a worker. `agentDir`: an existing omp agent dir to read blobs and config.yml from (default
   * `<home>/.omp/agent`); `blobsFrom` folders are copied into the agent dir's blob store.
   */
  static async start(options: { home?: string; agentDir?: string; blobsFrom?: string[] } = {}): Promise<OmpOracle> {
    const install = await ompInstall();
    const provided = providedByGlobalSetup();
    const worker = provided && "worker" in provided ? provided.worker : await buildOmpWorker();
    const home = options.home ?? fastTempDir("omp-oracle-home-");
    const agentDir = options.agentDir ? resolve(options.agentDir) : join(home, ".omp", "agent");
    mkdirSync(join(agentDir, "blobs"), { recursive: true });
    mkdirSync(join(home, "tmp"), { recursive: true });
    for (const dir of options.blobsFrom ?? []) cpSync(dir, join(agentDir, "blobs"), { recursive: true });
    const env = ompEnv(home, agentDir, { TMPDIR: join(home, "tmp") });
    const child = spawn(install.bun, ["--no-install", worker, install.oracleJs], { cwd: home, env, stdio: ["pipe", "pipe", "pipe"] });
    const oracle = new OmpOracle(install, home, agentDir, options.home === undefined, new OracleWorker("omp 18.3.4", child));
    await oracle.ping();
    return oracle;
  }

  private request<T>(op: string, args: unknown): Promise<T> {
    return this.worker.request(op, args);
  }


  ping(): Promise<{ pid: number; bun: string; startupMs: { toImport: number } }> {
    return this.request("ping", {});
  }

  /** omp's answers for one file: load, open, context/LLM/tokens/threshold/preparations per leaf, branch preparations. */
  answers(args: OmpAnswersArgs): Promise<OmpAnswers> {
    return this.request("answers", { ...args, file: resolve(args.file) });
  }

  /** The file re-opened by omp's SessionManager.open (on a copy): header, title, entries, tree, leaf, context. */
  /** The model requests omp's own compact() / generateBranchSummary make for `file` (a capturing completeImpl), and their result. */
  summaryRequests(args: SummaryRequestsArgs): Promise<{ requests: CapturedRequest[]; result: Record<string, unknown> | null } | { error: string }> {
    return this.request("summaryRequests", { ...args, file: resolve(args.file) });
  }

  loadBack(file: string): Promise<OmpLoadBack | { error: string; invalidHeader: boolean }> {
    return this.request("loadBack", { file: resolve(file) });
  }

  /** omp's compaction and branch-summary settings read from `<agentDir>/config.yml` and `<cwd>/.omp/config.yml`. */
  settings(cwd: string, agentDir: string = this.agentDir): Promise<OmpSettingsAnswer> {
    return this.request("settings", { cwd: resolve(cwd), agentDir: resolve(agentDir) });
  }

  /** A random session written by omp's own SessionManager into `args.dir` (blobs go to this oracle's agent dir). */
  generate(args: GenerateArgs): Promise<GeneratedOmpSession> {
    return this.request("generate", { ...args, dir: resolve(args.dir) });
  }

  /** omp's logins stored in `args.agentDir`'s agent.db by omp's AuthStorage, and the key omp would send per provider. */
  loginKeys(args: LoginKeysArgs): Promise<{ keys: Record<string, string | null> }> {
    return this.request("loginKeys", { ...args, agentDir: resolve(args.agentDir) });
  }

  close(): void {
    this.worker.close();
    if (this.ownsHome) rmSync(this.home, { recursive: true, force: true });
  }
}

/**
 * A describe block whose tests get a started oracle (`get()`): skipped only
 * with the explicit opt-out, otherwise a missing omp fails every test.
 */
export function describeOmp(name: string, body: (get: () => OmpOracle) => void, options: { agentDir?: string; blobsFrom?: string[] } = {}): void {
  describeWithOracle(name, "omp 18.3.4", ompSkipReason(), () => OmpOracle.start(options), body);
}
