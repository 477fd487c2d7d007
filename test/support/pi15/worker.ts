// The pi 1.5.2 oracle process: runs on Node 22 (bundled by oracle.ts with
// esbuild), imports pi's bundle chunk (argv[2], with the internals exported by
// the installer) and answers newline-delimited JSON requests on stdin
// (`{id, op, args}`) with `{id, ok, result | error}` lines on stdout. Everything
// is computed by pi 1.5.2's own code; this file only calls it and turns Sets
// into arrays. Session files are always opened from a temporary copy: pi 1.5's
// loader appends a missing trailing newline to the file it opens.

import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";
import { generateRandomSession15, type Pi15SessionManagerClass } from "./random-session-1.5.js";

type Json = unknown;
type Entry = { id: string; type: string; parentId: string | null; [key: string]: unknown };
type Message = { role: string; [key: string]: unknown };
type FileOps = { read: Set<string>; written: Set<string>; edited: Set<string> };
interface SessionManager {
  getEntries(): Entry[];
  getBranch(id?: string): Entry[];
  getEntry(id: string): Entry | undefined;
  getHeader(): Json;
  getLeafId(): string | null;
  getSessionName(): string | undefined;
  getLabel(id: string): string | undefined;
  getTree(): { entry: Entry; children: unknown[] }[];
  branch(id: string): void;
  resetLeaf(): void;
  buildSessionContext(): { messages: Message[]; thinkingLevel: string; model: Json };
  [method: string]: unknown;
}
interface Pi {
  SettingsManager: { create(cwd: string, agentDir: string): { getCompactionSettings(model?: { provider: string; id: string }): Json } };
  SessionManager: {
    open(path: string): SessionManager;
    inMemory(cwd?: string, options?: unknown, entries?: unknown[]): SessionManager;
  } & Pi15SessionManagerClass;
  buildSessionProjection(entries: Entry[]): { entries: { sourceEntry: Entry; messages: Message[] }[]; messages: Message[] };
  buildSessionContext(entries: Entry[]): { messages: Message[]; thinkingLevel: string; model: Json };
  convertToLlm(messages: Message[]): Message[];
  estimateTokens(message: Message): number;
  estimateContextTokens(messages: Message[]): Json;
  estimateProjectedContextTokens(projection: unknown, branch: Entry[]): Json;
  getCurrentSystemMessage(messages: Message[]): Message | undefined;
  findProjectedCutPoint(entries: unknown[], start: number, end: number, keep: number): Json;
  prepareCompaction(path: Entry[], settings: Json): (Record<string, unknown> & { fileOps: FileOps; messagesToSummarize: Message[]; turnPrefixMessages: Message[]; isSplitTurn: boolean }) | undefined;
  computeFileLists(fileOps: FileOps): Json;
  serializeConversation(messages: Message[]): string;
  collectEntriesForBranchSummary(session: unknown, oldLeafId: string | null, targetId: string): { entries: Entry[]; commonAncestorId: string | null };
  prepareBranchEntries(entries: Entry[], budget: number): { messages: Message[]; fileOps: FileOps; totalTokens: number };
  AgentSession: { prototype: { getSessionStats(this: unknown): Record<string, unknown> } };
}

type UsageCostBreakdown = (entries: Entry[]) => { key: string; cost: number; tokens: number }[];

/** pi 1.5.2's getUsageCostBreakdown (usage-totals.js), from the bundle chunk that defines it. */
async function usageCostBreakdown(chunk: string): Promise<UsageCostBreakdown> {
  const dir = dirname(chunk);
  const file = readdirSync(dir).find((f) => f.endsWith(".js") && readFileSync(join(dir, f), "utf8").includes("function getUsageCostBreakdown("));
  if (!file) throw new Error("no chunk of pi 1.5.2 defines getUsageCostBreakdown");
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { getUsageCostBreakdown?: UsageCostBreakdown };
  if (!mod.getUsageCostBreakdown) throw new Error(`${file} does not export getUsageCostBreakdown`);
  return mod.getUsageCostBreakdown;
}

/**
 * What pi 1.5.2's /session reports of a file: AgentSession.getSessionStats (its own method, on the
 * SessionManager of a copy; context usage, which needs a model, left out) and its cost per model.
 */
