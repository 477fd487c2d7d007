// BENCH_ONLY=omp (and in the full `npm run bench`): omp sessions against omp
// 18.3.4 itself, as the pi rows are against pi. A ~100 MB omp session
// (bench/omp-session.ts): open + index, context, the `prepare --json` path, a
// compaction appended under omp's lock; and a folder of 5,000 omp sessions:
// the catalogue's cold fill and warm list. Ratios against a plain
// readFileSync + JSON.parse of every line of the same file (this process) and
// against omp's own code (SessionManager.open, buildSessionContext +
// convertToLlm, prepareCompaction, appendCompaction, SessionManager.list) run
// in a Bun worker (test/support/omp/worker.ts, built by bench/run.mjs), each
// timed inside its own process (wall and process CPU, a full GC before each run).
import { spawn } from "node:child_process";
import { appendFileSync, closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { createOmpSemantics } from "../src/core/agent/omp-18/semantics";
import { SessionCatalogue } from "../src/core/catalogue/session-catalogue";
import { sessionBranchReader } from "../src/core/context/branch-reader";
import { jsonlFilesIn } from "../src/core/discovery/discover";
import { appendEntries } from "../src/core/session/append";
import { openSession, openSessionSync, refreshSession } from "../src/core/session/open/open-session";
import { LiveSessionFacts } from "../src/core/live/live-facts";
import { openSessionInMemory } from "../src/core/session/open/open-session-in-memory";
import { findOmpInstall, ensureOmp } from "../test/support/omp/install";
import type { OmpTimings } from "../test/support/omp/bench-ops";
import { OracleWorker } from "../test/support/oracle-channel";
import { ompBigSession, ompCatalogueFolder } from "./omp-session";
import { runProcess } from "./prepare-bench";
import { timed, type Timing } from "./measure";

const best = (xs: readonly number[]): number => Math.min(...xs);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${x.toFixed(0)} ms`;

const fromOmp = (t: OmpTimings): Timing => ({ wall: t.wallMs, cpu: t.cpuMs });

/** One Bun worker running omp's own code, asked over JSON lines. */
class OmpWorker {
  private constructor(
    private readonly channel: OracleWorker,
    private readonly home: string,
  ) {}

  static async start(): Promise<OmpWorker> {
    const install = findOmpInstall() ?? (await ensureOmp());
    const worker = resolve("out/omp-worker.mjs");
    const home = mkdtempSync(join(tmpdir(), "pi-sessions-bench-omp-home-"));
    const agentDir = join(home, ".omp", "agent");
    mkdirSync(join(agentDir, "blobs"), { recursive: true });
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|OMP_|PI_|XDG_)/i.test(key)) env[key] = value;
    const child = spawn(install.bun, ["--no-install", worker, install.oracleJs], {
      cwd: home,
      env: { ...env, HOME: home, PI_CODING_AGENT_DIR: agentDir, NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const started = new OmpWorker(new OracleWorker("omp 18.3.4 bench", child), home);
    await started.ask("ping", {});
    return started;
  }

  ask<T>(op: string, args: unknown): Promise<T> {
    return this.channel.request(op, args);
  }

  close(): void {
    this.channel.close();
    rmSync(this.home, { recursive: true, force: true });
  }
}

interface Row {
  name: string;
  t: Timing;
}

function table(rows: readonly Row[], plain: Timing): string {
  const width = Math.max(...rows.map((r) => r.name.length));
  const head = `${"".padEnd(width)}  ${"best ms".padStart(8)}  ${"median".padStart(7)}  ${"CPU best".padStart(8)}  ${"× JSON.parse".padStart(12)}`;
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(width)}  ${best(r.t.wall).toFixed(0).padStart(8)}  ${median(r.t.wall).toFixed(0).padStart(7)}  ${best(r.t.cpu).toFixed(0).padStart(8)}  ${(best(r.t.wall) / best(plain.wall)).toFixed(2).padStart(12)}`,
  );
  return [head, ...lines].join("\n");
}

const ratio = (ours: Timing, theirs: Timing): string =>
  `${(best(ours.wall) / best(theirs.wall)).toFixed(2)} wall, ${(best(ours.cpu) / best(theirs.cpu)).toFixed(2)} CPU`;

export async function ompBench(fixture: string, targetBytes: number, runs: number): Promise<void> {
  const t0 = performance.now();
  const file = ompBigSession(fixture, targetBytes);
  const bytes = statSync(file).size;
  console.log(`\nomp 18.3.4 sessions (${file}: ${(bytes / 1024 / 1024).toFixed(1)} MB, made or found in ${ms(performance.now() - t0)}); best of ${runs}`);
  const worker = await OmpWorker.start();
  try {
    await bigSession(worker, file, runs);
    await catalogue(worker, fixture, runs);
  } finally {
    worker.close();
  }
}

