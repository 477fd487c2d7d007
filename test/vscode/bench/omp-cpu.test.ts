// An oh-my-pi session in the real extension host, against a pi session of the
// same size and against plain JSON.parse of the same file: the ~100 MB omp
// session the core's omp bench generates (bench/omp-session.ts: title slot,
// omp's header and model_change, a /clear, a soft and a snapcompact compaction)
// in omp's folder for the workspace (piSessions.omp.agentDir), and a fresh copy
// of the pi bench's 100 MB session in pi's folder. For each: selecting it until
// it is indexed (host CPU, and the host's RSS after a settled GC), an answer
// appended as the agent writes it until the row, Entries and status bar show it
// (median of PI_SESSIONS_BENCH_RUNS), and Compact Session on it through the
// loopback model server, run as its own process so that its work is not counted
// as the host's (the command's host CPU until the entry is written and the row
// shows it; the host's RSS after it). Printed; never a pass/fail test.
import { fork } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeHeapSnapshot } from "node:v8";
import * as vscode from "vscode";
import { ompSessionDirForCwd } from "../../../src/core/discovery/omp-session-folder";
import type { Internals } from "../../../src/extension/internals";
import { tokensText } from "../../../src/extension/session-facts";
import { agentDir, extensionInternals, piDir, pointAgentDirAt, setSetting, waitFor, workspaceDir } from "../suite/helpers";
import { cpuMs, lastEntryIdInFile, mb, measure, measureIdle, median, memoryLine, reduceMemoryGc, report, reported, settleGc, sleep } from "./host-measure";
import { memoryDetail, PROFILING } from "./profile";

const OMP_BIG = process.env.PI_SESSIONS_BENCH_OMP_BIG!;
const PI_BIG = process.env.PI_SESSIONS_BENCH_PI_BIG!;
const RUNS = Number(process.env.PI_SESSIONS_BENCH_RUNS ?? 5);

/** PI_SESSIONS_BENCH_HEAP_SNAPSHOTS=<folder>: a heap snapshot before and after each Compact Session, to diff offline (it costs memory: not for RSS numbers). */
function heapSnapshot(name: string): void {
  const folder = process.env.PI_SESSIONS_BENCH_HEAP_SNAPSHOTS;
  if (folder) report(`    heap snapshot: ${writeHeapSnapshot(join(folder, `omp-step-${name}.heapsnapshot`))}`);
}

interface Case {
  agent: "pi" | "omp";
  path: string;
  parse: number;
  open: { cpu: number; wall: number; rssMb: number; rssDeltaMb: number };
  append: number;
  compact: { cpu: number; wall: number; written: boolean; rssDeltaMb: number; reducedRssDeltaMb: number };
}

/** Best of three: readFileSync + JSON.parse of every line, in the host (its CPU). */
function plainParse(path: string): number {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const cpu = process.cpuUsage();
    let n = 0;
    for (const line of readFileSync(path, "utf8").split("\n")) if (line.trim()) n += JSON.parse(line) ? 1 : 0;
    samples.push(cpuMs(cpu));
    if (n === 0) throw new Error(`no lines in ${path}`);
  }
  return Math.min(...samples);
}

const lastEntryId = lastEntryIdInFile;
const signed = (mbs: number): string => `${mbs >= 0 ? "+" : ""}${mbs.toFixed(0)}`;

interface LoopbackProcess {
  close(): Promise<void>;
}

