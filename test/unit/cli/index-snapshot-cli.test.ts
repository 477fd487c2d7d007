// The CLI as a process keeps index snapshots of big sessions in its cache
// folder (`index/`): written as the process ends, used by the next run (the
// same output as a run without one), and a grown file still gives what a cold
// run gives.

import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SNAPSHOT_MIN_FILE_BYTES } from "../../../src/core/session/snapshot/index-snapshot.js";
import { FileModel } from "../../support/session-lines.js";
import { buildCli, cleanEnv, runCliProcess } from "../write/support/built-cli.js";

let dir: string;
let cli: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-cli-index-"));
  cli = await buildCli(join(dir, "bin"));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pi-sessions and index snapshots", () => {
  it("a second run opens the session from the snapshot the first left, with the same output; a grown file too", async () => {
    const session = join(dir, "big.jsonl");
    const model = new FileModel();
    const text = "a long message ".repeat(600);
    while (model.lines.length * text.length < SNAPSHOT_MIN_FILE_BYTES * 1.1) {
      model.lines.push(model.line({ kind: model.lines.length % 2 ? "user" : "assistant", parent: "leaf", pick: model.lines.length, text, usage: 1000 + model.lines.length }));
    }
    writeFileSync(session, model.text());
    expect(statSync(session).size).toBeGreaterThan(SNAPSHOT_MIN_FILE_BYTES);
    const warm = join(dir, "warm-cache");
    const run = async (cache: string) => {
      const r = await runCliProcess(cli, ["context", session, "--json", "--pi-version", "0.73"], cleanEnv({ HOME: dir, PI_SESSIONS_CACHE_DIR: cache }));
      expect(r.code).toBe(0);
      return r.stdout;
    };
    const first = await run(warm);
    const snapshots = readdirSync(join(warm, "index"));
    expect(snapshots).toHaveLength(1);
    const snapshot = join(warm, "index", snapshots[0]!);
    // A run that uses the snapshot marks it used (its mtime: the folder's LRU order).
    utimesSync(snapshot, new Date(1000), new Date(1000));
    expect(await run(warm)).toBe(first);
    expect(statSync(snapshot).mtimeMs).toBeGreaterThan(1000);

    appendFileSync(session, `${model.line({ kind: "user", parent: "leaf", pick: 0, text: "one more", usage: 1 })}\n`);
    utimesSync(snapshot, new Date(1000), new Date(1000));
    const grown = await run(warm);
    expect(statSync(snapshot).mtimeMs).toBeGreaterThan(1000);
    expect(grown).toBe(await run(join(dir, "cold-cache")));
    expect(grown).not.toBe(first);
  }, 120_000);
});