/** BENCH_ONLY=omp-live: the live append rows alone (no omp worker). */
export async function ompLiveBench(fixture: string, targetBytes: number): Promise<void> {
  const file = ompBigSession(fixture, targetBytes);
  console.log(`\nomp 18.3.4 session ${file} (${(statSync(file).size / 1024 / 1024).toFixed(1)} MB)`);
  await liveAppend(file);
}

async function bigSession(worker: OmpWorker, file: string, runs: number): Promise<void> {
  const s = createOmpSemantics(undefined);
  const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
  const plain = timed(runs, () => {
    let n = 0;
    for (const line of readFileSync(file, "utf8").split("\n")) if (line) n += JSON.parse(line) ? 1 : 0;
    return n;
  });
  const rows: Row[] = [{ name: "plain readFileSync + JSON.parse of every line", t: plain }];
  const skim = timed(Math.max(runs, 5), () => openSessionSync(file, { skim: true }).index.size);
  rows.push({ name: "ours: open + index, skim", t: skim });
  const exact = timed(runs, () => openSessionSync(file).index.size);
  rows.push({ name: "ours: open + index, exact", t: exact });
  // As `pi-sessions context` reads it: the bodies the context reads (after omp's latest boundary), the others stubs.
  const context = timed(runs, () => s.convertToLlm(s.buildSessionContext(s.contextPath!(sessionBranchReader(openSessionSync(file)))).messages).length);
  rows.push({ name: "ours: open + context + convertToLlm (context path)", t: context });
  const contextWhole = timed(runs, () => s.convertToLlm(s.buildSessionContext(openSessionSync(file).pathTo()).messages).length);
  rows.push({ name: "ours: open + context + convertToLlm (every body)", t: contextWhole });
  const prepare = timed(runs, () => {
    const session = openSessionInMemory(file);
    const described = s.describeBranchCompaction(sessionBranchReader(session), settings);
    return described.compactable ? described.serializedHistory.length : 1;
  });
  rows.push({ name: "ours: open (in memory) + prepare, streamed (prepare --json's path)", t: prepare });
  const warm = openSessionInMemory(file);
  const streamedOnly = timed(runs, () => {
    const described = s.describeBranchCompaction(sessionBranchReader(warm), settings);
    return described.compactable ? described.messagesToSummarize : 1;
  });
  rows.push({ name: "ours: prepare, streamed (session open)", t: streamedOnly });
  const eager = timed(runs, () => {
    const plan = s.planCompaction(warm.pathTo(), settings);
    return plan.compactable ? plan.preparation.messagesToSummarize.length : 1;
  });
  rows.push({ name: "ours: prepareCompaction on the whole path (session open)", t: eager });

  const ompOpen = fromOmp(await worker.ask<OmpTimings>("benchOpen", { file, runs }));
  rows.push({ name: "omp: SessionManager.open", t: ompOpen });
  const ompContext = fromOmp(await worker.ask<OmpTimings>("benchContext", { file, runs }));
  rows.push({ name: "omp: open + buildSessionContext + convertToLlm", t: ompContext });
  const ompOpenPrepare = fromOmp(await worker.ask<OmpTimings>("benchOpenPrepare", { file, runs }));
  rows.push({ name: "omp: open + prepareCompaction", t: ompOpenPrepare });
  const ompPrepare = fromOmp(await worker.ask<OmpTimings>("benchPrepare", { file, runs }));
  rows.push({ name: "omp: prepareCompaction (session open)", t: ompPrepare });
  console.log(table(rows, plain));

  console.log("\n  ratios (best of each; CPU = the process's own)");
  console.log(`    ours open+index skim / plain JSON.parse          ${ratio(skim, plain)}`);
  console.log(`    ours open+index skim / omp SessionManager.open   ${ratio(skim, ompOpen)}`);
  console.log(`    ours open+index exact / omp SessionManager.open  ${ratio(exact, ompOpen)}`);
  console.log(`    ours open+context / omp open+context             ${ratio(context, ompContext)}`);
  console.log(`    ours open+prepare / omp open+prepareCompaction   ${ratio(prepare, ompOpenPrepare)}`);
  console.log(`    ours prepare / omp prepareCompaction (open)      ${ratio(streamedOnly, ompPrepare)}`);

  const cli = resolve("dist/cli.js");
  if (existsSync(cli)) {
    let process_ = { wallMs: Infinity, cpuMs: Infinity };
    for (let i = 0; i < runs; i++) {
      const run = await runProcess([cli, "prepare", file, "--json", "--agent", "omp"]);
      process_ = { wallMs: Math.min(process_.wallMs, run.wallMs), cpuMs: Math.min(process_.cpuMs, run.cpuMs) };
    }
    console.log(
      `  prepare as a process (pi-sessions prepare --json --agent omp, writes the serialised history): ${ms(process_.wallMs)} wall, ${ms(process_.cpuMs)} CPU; ` +
        `/ omp's open + prepareCompaction inside its worker (no Bun start-up, no output): ${(process_.cpuMs / best(ompOpenPrepare.cpu)).toFixed(2)} CPU`,
    );
  }
  await append(worker, file, runs);
  await liveAppend(file);
}

