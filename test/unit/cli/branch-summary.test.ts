// `pi-sessions branch-summary` in-process through runCli, with the loopback
// model server and real pi-ai: JSON shape, exit codes, pi's view.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_PREAMBLE } from "../../../src/core/branch/index.js";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { branchedSession, piContextAt, piOpen, removeDir, sha, tempDir } from "../write/support/sessions.js";
import { cli } from "./run-cli";

let server: ModelServer;
let agent: LoopbackAgentDir;
const dir = tempDir("pi-sessions-cli-branch-");

beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY });
  agent = await writeLoopbackAgentDir(server);
});
afterAll(async () => {
  await server.close();
  await agent.cleanup();
  removeDir(dir);
});

const args = (path: string, target: string, extra: string[] = []) => ["branch-summary", path, "--target", target, "--agent-dir", agent.agentDir, "--model", "loopback-openai/summarizer", "--max-retries", "0", "--json", ...extra];

describe("branch-summary", () => {
  it("--json: written, entry (as in the file), newLeafId, commonAncestorId", async () => {
    const { path, ids } = branchedSession(dir);
    server.respond = () => scenarios.success("## Goal\nArchive experiment.");
    const run = await cli(args(path, ids.a2b!));
    expect(run.code).toBe(0);
    const out = run.json<{ written: boolean; entry: Record<string, unknown>; newLeafId: string; commonAncestorId: string }>();
    expect(out).toMatchObject({ written: true, newLeafId: ids.a2b, commonAncestorId: ids.a1 });
    expect(out.entry).toMatchObject({ type: "branch_summary", parentId: ids.a2b, fromId: ids.a2b });
    expect((out.entry.summary as string).startsWith(`${BRANCH_SUMMARY_PREAMBLE}## Goal\nArchive experiment.`)).toBe(true);
    const view = piOpen(path, dir);
    expect(view.entries.at(-1)).toEqual(out.entry);
    expect(view.context.messages.slice(0, -1)).toEqual(piContextAt(path, dir, ids.a2b!).messages);
  });

  it("a failed model call exits 2 and writes nothing", async () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    server.respond = () => scenarios.httpError(500);
    const run = await cli(args(path, ids.a2b!));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: Model call to loopback-openai\/summarizer failed/);
    expect(sha(path)).toBe(hash);
  });

  it("--dry-run prints the entry and writes nothing", async () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    server.respond = () => scenarios.success("dry");
    const run = await cli(args(path, ids.a2b!, ["--dry-run"]));
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ written: false, entry: { type: "branch_summary" } });
    expect(sha(path)).toBe(hash);
  });

  it("--target is required and must exist (exit 1)", async () => {
    const { path } = branchedSession(dir);
    expect((await cli(["branch-summary", path])).code).toBe(1);
    expect((await cli(["branch-summary", path, "--target", "nope0000"])).code).toBe(1);
  });
});