function usageStats(pi: Pi, breakdown: UsageCostBreakdown, args: { file: string }): Json {
  return openCopy(pi, args.file, (sm) => {
    const header = sm.getHeader() as { id?: string };
    // pi reads usage.input of an answer (or usage entry) without usage, and throws: such an entry is left
    // out of what pi's functions are given (we count it as 0), and the answer says how many were.
    const all = sm.getEntries();
    const counted = all.filter((e) => {
      const m = e.message as { role?: string; usage?: unknown } | undefined;
      return !((e.type === "message" && m?.role === "assistant" && !m.usage) || (e.type === "usage" && !e.usage));
    });
    const stats = pi.AgentSession.prototype.getSessionStats.call({ sessionManager: { getEntries: () => counted }, sessionFile: args.file, sessionId: header.id, getContextUsage: () => undefined });
    return { stats, breakdown: breakdown(counted), withoutUsage: all.length - counted.length };
  });
}

const lists = (ops: FileOps) => ({ read: [...ops.read], written: [...ops.written], edited: [...ops.edited] });

/** Opens a temporary copy of `file` with pi's SessionManager.open. */
function openCopy<T>(pi: Pi, file: string, use: (sm: SessionManager) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "pi15-oracle-"));
  try {
    const copy = join(dir, basename(file));
    copyFileSync(file, copy);
    return use(pi.SessionManager.open(copy));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface AnswersArgs {
  file: string;
  leaves: string[];
  settings: { enabled: boolean; reserveTokens: number; keepRecentTokens: number }[];
  /** keepRecentTokens values for findProjectedCutPoint, at the projection's compaction boundary and at 0. */
  cutKeeps: number[];
  branchPairs: { oldLeafId: string | null; targetId: string }[];
  branchBudgets: number[];
}

function preparation(pi: Pi, path: Entry[], settings: Json): Json {
  const prep = pi.prepareCompaction(path, settings);
  if (!prep) return null;
  return {
    ...prep,
    fileOps: lists(prep.fileOps),
    files: pi.computeFileLists(prep.fileOps),
    serializedHistory: pi.serializeConversation(pi.convertToLlm(prep.messagesToSummarize)),
    serializedTurnPrefix: pi.serializeConversation(pi.convertToLlm(prep.turnPrefixMessages)),
  };
}

function answers(pi: Pi, args: AnswersArgs): Json {
  return openCopy(pi, args.file, (sm) => {
    const leaves = args.leaves.map((leafId) => {
      const path = sm.getBranch(leafId);
      const projection = pi.buildSessionProjection(path);
      const context = pi.buildSessionContext(path);
      const prevCompaction = projection.entries.findIndex((e) => e.sourceEntry.type === "compaction" && e.messages.length > 0);
      const starts = [...new Set([0, prevCompaction + 1])];
      return {
        leafId,
        path: path.map((e) => e.id),
        context,
        llm: pi.convertToLlm(context.messages),
        tokens: context.messages.map((m) => pi.estimateTokens(m)),
        estimateContextTokens: pi.estimateContextTokens(context.messages),
        projectedContextTokens: pi.estimateProjectedContextTokens(projection, path),
        currentSystemMessage: pi.getCurrentSystemMessage(projection.messages) ?? null,
        projectedEntryIds: projection.entries.map((e) => e.sourceEntry.id),
        cutPoints: starts.flatMap((start) =>
          args.cutKeeps.map((keep) => ({ start, keep, cut: pi.findProjectedCutPoint(projection.entries, start, projection.entries.length, keep) })),
        ),
        preparations: args.settings.map((settings) => ({ settings, preparation: preparation(pi, path, settings) })),
      };
    });
    const branches = args.branchPairs.map(({ oldLeafId, targetId }) => {
      const collected = pi.collectEntriesForBranchSummary(sm, oldLeafId, targetId);
      return {
        oldLeafId,
        targetId,
        collected,
        prepared: args.branchBudgets.map((budget) => {
          const prep = pi.prepareBranchEntries(collected.entries, budget);
          return {
            budget,
            messages: prep.messages,
            fileOps: lists(prep.fileOps),
            files: pi.computeFileLists(prep.fileOps),
            totalTokens: prep.totalTokens,
            serialized: pi.serializeConversation(pi.convertToLlm(prep.messages)),
          };
        }),
      };
    });
    return { leafId: sm.getLeafId(), entryIds: sm.getEntries().map((e) => e.id), leaves, branches };
  });
}

/** What pi 1.5.2 makes of a file: its entries, leaf, tree, labels, name and the context at the leaf. */
function loadBack(pi: Pi, args: { file: string }): Json {
  return openCopy(pi, args.file, (sm) => {
    const entries = sm.getEntries();
    const path = sm.getBranch();
    const context = sm.buildSessionContext();
    const projection = pi.buildSessionProjection(path);
    const tree = (nodes: { entry: Entry; children: unknown[] }[]): Json =>
      nodes.map((n) => ({ id: n.entry.id, children: tree(n.children as { entry: Entry; children: unknown[] }[]) }));
    return {
      header: sm.getHeader(),
      entries,
      leafId: sm.getLeafId(),
      branch: path.map((e) => e.id),
      tree: tree(sm.getTree()),
      labels: Object.fromEntries(entries.flatMap((e) => (sm.getLabel(e.id) ? [[e.id, sm.getLabel(e.id)]] : []))),
      sessionName: sm.getSessionName() ?? null,
      context,
      llm: pi.convertToLlm(context.messages),
      currentSystemMessage: pi.getCurrentSystemMessage(projection.messages) ?? null,
      projectedContextTokens: pi.estimateProjectedContextTokens(projection, path),
    };
  });
}

/** Calls one SessionManager method on an in-memory session of `entries` (header first), as pi 1.5.2 would write. */
function appendAs(pi: Pi, args: { entries: unknown[]; leafId?: string | null; method: string; args: unknown[] }): Json {
  const sm = pi.SessionManager.inMemory("/work/project", undefined, args.entries);
  if (args.leafId === null) sm.resetLeaf();
  else if (args.leafId !== undefined) sm.branch(args.leafId);
  const method = sm[args.method];
  if (typeof method !== "function") throw new Error(`SessionManager has no method ${args.method}`);
  const returned = (method as (...a: unknown[]) => unknown).apply(sm, args.args);
  const id = typeof returned === "string" ? returned : (returned as { id?: string } | undefined)?.id;
  const context = sm.buildSessionContext();
  return {
    returned: returned ?? null,
    entry: id ? sm.getEntry(id) : null,
    leafId: sm.getLeafId(),
    context,
    llm: pi.convertToLlm(context.messages),
  };
}

/** pi 1.5.2's SettingsManager.create(cwd, agentDir).getCompactionSettings(model) per model, or the error it throws. */
function compactionSettings(pi: Pi, args: { cwd: string; agentDir: string; models: (string | null)[] }): Json {
  return args.models.map((key) => {
    const model = key === null ? undefined : { provider: key.slice(0, key.indexOf("/")), id: key.slice(key.indexOf("/") + 1) };
    try {
      return { model: key, settings: pi.SettingsManager.create(args.cwd, args.agentDir).getCompactionSettings(model) };
    } catch (error) {
      return { model: key, error: error instanceof Error ? error.message : String(error) };
    }
  });
}

async function main(): Promise<void> {
  const chunk = process.argv[2];
  if (!chunk) throw new Error("usage: worker.mjs <patched pi 1.5.2 chunk>");
  // Anything pi might print must not mix with the answers on stdout.
  console.log = console.error;
  console.info = console.error;
  const pi = (await import(chunk)) as Pi;
  const breakdown = await usageCostBreakdown(chunk);
  const ops: Record<string, (args: never) => Json> = {
    ping: () => ({ pid: process.pid, node: process.version }),
    answers: (args: AnswersArgs) => answers(pi, args),
    loadBack: (args: { file: string }) => loadBack(pi, args),
    usageStats: (args: { file: string }) => usageStats(pi, breakdown, args),
    appendAs: (args: { entries: unknown[]; leafId?: string | null; method: string; args: unknown[] }) => appendAs(pi, args),
    compactionSettings: (args: { cwd: string; agentDir: string; models: (string | null)[] }) => compactionSettings(pi, args),
    generate: (args: { seed: number; dir: string; steps?: number }) =>
      generateRandomSession15(pi.SessionManager, args.seed, args.dir, args.steps === undefined ? {} : { steps: args.steps }),
  };
  const write = (line: Json): void => {
    process.stdout.write(JSON.stringify(line) + "\n");
  };
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const request = JSON.parse(line) as { id: number; op: string; args: never };
    try {
      const op = ops[request.op];
      if (!op) throw new Error(`unknown op ${request.op}`);
      write({ id: request.id, ok: true, result: op(request.args) });
    } catch (error) {
      write({ id: request.id, ok: false, error: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error) });
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`pi15 oracle worker failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
