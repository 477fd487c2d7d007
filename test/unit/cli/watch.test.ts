// `pi-sessions watch` as a real child process: lines appended to the file
// appear as one JSON line each (leaf, entries, context tokens against the
// window, would-compact); a rewrite and a deletion are reported; Ctrl-C
// (SIGINT) ends it with exit code 0.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileModel } from "../../support/session-lines";
import { copyFileSync } from "node:fs";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures";

let dir: string;
let cliJs: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-watch-"));
  cliJs = join(dir, "cli.js");
  await build({ entryPoints: ["src/cli/main.ts"], outfile: cliJs, bundle: true, platform: "node", format: "cjs", target: "node20", external: ["@opentelemetry/api"], logLevel: "silent" });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Watch {
  readonly lines: Record<string, any>[] = [];
  private waiters: (() => void)[] = [];
  readonly exit: Promise<number | null>;
  stderr = "";

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        this.lines.push(JSON.parse(buffered.slice(0, nl)));
        buffered = buffered.slice(nl + 1);
        for (const w of this.waiters.splice(0)) w();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    this.exit = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }

  /** The next line once there are `count` lines (10 s at most). */
  async line(count: number): Promise<Record<string, any>> {
    const deadline = Date.now() + 10_000;
    while (this.lines.length < count) {
      if (Date.now() > deadline) throw new Error(`no line ${count} (have ${JSON.stringify(this.lines)}; stderr ${this.stderr})`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.lines[count - 1]!;
  }
}

function start(file: string): Watch {
  const agentDir = mkdtempSync(join(dir, "agent-"));
  return new Watch(spawn(process.execPath, [cliJs, "watch", file, "--json", "--window", "100000", "--poll-ms", "100", "--agent-dir", agentDir], { stdio: "pipe" }));
}

function session(): { file: string; model: FileModel } {
  const model = new FileModel();
  model.lines.push(model.line({ kind: "user", parent: "leaf", pick: 0, text: "hello", usage: 1 }));
  model.lines.push(model.line({ kind: "assistant", parent: "leaf", pick: 0, text: "hi", usage: 5000 }));
  const file = join(dir, `s${Math.random().toString(16).slice(2)}.jsonl`);
  writeFileSync(file, model.text());
  return { file, model };
}

describe("pi-sessions watch", () => {
  it("counts with pi 1.5's rule from the first pi 1.x entry on (a 0.73-era session resumed in pi 1.5)", async () => {
    const { file, model } = session();
    const watch = start(file);
    expect(await watch.line(1)).toMatchObject({ change: "opened", contextTokens: 5010, contextSource: "usage" });
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
    // pi 1.5 resumes: a system message (400 chars = 100 tokens) after the answer counts after its usage.
    const system = { type: "message", id: "sys1", parentId: model.ids[1], timestamp: at(1), message: { role: "system", content: "s".repeat(400), timestamp: 1 } };
    appendFileSync(file, `${JSON.stringify(system)}\n`);
    expect(await watch.line(2)).toMatchObject({ change: "appended", contextTokens: 5010 + 100, contextSource: "usage" });
    // A context_edit omitting the answer: its usage no longer counts; pure estimate = the system message once + "hello" (2).
    const edit = { type: "context_edit", id: "edit1", parentId: "sys1", timestamp: at(2), targetId: model.ids[1], replacement: null };
    appendFileSync(file, `${JSON.stringify(edit)}\n`);
    expect(await watch.line(3)).toMatchObject({ change: "appended", contextTokens: 100 + 2, contextSource: "estimate" });
    watch.child.kill("SIGINT");
    expect(await watch.exit).toBe(0);
  });

  it("prints one line per append, reports a rewrite, and exits 0 on Ctrl-C", async () => {
    const { file, model } = session();
    const watch = start(file);
    expect(await watch.line(1)).toMatchObject({ change: "opened", agent: "pi", entries: 2, contextTokens: 5010, contextSource: "usage", contextWindow: 100000, threshold: 100000 - 16384, wouldCompact: false });
    const question = model.line({ kind: "user", parent: "leaf", pick: 0, text: "x".repeat(400), usage: 1 });
    appendFileSync(file, `${question}\n`);
    expect(await watch.line(2)).toMatchObject({ change: "appended", entries: 3, leafId: model.ids[2], contextTokens: 5010 + 100, wouldCompact: false });
    const answer = model.line({ kind: "assistant", parent: "leaf", pick: 1, text: "big", usage: 90000 });
    appendFileSync(file, `${answer}\n`);
    expect(await watch.line(3)).toMatchObject({ change: "appended", entries: 4, leafId: model.ids[3], contextTokens: 90010, wouldCompact: true, model: { provider: "p", modelId: "m1" } });
    // Replaced in one step (temp file + rename), as editors and migrations do: a new inode.
    writeFileSync(`${file}.tmp`, model.lines.slice(0, 2).map((l) => `${l}\n`).join(""));
    renameSync(`${file}.tmp`, file);
    expect(await watch.line(4)).toMatchObject({ change: "rewritten", entries: 1, leafId: model.ids[0] });
    watch.child.kill("SIGINT");
    expect(await watch.exit).toBe(0);
    expect(watch.lines).toHaveLength(4);
  });

  it("an omp session: omp's context count (usage floored by the stored conversation) and omp's threshold (15 % of the window free)", async () => {
    const file = join(dir, "omp.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "omp-snapcompact.jsonl"), file);
    const watch = start(file);
    // 100000-token window: omp keeps max(15 %, 16384) = 16384 free → 83616.
    expect(await watch.line(1)).toMatchObject({ change: "opened", agent: "omp", contextTokens: 97657, contextSource: "usage", threshold: 83616, wouldCompact: true });
    await new Promise((resolve) => setTimeout(resolve, 300)); // Ctrl-C is handled once the follower has started
    watch.child.kill("SIGINT");
    expect(await watch.exit).toBe(0);
    const small = new Watch(spawn(process.execPath, [cliJs, "watch", file, "--json", "--window", "16000", "--poll-ms", "100", "--agent-dir", mkdtempSync(join(dir, "agent-"))], { stdio: "pipe" }));
    // omp at a 16000 window: the default reserve is impossible, so 15 % → 13600 (pi: 16000 − 16384 = −384).
    expect(await small.line(1)).toMatchObject({ threshold: 13600 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    small.child.kill("SIGINT");
    expect(await small.exit).toBe(0);
  });

  it("reports the file's deletion and stops", async () => {
    const { file } = session();
    const watch = start(file);
    await watch.line(1);
    rmSync(file);
    expect(await watch.line(2)).toMatchObject({ change: "deleted" });
    expect(await watch.exit).toBe(0);
  });
});