const LIVE_APPENDS = 21;

/** An entry as omp appends it while it works: prompts, answers with a tool call, omp's tool_execution_start, the results, answers. */
function ompLiveLine(parentId: string, i: number): { id: string; text: string } {
  const id = `bench${i.toString(16).padStart(4, "0")}${process.pid.toString(16)}`;
  const timestamp = new Date(Date.UTC(2026, 10, 28, 12, 0, i)).toISOString();
  const usage = { input: 90_000 + i, output: 400, cacheRead: 0, cacheWrite: 0, totalTokens: 90_400 + i };
  const answer = (content: unknown[], stopReason: string) => ({ role: "assistant", content, api: "openai-completions", provider: "fake", model: "fake-coder", usage, stopReason, timestamp: i });
  const call = `call-bench-${i - 1}`;
  const bodies: Record<string, unknown>[] = [
    { type: "message", message: { role: "user", content: [{ type: "text", text: `Step ${i}: look at the tests again.` }], attribution: "user", timestamp: i } },
    { type: "message", message: answer([{ type: "text", text: "Reading them." }, { type: "toolCall", id: `call-bench-${i}`, name: "read", arguments: { path: "test/a.ts" } }], "toolUse") },
    { type: "custom", customType: "tool_execution_start", data: { toolCallId: call, toolName: "read" } },
    { type: "message", message: { role: "toolResult", toolCallId: `call-bench-${i - 2}`, toolName: "read", content: [{ type: "text", text: "x".repeat(4000) }], isError: false, timestamp: i } },
    { type: "message", message: answer([{ type: "text", text: `Done with step ${i}: ${"the answer ".repeat(80)}` }], "stop") },
  ];
  return { id, text: `${JSON.stringify({ ...bodies[i % bodies.length], id, parentId, timestamp })}\n` };
}

/**
 * What the extension does when omp appends to the open session: refreshSession,
 * then LiveSessionFacts.update with omp's token rule; beside it the same facts
 * without the count kept over appends (a recount from ompRecountStart on every
 * append, as before), every 4th append, compared equal.
 */
async function liveAppend(file: string): Promise<void> {
  const copy = join(tmpdir(), `pi-sessions-bench-omp-live-${process.pid}.jsonl`);
  copyFileSync(file, copy);
  try {
    const rule = createOmpSemantics(undefined).contextTokenRule;
    let session = await openSession(copy);
    const facts = new LiveSessionFacts(session, rule);
    const recounting = new LiveSessionFacts(session, { ...rule, incremental: undefined });
    let leaf = session.index.leafId!;
    const kept: Timing = { wall: [], cpu: [] };
    const recount: Timing = { wall: [], cpu: [] };
    const time = (into: Timing, f: () => void) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      f();
      into.wall.push(performance.now() - t0);
      into.cpu.push(cpuSince(c0));
    };
    for (let i = 0; i < LIVE_APPENDS; i++) {
      const line = ompLiveLine(leaf, i);
      appendFileSync(copy, line.text);
      leaf = line.id;
      const r = await refreshSession(session);
      session = r.session;
      if (i % 4 === 0) time(recount, () => recounting.update(session));
      time(kept, () => facts.update(session));
      if (r.change !== "appended" || facts.current.leafId !== leaf) throw new Error(`bench: append not seen (${r.change})`);
      if (i % 4 === 0 && JSON.stringify(recounting.current.usage) !== JSON.stringify(facts.current.usage)) throw new Error("bench: live usage differs from the recount");
    }
    const m = (t: Timing) => `median ${median(t.wall).toFixed(2)} ms wall / ${median(t.cpu).toFixed(2)} ms CPU (max ${Math.max(...t.wall).toFixed(2)})`;
    console.log(
      `  omp's live facts after an append to the open 100 MB session (refresh not counted; LiveSessionFacts.update with omp's rule; prompts, answers with a tool call, omp's custom entries, results): ` +
        `${m(kept)} over ${LIVE_APPENDS} appends; recounted from ompRecountStart on every append (before): ${m(recount)} over ${recount.wall.length}`,
    );
  } finally {
    rmSync(copy, { force: true });
  }
}

