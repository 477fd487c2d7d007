// The real `omp` 18.3.4 CLI resumes a session file against the loopback model
// server: what it sends is the oracle's convertToLlm output for the file (after
// /clear only the turn after the boundary) plus the new prompt, and the file
// after the run is the old bytes plus exactly omp's user, assistant and
// session_exit entries, which omp's own SessionManager loads back. Over RPC, omp
// compacts where the oracle's prepareCompaction cuts (settings from config.yml),
// records /clear and renames in the title slot.

import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { describeOmp, fastTempDir, type OmpLoadBack } from "../../support/omp/oracle.js";
import { OMP_LOOPBACK_PROVIDER, runOmpCli } from "../../support/omp/run-omp-cli.js";
import { OmpRpc } from "../../support/omp/run-omp-rpc.js";

const KEY = "sk-omp-loopback-0123456789";

/** The text of a message (string content or text parts), on the wire or from the oracle. */
function textOf(message: Record<string, unknown>): string {
  const c = message.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p: { type?: string; text?: string }) => (p.type === "text" ? (p.text ?? "") : "")).join("");
  return "";
}

describeOmp("the real omp 18.3.4 CLI resumes a session against the loopback model", (oracle) => {
  let server: ModelServer;
  let dir: string;
  beforeAll(async () => {
    server = await startModelServer({ expectedKey: KEY, respond: () => scenarios.success("Hello from the loopback model") });
    dir = fastTempDir("omp-cli-");
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends the oracle's context (only the turn after /clear) and appends user, assistant and session_exit", async () => {
    const file = join(dir, "omp-soft-handoff-reset.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "omp-soft-handoff-reset.jsonl"), file);
    const before = readFileSync(file);
    const expected = await oracle().answers({ file });
    const llm = expected.leaves[0]!.llm;

    const run = await runOmpCli(oracle().install, { file, prompt: "Now say goodbye", server, key: KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Hello from the loopback model");

    expect(run.requests).toHaveLength(1);
    const request = run.requests[0]!;
    expect(request.auth.matchesExpectedKey).toBe(true);
    const body = request.body as { model: string; messages: { role: string; content?: unknown }[] };
    expect(body.model).toBe("loopback-coder");
    const [system, ...messages] = body.messages;
    expect(system!.role).toBe("system");
    // The oracle's convertToLlm output, then the new prompt; omp puts its date/cwd reminder into the first user message.
    expect(messages.map((m) => m.role)).toEqual([...llm.map((m) => m.role), "user"]);
    llm.forEach((m, i) => expect(textOf(messages[i]!)).toContain(textOf(m)));
    expect(textOf(messages[0]!)).toMatch(/^<system-reminder>\nToday: \d{4}-\d\d-\d\d; current working directory: /);
    expect(textOf(messages.at(-1)!)).toContain("Now say goodbye");

    const after = run.fileAfter;
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const appended = after.subarray(before.length).toString("utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
    expect(appended.map((e) => (e.type === "message" ? `message:${e.message.role}` : `${e.type}:${e.customType}`))).toEqual([
      "message:user",
      "message:assistant",
      "custom:session_exit",
    ]);
    expect(appended[1]!.message.provider).toBe(OMP_LOOPBACK_PROVIDER);

    const back = (await oracle().loadBack(file)) as OmpLoadBack;
    expect(back.leafId).toBe(appended[2]!.id);
    expect(back.context.messages.map((m) => m.role)).toEqual([...expected.leaves[0]!.context.messages.map((m) => m.role), "user", "assistant"]);
  });

  it("over RPC compacts where the oracle cuts with config.yml's settings, records /clear and renames in the title slot", async () => {
    const file = join(dir, "omp-simple.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), file);
    const config = "compaction:\n  keepRecentTokens: 2000\n";
    const expected = await oracle().answers({ file, settings: [{ keepRecentTokens: 2000 }] });
    const cut = expected.leaves[0]!.preparations[0]!;

    const rpc = await OmpRpc.start(oracle().install, { file, server, key: KEY, agentFiles: { "config.yml": config } });
    const compacted = await rpc.send({ type: "compact" });
    expect(compacted.success, compacted.error).toBe(true);
    expect((await rpc.send({ type: "prompt", message: "/pisessions-clear" })).success).toBe(true);
    expect((await rpc.send({ type: "set_session_name", name: "Renamed over RPC" })).success).toBe(true);
    const closed = await rpc.close();
    expect(closed.code, closed.stderr).toBe(0);
    // The soft compaction's calls (history summary, short summary) went to the loopback model.
    expect(closed.requests.length).toBeGreaterThan(0);

    const back = (await oracle().loadBack(file)) as OmpLoadBack;
    const compaction = back.entries.find((e) => e.type === "compaction")!;
    expect(compaction).toMatchObject({ method: "soft", firstKeptEntryId: cut.firstKeptEntryId, tokensBefore: cut.tokensBefore });
    expect(back.entries.map((e) => e.type).slice(-4)).toEqual(["compaction", "reset_boundary", "title_change", "custom"]);
    expect(back.title).toBe("Renamed over RPC");
    expect(back.titleSource).toBe("user");
    expect(back.context.messages).toEqual([]);
    // The rename rewrote the 256-byte slot in place: the file is still 256 bytes of slot, then the header.
    expect(closed.fileAfter.indexOf("\n")).toBe(255);
  });
});
