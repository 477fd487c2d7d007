// npm run bench: our core against pi 0.73.1 and plain JSON.parse on the same
// ~100 MB v3 session, built from pi's large fixture. Prints times and ratios.
import { existsSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { buildSessionContext as piBuildSessionContext, convertToLlm as piConvertToLlm, parseSessionEntries, SessionManager } from "@mariozechner/pi-coding-agent";
import { planCompaction } from "../src/core/compaction";
import { buildContextFromPath, convertToLlm } from "../src/core/context";
import { bashCommandFilesTouched, clearBashAnalysisCache, collectFilesTouched, initFilesTouched } from "../src/core/files-touched";
import { parseSimpleBash } from "../src/core/files-touched/simple-bash";
import { openSessionSync } from "../src/core/session/open/open-session";
import { DEFAULT_COMPACTION_SETTINGS } from "../src/core/settings";
import { buildBigSession } from "./big-session";
import { catalogueBench, liveBench } from "./live-bench";
import { catalogueEditBench } from "./catalogue-edit-bench";
import { fileTouchesBench } from "./file-touches-bench";
import { formatTable, measure, type Row } from "./measure";
import { openBench } from "./open-bench";
import { prepareProcessBench } from "./prepare-bench";
import { piHookBench } from "./pi-hook-bench";
import { usageBench } from "./usage-bench";
import { ompBench, ompLiveBench } from "./omp-bench";

const LARGE_FIXTURE = resolve("test/fixtures/pi-mono/large-session.jsonl");
const TARGET_BYTES = Number(process.env.BENCH_MB ?? 100) * 1024 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === "usage") {
    await usageBench(LARGE_FIXTURE);
    return;
  }
  const piCompaction = await import(pathToFileURL(resolve("node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js")).href);
  const file = join(tmpdir(), `pi-sessions-bench-${TARGET_BYTES}.jsonl`);
  if (!existsSync(file)) buildBigSession(LARGE_FIXTURE, file, TARGET_BYTES);
  const bytes = statSync(file).size;
  console.log(`session: ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB), best of ${RUNS} runs\n`);
  const only = process.env.BENCH_ONLY;
  if (only === "catalogue-edit") {
    await catalogueEditBench(file);
    return;
  }
  if (only === "pi-hook") {
    await piHookBench(openSessionSync(file).pathTo(), RUNS);
    return;
  }
  if (only === "omp") {
    await ompBench(LARGE_FIXTURE, TARGET_BYTES, RUNS);
    return;
  }
  if (only === "omp-live") {
    await ompLiveBench(LARGE_FIXTURE, TARGET_BYTES);
    return;
  }
  if (only === "open") {
    await openBench(file, Math.max(RUNS, 5));
    return;
  }
  if (only === "live" || only === "catalogue" || only === "files" || only === "prepare") {
    if (only === "live") await liveBench(file, RUNS);
    else if (only === "prepare") await prepareProcessBench(file, RUNS);
    else if (only === "catalogue") {
      await catalogueEditBench(file);
      await catalogueBench(LARGE_FIXTURE);
    }
    else {
      await filesTouchedBench(file, openSessionSync(file).pathTo());
      await fileTouchesBench(LARGE_FIXTURE);
    }
    return;
  }

  const rows: Row[] = [];
  const plain = measure("plain readFileSync + JSON.parse of every line", RUNS, () => {
    const lines = readFileSync(file, "utf8").split("\n");
    let n = 0;
    for (const line of lines) if (line) n += JSON.parse(line) ? 1 : 0;
    return n;
  });
  rows.push(plain);

  const ourOpen = measure("ours: open + index", RUNS, () => openSessionSync(file).index.size);
  rows.push(ourOpen);
  const ourContext = measure("ours: open + context (leaf path, bodies parsed)", RUNS, () => {
    const session = openSessionSync(file);
    return convertToLlm(buildContextFromPath(session.pathTo()).messages).length;
  });
  rows.push(ourContext);
  const warmSession = openSessionSync(file);
  const warmPath = warmSession.pathTo();
  const ourPrepare = measure("ours: prepareCompaction (entries in memory)", RUNS, () => {
    const plan = planCompaction(warmPath, DEFAULT_COMPACTION_SETTINGS);
    return plan.compactable ? plan.preparation.messagesToSummarize.length : 0;
  });
  rows.push(ourPrepare);
  const ourPrepareCold = measure("ours: open + prepareCompaction", RUNS, () => {
    const plan = planCompaction(openSessionSync(file).pathTo(), DEFAULT_COMPACTION_SETTINGS);
    return plan.compactable ? plan.preparation.messagesToSummarize.length : 0;
  });
  rows.push(ourPrepareCold);

  const piOpen = measure("pi: SessionManager.open", RUNS, () => SessionManager.open(file).getEntries().length);
  rows.push(piOpen);
  const piContext = measure("pi: parse + buildSessionContext + convertToLlm", RUNS, () => {
    const entries = parseSessionEntries(readFileSync(file, "utf8")).filter((e: { type: string }) => e.type !== "session");
    return piConvertToLlm(piBuildSessionContext(entries as never).messages).length;
  });
  rows.push(piContext);
  const piBranch = SessionManager.open(file).getBranch();
  const piPrepare = measure("pi: prepareCompaction (entries in memory)", RUNS, () => {
    const prep = piCompaction.prepareCompaction(piBranch, DEFAULT_COMPACTION_SETTINGS);
    return prep ? prep.messagesToSummarize.length : 0;
  });
  rows.push(piPrepare);

  console.log(formatTable(rows, plain));
  const ratio = (a: Row, b: Row) => (a.bestMs / b.bestMs).toFixed(2);
  console.log("\nratios");
  console.log(`  ours open+index / plain JSON.parse          ${ratio(ourOpen, plain)}   (target ≤ 1.00)`);
  console.log(`  ours open+index / pi SessionManager.open    ${ratio(ourOpen, piOpen)}`);
  console.log(`  ours open+context / pi parse+context        ${ratio(ourContext, piContext)}`);
  console.log(`  ours prepare / pi prepare (in memory)       ${ratio(ourPrepare, piPrepare)}   (target ≤ 0.50)`);
  console.log(`  ours open+prepare / pi prepare (in memory)  ${ratio(ourPrepareCold, piPrepare)}`);

  console.log("\nmemory after open (heapUsed delta, MB)");
  console.log(`  ours: ${heapDelta(() => openSessionSync(file)).toFixed(1)}   pi: ${heapDelta(() => SessionManager.open(file)).toFixed(1)}`);

  await prepareProcessBench(file, RUNS);
  await filesTouchedBench(file, warmPath);
  await piHookBench(warmPath, RUNS);
  await liveBench(file, RUNS);
  await catalogueEditBench(file);
  await catalogueBench(LARGE_FIXTURE);
  await usageBench(LARGE_FIXTURE);
  await fileTouchesBench(LARGE_FIXTURE);
  await ompBench(LARGE_FIXTURE, TARGET_BYTES, RUNS);
}