/** The loopback model server in a process of its own (model-server-process.ts), the agent dir's models.json and auth.json pointed at it. */
async function startLoopbackProcess(): Promise<LoopbackProcess> {
  const child = fork(join(__dirname, "model-server-process.js"), [], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const urls = await new Promise<{ openaiBaseUrl: string; anthropicBaseUrl: string }>((resolve, reject) => {
    child.once("message", (message) => resolve(message as { openaiBaseUrl: string; anthropicBaseUrl: string }));
    child.once("exit", (code) => reject(new Error(`the loopback model server process exited (${code}) before it listened`)));
  });
  const unpoint = pointAgentDirAt(urls);
  return {
    close: async () => {
      unpoint();
      const exited = once(child, "exit");
      child.disconnect();
      await exited;
    },
  };
}

let counter = 0;
/** An assistant answer with usage, as either agent writes it (omp's message shape is pi's; the line ends with a newline). */
function answerLine(parentId: string, agent: "pi" | "omp"): { id: string; bytes: Buffer } {
  const id = `b${agent}${(counter++).toString(16).padStart(6, "0")}`;
  const input = 30_000 + counter * 11;
  const message = {
    role: "assistant",
    content: [{ type: "text", text: `Done with step ${counter}: the list command now prints JSON when asked.` }],
    ...(agent === "omp" ? { api: "openai-completions", provider: "openai", model: "gpt-5" } : { provider: "anthropic", model: "claude-sonnet-4-5" }),
    usage: { input, output: 120, cacheRead: 0, cacheWrite: 0, totalTokens: input + 120, cost: { input: 0.06, output: 0.0018, cacheRead: 0, cacheWrite: 0, total: 0.0618 } },
    stopReason: "stop",
    timestamp: Date.now(),
  };
  return { id, bytes: Buffer.from(`${JSON.stringify({ type: "message", id, parentId, timestamp: new Date().toISOString(), message })}\n`) };
}

suite("benchmark: an omp 100 MB session in the host (open, live append, Compact Session) against pi's of the same size and JSON.parse", () => {
  let internals: Internals;
  let loopback: LoopbackProcess;
  let ompAgentDir: string;
  const cases: Case[] = [];

  suiteSetup(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    internals = await extensionInternals();
    await vscode.commands.executeCommand("workbench.view.extension.piSessions");
    await internals.services.sessions.sessionGroups();
    loopback = await startLoopbackProcess();
  });

  suiteTeardown(async () => {
    console.log(reported().join("\n"));
    if (!internals) return;
    await loopback?.close();
    for (const c of cases) rmSync(c.path, { force: true });
    await setSetting("omp.agentDir", undefined);
    await setSetting("omp.enabled", undefined);
    if (ompAgentDir) rmSync(ompAgentDir, { recursive: true, force: true });
    await internals.services.sessions.rediscover();
  });

  async function listed(path: string): Promise<void> {
    const sessions = internals.services.sessions;
    await waitFor(`${path} listed and its row read`, async () => {
      await sessions.rediscover();
      return sessions.allPaths().includes(path) && sessions.factsOf(path) !== undefined;
    }, 300_000);
  }

  /** Selected in the Sessions view until the store has it indexed and the status bar shows its tokens. */
  async function open(path: string): Promise<Case["open"]> {
    let waitingFor = "";
    await settleGc();
    const before = process.memoryUsage().rss;
    const { cpu, wall } = await measure(
      async () => {
        await internals.services.sessionsView.reveal(internals.services.sessionsTree.sessionNode(path), { select: true, focus: true });
      },
      () => {
        const facts = internals.services.sessions.factsOf(path);
        waitingFor = `indexed ${internals.services.store.peek(path) !== undefined}, active ${internals.services.active.path === path}, facts ${facts !== undefined}, status bar "${internals.statusBar.state.text}"${facts ? ` (row: ${tokensText(facts)})` : ""}`;
        return internals.services.store.peek(path) !== undefined && internals.services.active.path === path && facts !== undefined && internals.statusBar.state.text.includes(tokensText(facts));
      },
      180_000,
    ).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)} (${waitingFor})`);
    });
    await settleGc();
    const after = process.memoryUsage().rss;
    return { cpu, wall, rssMb: after / 1024 / 1024, rssDeltaMb: (after - before) / 1024 / 1024 };
  }

  /** RUNS answers appended to the active session, each until the row, Entries and the status bar show it: the median. */
  async function appends(path: string, agent: "pi" | "omp"): Promise<number> {
    const tree = internals.services.entriesTree;
    let parent = lastEntryId(path);
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { id, bytes } = answerLine(parent, agent);
      const fired = tree.stats.full + tree.stats.targeted;
      const { cpu } = await measure(
        () => appendFileSync(path, bytes),
        () => {
          const facts = internals.services.sessions.factsOf(path);
          return tree.stats.full + tree.stats.targeted > fired && facts?.leafId === id && internals.statusBar.state.text.includes(tokensText(facts));
        },
      );
      samples.push(cpu);
      report(`    ${agent} 100 MB append #${i + 1}: ${cpu.toFixed(1)} ms host CPU`);
      parent = id;
    }
    return median(samples);
  }

  /**
   * Compact Session through the loopback model, no preview: until the entry is written and the row shows it.
   * The RSS it leaves after a settled GC, and after a memory-reducing one (V8 gives back the pages it
   * pooled from the command's transient heap): the second is what is held.
   */
  async function compact(path: string): Promise<Case["compact"]> {
    const before = process.memoryUsage().rss;
    let written = false;
    let entryId = "";
    const r = await measure(
      async () => {
        const result = (await vscode.commands.executeCommand("piSessions.compactSession", { sessionPath: path, model: "loopback-openai/summarizer", focus: "", confirm: false })) as { ok: boolean; message?: string; value?: { written: boolean; entry: { id: string } | null } };
        if (!result.ok) throw new Error(`Compact Session failed: ${result.message}`);
        written = result.value?.written ?? false;
        entryId = result.value?.entry?.id ?? "";
      },
      () => internals.services.sessions.factsOf(path)?.leafId === entryId,
      300_000,
    );
    await settleGc();
    const settled = process.memoryUsage().rss;
    await reduceMemoryGc();
    return { ...r, written, rssDeltaMb: (settled - before) / 1024 / 1024, reducedRssDeltaMb: (process.memoryUsage().rss - before) / 1024 / 1024 };
  }

  async function measureCase(agent: "pi" | "omp", path: string): Promise<Case> {
    const parse = plainParse(path);
    report(`${agent} 100 MB (${mb(statSync(path).size)} MB): plain readFileSync + JSON.parse of every line ${parse.toFixed(0)} ms host CPU (best of 3)`);
    await settleGc();
    await measureIdle();
    const opened = await open(path);
    report(`${agent} 100 MB: select until indexed ${opened.cpu.toFixed(0)} ms host CPU, ${opened.wall.toFixed(0)} ms wall; host RSS ${opened.rssMb.toFixed(0)} MB (${opened.rssDeltaMb >= 0 ? "+" : ""}${opened.rssDeltaMb.toFixed(0)} MB)`);
    report(`  host memory: ${memoryLine()}`);
    if (PROFILING) for (const line of memoryDetail()) report(`    ${line}`);
    await sleep(1000);
    const append = await appends(path, agent);
    report(`${agent} 100 MB: an answer appended to the active session ${append.toFixed(1)} ms host CPU (median of ${RUNS})`);
    // The baseline without what V8 pooled from the steps before (the plain JSON.parse, the open, the other session's compaction).
    await reduceMemoryGc();
    await settleGc();
    heapSnapshot(`${agent}-1-before-compact`);
    const compacted = await compact(path);
    heapSnapshot(`${agent}-2-after-compact`);
    report(`${agent} 100 MB: Compact Session (loopback model) ${compacted.cpu.toFixed(0)} ms host CPU, ${compacted.wall.toFixed(0)} ms wall${compacted.written ? "" : " (nothing written!)"}; host RSS after it, GC settled, ${signed(compacted.rssDeltaMb)} MB, after a memory-reducing GC ${signed(compacted.reducedRssDeltaMb)} MB`);
    report(`  host memory: ${memoryLine()}`);
    // PI_SESSIONS_BENCH_PROFILE: where the resident memory is (V8, malloc's heap, mappings).
    if (PROFILING) for (const line of memoryDetail()) report(`    ${line}`);
    const c: Case = { agent, path, parse, open: opened, append, compact: compacted };
    cases.push(c);
    return c;
  }

  test("omp and pi 100 MB sessions: open, live append, Compact Session (host CPU, RSS)", async function () {
    this.timeout(1_200_000);
    // A fresh copy of the pi bench's session (no index snapshot yet, as the omp one), in pi's folder.
    const piPath = join(piDir(), "2026-01-03T00-00-00-000Z_pi-compared.jsonl");
    copyFileSync(PI_BIG, piPath);
    ompAgentDir = join(dirname(agentDir()), "omp-bench-agent");
    const ompFolder = ompSessionDirForCwd(workspaceDir(), join(ompAgentDir, "sessions"));
    mkdirSync(ompFolder, { recursive: true });
    const ompPath = join(ompFolder, "2026-11-01T00-00-00-000Z_019c6be9-0000-7000-8000-000000000001.jsonl");
    copyFileSync(OMP_BIG, ompPath);
    await setSetting("omp.agentDir", ompAgentDir);
    await setSetting("omp.enabled", true);
    await listed(piPath);
    await listed(ompPath);
    const facts = internals.services.sessions.factsOf(ompPath);
    if (facts?.agent !== "omp") throw new Error(`the omp session is read as ${facts?.agent}`);

    const pi = await measureCase("pi", piPath);
    const omp = await measureCase("omp", ompPath);
    const x = (a: number, b: number): string => `${(a / Math.max(b, 0.1)).toFixed(2)}×`;
    report("ratios (host CPU):");
    report(`  omp / pi: select until indexed ${x(omp.open.cpu, pi.open.cpu)}, append ${x(omp.append, pi.append)}, Compact Session ${x(omp.compact.cpu, pi.compact.cpu)}; RSS added by the open ${omp.open.rssDeltaMb.toFixed(0)} / ${pi.open.rssDeltaMb.toFixed(0)} MB, by Compact Session ${omp.compact.rssDeltaMb.toFixed(0)} / ${pi.compact.rssDeltaMb.toFixed(0)} MB`);
    report(`  against JSON.parse of the same file: omp select ${x(omp.open.cpu, omp.parse)}, Compact Session ${x(omp.compact.cpu, omp.parse)}; pi select ${x(pi.open.cpu, pi.parse)}, Compact Session ${x(pi.compact.cpu, pi.parse)}`);
    report(`host RSS at the end: ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
  });
});
