// npm run bench (BENCH_ONLY=catalogue or catalogue-edit): pi 1.5 context
// edits appended to a listed (not opened) 100 MB session, as pi writes them on
// an auto-retry: a failed answer, `context_edit null` of it, the retry's answer.
// Each write is answered by the catalogue's refresh of that one file (what the
// Sessions view does for a listed session); its process CPU is measured. Before
// this branch every edit read the whole file again: that read (readRecord, the
// catalogue's full read) is timed beside it. The first edit after a full read
// that did not need pi's whole projected sum (usage after every reset) still
// reads the file once: that read keeps the sum for the next edits. Below a
// compaction the sum is kept from the kept range the full read counts.
// "Listed, an append then the first edit": the live case (sum-ahead.ts). A cold
// listing (no sum kept), then pi's failed answer: the row asks the catalogue's
// child process (dist/catalogue-fill.js, built by `npm run bench`) for the sum;
// the edit comes once it is kept. Host CPU of each refresh, of the wait (the
// child's start, its answer, the sum carried), and the child's CPU. Then the
// edit as pi writes it, right after the failed answer: its refresh waits for
// the sum in flight ("in flight"), or asks for it when both lines are seen in
// one write ("one write"); host CPU of that refresh from its start to its row.
import { appendFileSync, closeSync, copyFileSync, fstatSync, mkdirSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionCatalogue } from "../src/core/catalogue/session-catalogue";
import { readRecord } from "../src/core/catalogue/read-record";
import { rowVersionPolicy } from "../src/core/catalogue/catalogue-row";
import { projectedResumeOfPath } from "../src/core/catalogue/projected-resume";
import { openSessionSync } from "../src/core/session/open/open-session";
import { childBulkReader } from "../src/core/catalogue/child-bulk-reader";
import type { BulkReader } from "../src/core/catalogue/bulk-reader";

const ms = (x: number): string => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
let counter = 0;

function line(fields: Record<string, unknown>): { id: string; text: string } {
  const id = `b${(counter++).toString(16).padStart(7, "0")}`;
  return { id, text: `${JSON.stringify({ ...fields, id, timestamp: new Date().toISOString() })}\n` };
}

const usage = (input: number) => ({ input, output: 200, cacheRead: 0, cacheWrite: 0, totalTokens: input + 200, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.3 } });
const assistant = (parentId: string, stopReason: string, input: number) =>
  line({ type: "message", parentId, message: { role: "assistant", content: stopReason === "error" ? [] : [{ type: "text", text: "Done." }], provider: "anthropic", model: "claude-sonnet-4-5", usage: usage(input), stopReason, timestamp: Date.now() } });

/** The id of the file's last line (the big session is one branch: its leaf). */
function lastId(file: string): string {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size, 4 << 20));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const text = tail.toString("utf8").trimEnd();
    return (JSON.parse(text.slice(text.lastIndexOf("\n") + 1)) as { id: string }).id;
  } finally {
    closeSync(fd);
  }
}

