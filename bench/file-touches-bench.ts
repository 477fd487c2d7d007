// Files ⇄ sessions: *Sessions That Touched This File* over the 5,000-session
// bench folder, as the extension runs it (every session's touches from the
// touch store, then the rows of one file), with an empty store (cold: every
// session read and analysed), with the store saved by that run and reopened
// (warm: what a VS Code restart finds), and after appends to some sessions.
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { performance } from "node:perf_hooks";
import { FileTouchStore } from "../src/core/file-history/touch-store";
import { clearBashAnalysisCache, initFilesTouched } from "../src/core/files-touched";
import { jsonlFilesIn } from "../src/core/discovery/discover";
import { catalogueFolder } from "./catalogue-folder";

const ms = (t: number): string => `${t.toFixed(0)} ms`;

async function sessionsTouching(store: FileTouchStore, files: readonly string[], target: string): Promise<{ sessions: number; rows: number }> {
  let sessions = 0;
  let rows = 0;
  for (const file of files) {
    const found = store.touchesOfFileIn(file, target, "/");
    if (found.length > 0) sessions++;
    rows += found.length;
  }
  await store.save();
  return { sessions, rows };
}

export async function fileTouchesBench(fixture: string): Promise<void> {
  const count = Number(process.env.BENCH_SESSIONS ?? 5000);
  console.log(`\nfiles ⇄ sessions: Sessions That Touched This File over ${count} sessions`);
  await initFilesTouched();
  const folder = catalogueFolder(fixture, count);
  const files = await jsonlFilesIn(folder);
  const cache = join(tmpdir(), `pi-sessions-bench-file-touches-${process.pid}`);
  rmSync(cache, { recursive: true, force: true });
  try {
    // The file the fixture touches most often.
    const probe = await FileTouchStore.open(join(cache, "probe"));
    const counts = new Map<string, number>();
    for (const t of probe.touchesOf(fixture, "/")) counts.set(t.path, (counts.get(t.path) ?? 0) + 1);
    const target = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    // And one only the longest sessions reach: the last file the fixture touches first.
    const rare = [...counts.keys()].pop()!;

    clearBashAnalysisCache();
    const c0 = performance.now();
    const cold = await sessionsTouching(await FileTouchStore.open(cache), files, target);
    const coldMs = performance.now() - c0;
    console.log(`  cold (empty store: every session read and analysed, then saved): ${ms(coldMs)}; ${cold.rows} rows in ${cold.sessions} sessions for ${basename(target)}`);

    const w0 = performance.now();
    const reopened = await FileTouchStore.open(cache);
    const openMs = performance.now() - w0;
    const warm = await sessionsTouching(reopened, files, target);
    const warmMs = performance.now() - w0;
    if (warm.rows !== cold.rows) throw new Error(`warm found ${warm.rows} rows, cold ${cold.rows}`);
    console.log(`  warm (store reopened from disk, as after a restart): ${ms(warmMs)} (load ${ms(openMs)}) = ${((100 * warmMs) / coldMs).toFixed(1)}% of cold`);
    const s0 = performance.now();
    await sessionsTouching(reopened, files, target);
    console.log(`  again in the same process (nothing changed): ${ms(performance.now() - s0)}`);
    const r0 = performance.now();
    const rareFound = await sessionsTouching(await FileTouchStore.open(cache), files, rare);
    console.log(`  warm, a file few sessions touched (${basename(rare)}: ${rareFound.sessions} sessions): ${ms(performance.now() - r0)}`);

    // Appends: 50 sessions copied aside, each grown by a tool call and its result.
    const grown = join(cache, "grown");
    mkdirSync(grown, { recursive: true });
    const some = files.slice(0, 50).map((f) => {
      const copy = join(grown, basename(f));
      copyFileSync(f, copy);
      return copy;
    });
    const store = await FileTouchStore.open(join(cache, "grown-store"));
    await sessionsTouching(store, some, target);
    let n = 0;
    for (const f of some) {
      const last = readFileSync(f, "utf8").trimEnd().split("\n").pop()!;
      const parentId = (JSON.parse(last) as { id?: string }).id ?? null;
      const id = `bench${n++}`;
      const call = { type: "message", id: `${id}a`, parentId, timestamp: new Date().toISOString(), message: { role: "assistant", content: [{ type: "toolCall", id: `${id}c`, name: "bash", arguments: { command: `sed -i 's/a/b/' ${target}` } }], provider: "p", model: "m", timestamp: 1 } };
      const result = { type: "message", id: `${id}r`, parentId: `${id}a`, timestamp: new Date().toISOString(), message: { role: "toolResult", toolCallId: `${id}c`, toolName: "bash", content: [{ type: "text", text: "" }], isError: false, timestamp: 2 } };
      appendFileSync(f, `${JSON.stringify(call)}\n${JSON.stringify(result)}\n`);
    }
    const a0 = performance.now();
    const appended = await sessionsTouching(store, some, target);
    console.log(`  50 sessions after an append each (only the new lines analysed): ${ms(performance.now() - a0)}; ${appended.sessions} of 50 touch it`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