function heapDelta(make: () => unknown): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const kept = make();
  gc?.();
  const after = process.memoryUsage().heapUsed;
  if (!kept) throw new Error("nothing made");
  return (after - before) / 1024 / 1024;
}

async function filesTouchedBench(file: string, bigPath: ReturnType<typeof openSessionSync>["pathTo"] extends (...a: never[]) => infer R ? R : never): Promise<void> {
  console.log("\nfiles touched");
  const coldStart = performance.now();
  await initFilesTouched();
  console.log(`  parser cold start: ${(performance.now() - coldStart).toFixed(1)} ms`);
  const large = openSessionSync(LARGE_FIXTURE);
  const largePath = large.pathTo();
  const cwd = large.header?.cwd ?? "/";
  // Both sides warmed once first: in the full run open + context has just run on the 100 MB
  // session while the manifest code has not (its first call pays for compiling it).
  const firstStart = performance.now();
  clearBashAnalysisCache();
  collectFilesTouched(largePath, { cwd });
  const firstMs = performance.now() - firstStart;
  convertToLlm(buildContextFromPath(openSessionSync(LARGE_FIXTURE).pathTo()).messages);
  // Tens of ms each: more runs than the 100 MB rows for a steadier best.
  const smallRuns = Math.max(RUNS, 10);
  const context = measure("large fixture: open + context", smallRuns, () => convertToLlm(buildContextFromPath(openSessionSync(LARGE_FIXTURE).pathTo()).messages).length);
  const manifest = measure("large fixture: manifest (uncached)", smallRuns, () => {
    clearBashAnalysisCache();
    return collectFilesTouched(largePath, { cwd }).files.length;
  });
  const cached = measure("large fixture: manifest (cached)", smallRuns, () => collectFilesTouched(largePath, { cwd }).files.length);
  console.log(`  large fixture: open + context ${context.bestMs.toFixed(1)} ms; manifest ${manifest.bestMs.toFixed(1)} ms uncached = ${((100 * manifest.bestMs) / context.bestMs).toFixed(0)}% (target ≤ 25%), ${cached.bestMs.toFixed(1)} ms cached = ${((100 * cached.bestMs) / context.bestMs).toFixed(1)}% (target < 5%); medians ${context.medianMs.toFixed(1)} / ${manifest.medianMs.toFixed(1)} / ${cached.medianMs.toFixed(1)} ms`);
  console.log(`  first manifest in the process (code not yet compiled, uncached): ${firstMs.toFixed(1)} ms`);
  const commands = bashCommands(largePath);
  const perThousand = measure("1000 bash commands", RUNS, () => {
    let n = 0;
    for (let i = 0; i < 1000; i++) {
      clearBashAnalysisCache();
      n += bashCommandFilesTouched(commands[i % commands.length]!, { cwd }).files.length;
    }
    return n + 1;
  });
  console.log(`  1,000 bash commands, uncached (the fixture's ${commands.length} bash calls, cycled): ${perThousand.bestMs.toFixed(1)} ms`);
  const simple = commands.filter((c) => parseSimpleBash(c) !== undefined).length;
  console.log(`  bash calls parsed by the simple-command parser (the rest by tree-sitter): ${simple} of ${commands.length}`);
  clearBashAnalysisCache();
  const big = measure("100 MB session manifest", 1, () => collectFilesTouched(bigPath, { cwd }).files.length + 1);
  console.log(`  ${(statSync(file).size / 1024 / 1024).toFixed(0)} MB session manifest: ${big.bestMs.toFixed(0)} ms`);
}

function bashCommands(path: readonly { type: string }[]): string[] {
  const out: string[] = [];
  for (const entry of path) {
    const message = (entry as { message?: { role?: string; content?: unknown } }).message;
    if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; name?: string; arguments?: { command?: unknown } }[]) {
      if (block.type === "toolCall" && block.name === "bash" && typeof block.arguments?.command === "string") out.push(block.arguments.command);
    }
  }
  return out;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
