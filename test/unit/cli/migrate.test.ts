// `pi-sessions migrate` in-process through runCli: the contract's JSON shape,
// dry run, exit codes; the migrated file is one pi opens without rewriting.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { branchedSession, piOpen, removeDir, sha, tempDir } from "../write/support/sessions.js";
import { cli } from "./run-cli";

const dir = tempDir("pi-sessions-cli-migrate-");
afterAll(() => removeDir(dir));
const FIXTURE = resolve("test/fixtures/pi-mono/before-compaction.jsonl");

describe("migrate", () => {
  it("--json: fromVersion, toVersion, backup; then compact works on it", async () => {
    const file = join(dir, "a.jsonl");
    copyFileSync(FIXTURE, file);
    const original = readFileSync(file);
    const run = await cli(["migrate", file, "--json"]);
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ fromVersion: 1, toVersion: 3, backup: `${file}.v1.bak` });
    expect(readFileSync(`${file}.v1.bak`).equals(original)).toBe(true);
    const hash = sha(file);
    piOpen(file, dir);
    expect(sha(file)).toBe(hash);
    expect((await cli(["compact", file, "--digest", "--agent-dir", dir, "--json"])).code).toBe(0);
  });

  it("--dry-run writes nothing", async () => {
    const file = join(dir, "b.jsonl");
    copyFileSync(FIXTURE, file);
    const hash = sha(file);
    const run = await cli(["migrate", file, "--dry-run", "--json"]);
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ fromVersion: 1, toVersion: 3, backup: null, written: false });
    expect(sha(file)).toBe(hash);
    expect(existsSync(`${file}.v1.bak`)).toBe(false);
  });

  it("a version 3 file: nothing to do", async () => {
    const { path } = branchedSession(dir);
    const run = await cli(["migrate", path, "--json"]);
    expect(run.json()).toEqual(expect.objectContaining({ fromVersion: 3, toVersion: 3, backup: null }));
    expect((await cli(["migrate", path])).stdout).toContain("already version 3");
  });

  it("no header: exit 3; missing file: exit 1", async () => {
    const file = join(dir, "c.jsonl");
    writeFileSync(file, '{"type":"message","id":"a","parentId":null}\n');
    const hash = sha(file);
    const run = await cli(["migrate", file]);
    expect(run.code).toBe(3);
    expect(sha(file)).toBe(hash);
    expect((await cli(["migrate", join(dir, "missing.jsonl")])).code).toBe(1);
  });
});
