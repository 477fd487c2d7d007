// `pi-sessions navigate` (and --undo-compaction), in-process through runCli:
// the contract's JSON shape, exit codes, and pi's view of the result.
import { afterAll, describe, expect, it } from "vitest";
import { NAVIGATE_CUSTOM_TYPE } from "../../../src/core/write/index.js";
import { branchedSession, longTurnSession, piContextAt, piOpen, removeDir, sha, tempDir } from "../write/support/sessions.js";
import { cli } from "./run-cli";

const dir = tempDir("pi-sessions-cli-navigate-");
afterAll(() => removeDir(dir));

describe("navigate", () => {
  it("--json: written, entry (as in the file), newLeafId; pi resumes with the target's context", async () => {
    const { path, ids } = branchedSession(dir);
    const run = await cli(["navigate", path, "--target", ids.a2b!, "--json"]);
    expect(run.code).toBe(0);
    const out = run.json<{ written: boolean; entry: Record<string, unknown>; newLeafId: string }>();
    expect(out).toMatchObject({ written: true, newLeafId: ids.a2b });
    expect(out.entry).toMatchObject({ type: "custom", customType: NAVIGATE_CUSTOM_TYPE, parentId: ids.a2b });
    expect(piOpen(path, dir).entries.at(-1)).toEqual(out.entry);
    expect(piOpen(path, dir).context).toEqual(piContextAt(path, dir, ids.a2b!));
  });

  it("text mode names the new leaf and gives back a user message's text", async () => {
    const { path, ids } = branchedSession(dir);
    const run = await cli(["navigate", path, "--target", ids.s1!]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`leaf moved to ${ids.a1}`);
    expect(run.stdout).toContain("Actually, try an archive file instead.");
  });

  it("--undo-compaction restores the context from before the compaction", async () => {
    const { path } = longTurnSession(dir);
    const before = piOpen(path, dir).context;
    expect((await cli(["compact", path, "--digest", "--keep-recent-tokens", "1500", "--agent-dir", dir])).code).toBe(0);
    const run = await cli(["navigate", path, "--undo-compaction", "--json"]);
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ written: true });
    expect(piOpen(path, dir).context).toEqual(before);
  });

  it("bad usage and unknown ids exit 1 with the file unchanged", async () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    for (const args of [["navigate", path], ["navigate", path, "--target", "nope0000"], ["navigate", path, "--target", ids.a1!, "--undo-compaction"], ["navigate", path, "--undo-compaction"]]) {
      const run = await cli(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: /);
    }
    expect(sha(path)).toBe(hash);
  });

  it("a file without a session header: refused (exit 3), unchanged", async () => {
    const { path, ids } = branchedSession(dir);
    const { readFileSync, writeFileSync } = await import("node:fs");
    writeFileSync(path, readFileSync(path, "utf8").split("\n").slice(1).join("\n"));
    const hash = sha(path);
    const run = await cli(["navigate", path, "--target", ids.a1!]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/not a session header/);
    expect(sha(path)).toBe(hash);
  });
});