function cpuMs(run: () => void): number {
  const c0 = process.cpuUsage();
  run();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

async function timedRefresh(catalogue: SessionCatalogue, file: string, written: { text: string }, reader?: BulkReader): Promise<{ cpu: number; appended: boolean }> {
  appendFileSync(file, written.text);
  const before = catalogue.stats.appended;
  const c0 = process.cpuUsage();
  const row = await catalogue.refresh(file, reader);
  const c = process.cpuUsage(c0);
  if (!row) throw new Error("bench: no row");
  return { cpu: (c.user + c.system) / 1000, appended: catalogue.stats.appended === before + 1 };
}

/** A listed pi 1.5 session as listed cold, with the answer pi 1.5 writes after its system message. */
async function coldListed(bigFile: string, file: string, cache: string, options: { explicitVersion: "1.5" }): Promise<{ catalogue: SessionCatalogue; cpu: number }> {
  rmSync(cache, { recursive: true, force: true });
  copyFileSync(bigFile, file);
  const system = line({ type: "message", parentId: lastId(file), message: { role: "system", content: "", sections: { preamble: "You are an expert coding assistant." }, timestamp: Date.now() } });
  appendFileSync(file, system.text + assistant(system.id, "stop", 90_000).text);
  const catalogue = await SessionCatalogue.open(cache, options);
  const c0 = process.cpuUsage();
  await catalogue.list([file]);
  const c = process.cpuUsage(c0);
  return { catalogue, cpu: (c.user + c.system) / 1000 };
}

/** pi's edit right after the failed answer: while the sum is computed, or in the same write (see above). */
async function editsInFlight(bigFile: string, file: string, cache: string, options: { explicitVersion: "1.5" }): Promise<void> {
  const reader = childBulkReader(join(process.cwd(), "dist/catalogue-fill.js"));
  for (const mode of ["in flight", "one write"] as const) {
    const r: { failed: number; edit: number; wall: number; reads: number; child: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const { catalogue } = await coldListed(bigFile, file, cache, options);
      const failed = assistant(lastId(file), "error", 0);
      const edit = line({ type: "context_edit", parentId: failed.id, targetId: failed.id, replacement: null });
      const reads = catalogue.stats.read;
      const f = mode === "in flight" ? await timedRefresh(catalogue, file, failed, reader) : { cpu: 0 };
      const t0 = Date.now();
      const e = await timedRefresh(catalogue, file, mode === "in flight" ? edit : { text: failed.text + edit.text }, reader);
      const wall = Date.now() - t0;
      await catalogue.sumsSettled();
      r.push({ failed: f.cpu, edit: e.cpu, wall, reads: catalogue.stats.read - reads, child: catalogue.stats.sumsCpuMs });
    }
    const range = (xs: number[]): string => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;
    console.log(`\ncatalogue, listed pi 1.5 session, pi's edit ${mode === "in flight" ? "right after the failed answer (the sum in flight)" : "in the failed answer's write (no sum asked yet)"} (100 MB, 3 cold listings):`);
    if (mode === "in flight") console.log(`  the failed answer's refresh: ${range(r.map((x) => x.failed))}`);
    console.log(`  the edit's refresh, from its start to its row: host ${range(r.map((x) => x.edit))} CPU, ${range(r.map((x) => x.wall))} wall (waiting for the child: ${range(r.map((x) => x.child))} CPU there); whole reads here: ${r.map((x) => x.reads).join("/")}   (target ≤ 10 ms host CPU, 0 reads)`);
  }
  rmSync(cache, { recursive: true, force: true });
}

/** A listed pi 1.5 session, an append then the first edit (see above), three times from a cold listing. */
async function liveFirstEdits(bigFile: string, file: string, cache: string, options: { explicitVersion: "1.5" }): Promise<void> {
  const script = join(process.cwd(), "dist/catalogue-fill.js");
  const reader = childBulkReader(script);
  const r: { list: number; failed: number; wait: number; wall: number; child: number; edit: number; appended: boolean; kept: number }[] = [];
  for (let i = 0; i < 3; i++) {
    // The big session (pi 0.73's layout) marked as pi 1.5 marks its sessions, with a system message (without
    // a marker the first edit is the file's first marker, which a row reads the file for), and an answer after it.
    const { catalogue, cpu: list } = await coldListed(bigFile, file, cache, options);
    const failed = assistant(lastId(file), "error", 0);
    const f = await timedRefresh(catalogue, file, failed, reader);
    const w0 = process.cpuUsage();
    const t0 = Date.now();
    await catalogue.sumsSettled();
    const w = process.cpuUsage(w0);
    const wall = Date.now() - t0;
    const edit = line({ type: "context_edit", parentId: failed.id, targetId: failed.id, replacement: null });
    const e = await timedRefresh(catalogue, file, edit, reader);
    const answer = assistant(edit.id, "stop", 90_000);
    await timedRefresh(catalogue, file, answer, reader);
    r.push({ list, failed: f.cpu, wait: (w.user + w.system) / 1000, wall, child: catalogue.stats.sumsCpuMs, edit: e.cpu, appended: e.appended, kept: catalogue.stats.sumsKept });
  }
  const range = (xs: number[]): string => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;
  console.log(`\ncatalogue, listed pi 1.5 session, an append then the first edit (100 MB, 3 cold listings; host = this process's CPU):`);
  console.log(`  cold listing (no sum kept): ${range(r.map((x) => x.list))}; the failed answer's refresh (asks for the sum): ${range(r.map((x) => x.failed))}`);
  console.log(`  until the sum is kept: host ${range(r.map((x) => x.wait))} (child start, answer, sum carried), child ${range(r.map((x) => x.child))} CPU, ${range(r.map((x) => x.wall))} wall; sums kept ${r.map((x) => x.kept).join("/")}`);
  console.log(`  the first edit: ${range(r.map((x) => x.edit))} (${r.filter((x) => x.appended).length}/3 from the appended bytes; before: a full read, see below)   (target ≤ 10 ms host CPU)`);
  rmSync(cache, { recursive: true, force: true });
}

export async function catalogueEditBench(bigFile: string): Promise<void> {
  const folder = join(tmpdir(), `pi-sessions-bench-catalogue-edit-${process.pid}`);
  const cache = `${folder}-cache`;
  mkdirSync(folder, { recursive: true });
  const file = join(folder, "session.jsonl");
  copyFileSync(bigFile, file);
  try {
    // A pi 1.5 session (the 100 MB one is pi 0.73's layout: counted with pi 1.5's rule here).
    const options = { explicitVersion: "1.5" as const };
    await liveFirstEdits(bigFile, file, `${cache}-live`, options);
    await editsInFlight(bigFile, file, `${cache}-in-flight`, options);
    copyFileSync(bigFile, file);
    const catalogue = await SessionCatalogue.open(cache, options);
    const [listed] = await catalogue.list([file]);
    await catalogue.save();
    let leaf = lastId(file);
    const retry = async (): Promise<{ failed: number; edit: number; answer: number; editAppended: boolean }> => {
      const failed = assistant(leaf, "error", 0);
      const f = await timedRefresh(catalogue, file, failed);
      const edit = line({ type: "context_edit", parentId: failed.id, targetId: failed.id, replacement: null });
      const e = await timedRefresh(catalogue, file, edit);
      const answer = assistant(edit.id, "stop", 90_000);
      const a = await timedRefresh(catalogue, file, answer);
      leaf = answer.id;
      return { failed: f.cpu, edit: e.cpu, answer: a.cpu, editAppended: e.appended };
    };
    const first = await retry();
    // What every edit cost before: the full read of the file ending in an edit (pi's whole projected sum).
    const tailEdit = line({ type: "context_edit", parentId: leaf, targetId: leaf, replacement: { content: "shortened" } });
    appendFileSync(file, tailEdit.text);
    const fullRead = cpuMs(() => readRecord(file, rowVersionPolicy(options)));
    const afterTailEdit = assistant(tailEdit.id, "stop", 90_000);
    await catalogue.refresh(file);
    await timedRefresh(catalogue, file, afterTailEdit);
    leaf = afterTailEdit.id;
    const edits: number[] = [];
    const others: number[] = [];
    let appended = 0;
    for (let i = 0; i < 20; i++) {
      const r = await retry();
      edits.push(r.edit);
      others.push(r.failed, r.answer);
      if (r.editAppended) appended++;
    }
    // The file now ends in edit, answer: a full read recounts the whole branch (pi's usage after a reset) and keeps the sum from it.
    const recountRead = cpuMs(() => readRecord(file, rowVersionPolicy(options)));
    const branch = openSessionSync(file, { skim: true }).pathTo();
    const sumFromRecount = cpuMs(() => projectedResumeOfPath(branch));
    // An appended compaction reads the file (the rule restarts at its kept range); the sum is kept from that range.
    const compaction = line({ type: "compaction", parentId: leaf, summary: "The work so far.", firstKeptEntryId: leaf, tokensBefore: 150_000 });
    const compactionRead = await timedRefresh(catalogue, file, compaction);
    leaf = compaction.id;
    const belowCompaction: number[] = [];
    for (let i = 0; i < 5; i++) belowCompaction.push((await retry()).edit);
    belowCompaction.sort((a, b) => a - b);
    await catalogue.save();
    edits.sort((a, b) => a - b);
    others.sort((a, b) => a - b);
    console.log(`\ncatalogue, pi 1.5 context edit appended to a listed ${(listed!.size / 1024 / 1024).toFixed(0)} MB session (refresh of its row, process CPU):`);
    console.log(`  before this branch every edit read the file in full: ${ms(fullRead)} CPU (readRecord of the file ending in an edit)`);
    console.log(
      `  first edit after a full read that did not need the whole projected sum: ${ms(first.edit)} (reads the file once, keeping the sum); then over 20 retries: edit median ${ms(edits[10]!)}, max ${ms(edits[19]!)} (${appended}/20 from the appended bytes); failed answer / retry answer median ${ms(others[20]!)}   (target ≤ 10 ms host CPU)`,
    );
    console.log(`  a full read of the file ending in edit, answer (the branch recounted): ${ms(recountRead)}, of which keeping the sum from the recounted entries ${ms(sumFromRecount)}`);
    console.log(`  an appended compaction: ${ms(compactionRead.cpu)} (reads the file); then edits below it: median ${ms(belowCompaction[2]!)}, max ${ms(belowCompaction[4]!)} over 5 retries`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}