async function append(worker: OmpWorker, file: string, runs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-bench-omp-append-"));
  try {
    const copies = Array.from({ length: runs }, (_, i) => join(dir, `ours-${i}.jsonl`));
    const theirs = Array.from({ length: runs }, (_, i) => join(dir, `omp-${i}.jsonl`));
    // Written to disk before the appends: a copy's dirty pages would be flushed by the first sync of either side.
    for (const copy of [...copies, ...theirs]) {
      copyFileSync(file, copy);
      const fd = openSync(copy, "r+");
      fsyncSync(fd);
      closeSync(fd);
    }
    const sessions = copies.map((copy) => openSessionSync(copy, { skim: true }));
    const firstKeptEntryId = sessions[0]!.index.idAt(sessions[0]!.index.size - 20);
    let i = 0;
    const ours = timed(runs, () => {
      const result = appendEntries(
        sessions[i++]!,
        [{ type: "compaction", summary: "## Goal\nBenchmark.\n", firstKeptEntryId, tokensBefore: 1000, details: { readFiles: [], modifiedFiles: [] }, fromExtension: false, shortSummary: "benchmark", tokensAfter: 100 }],
        { dialect: "omp" },
      );
      return result.entries.length;
    });
    for (const copy of copies) if (statSync(copy).size <= statSync(file).size) throw new Error("append: nothing written");
    const omp = fromOmp(await worker.ask<OmpTimings>("benchAppend", { copies: theirs, firstKeptEntryId }));
    console.log(
      `  a compaction appended to the 100 MB session (open before, not timed): ours (appendEntries, omp's publish lock, tail re-checked) best ${best(ours.wall).toFixed(2)} ms wall / ${best(ours.cpu).toFixed(2)} ms CPU (median ${median(ours.wall).toFixed(2)}); ` +
        `omp (appendCompaction + flush) ${best(omp.wall).toFixed(2)} / ${best(omp.cpu).toFixed(2)} ms (median ${median(omp.wall).toFixed(2)}): ${ratio(ours, omp)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function catalogue(worker: OmpWorker, fixture: string, runs: number): Promise<void> {
  const count = Number(process.env.BENCH_SESSIONS ?? 5000);
  const t0 = performance.now();
  const folder = ompCatalogueFolder(fixture, count);
  const files = await jsonlFilesIn(folder);
  const total = files.reduce((n, f) => n + statSync(f).size, 0);
  console.log(`\n  omp catalogue: ${files.length} omp sessions, ${(total / 1024 / 1024).toFixed(0)} MB in ${folder} (made or found in ${ms(performance.now() - t0)})`);
  const cache = join(tmpdir(), `pi-sessions-bench-omp-catalogue-cache-${process.pid}`);
  try {
    let cold: Timing = { wall: [], cpu: [] };
    let coldRows = 0;
    for (let i = 0; i < runs; i++) {
      rmSync(cache, { recursive: true, force: true });
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const catalogue = await SessionCatalogue.open(cache);
      const rows = await catalogue.list(files);
      await catalogue.save();
      cold = { wall: [...cold.wall, performance.now() - w0], cpu: [...cold.cpu, cpuSince(c0)] };
      coldRows = rows.length;
      if (!rows.every((r) => r.agent === "omp")) throw new Error("omp catalogue: a row not read as omp's");
    }
    let warm: Timing = { wall: [], cpu: [] };
    for (let i = 0; i < runs; i++) {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const catalogue = await SessionCatalogue.open(cache);
      const rows = await catalogue.list(files);
      warm = { wall: [...warm.wall, performance.now() - w0], cpu: [...warm.cpu, cpuSince(c0)] };
      if (rows.length !== coldRows) throw new Error("omp catalogue: warm rows differ");
    }
    const omp = await worker.ask<OmpTimings>("benchList", { dir: folder, runs });
    console.log(`    ours, cold fill (empty cache: every file read, then saved): best ${ms(best(cold.wall))} wall / ${ms(best(cold.cpu))} CPU for ${coldRows} rows`);
    console.log(`    ours, warm list (catalogue loaded, every file stat'ed): best ${ms(best(warm.wall))} wall / ${ms(best(warm.cpu))} CPU`);
    console.log(`    omp: SessionManager.list (what /resume lists: a 4 KiB head and 32 KiB tail per file) ${ms(best(omp.wallMs))} wall / ${ms(best(omp.cpuMs))} CPU for ${omp.result} sessions`);
    console.log(`    ratio cold fill / omp list ${ratio(cold, fromOmp(omp))}; warm list / omp list ${ratio(warm, fromOmp(omp))}`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

function cpuSince(c0: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}
