// Our writes resumed by the real omp 18.3.4 CLI against the loopback model: a
// compaction, a label and a rename written by pi-sessions, then `omp -p
// --resume`: omp sends our summary in its own template (then the kept turn and
// the new prompt), appends its own entries after ours (not glued to them), and
// keeps our title and label.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openSession } from "../../../src/core/session/open/open-session.js";
import { renameSession, runCompaction, setLabel } from "../../../src/core/write/index.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { describeOmp, fastTempDir, type OmpLoadBack } from "../../support/omp/oracle.js";
import { runOmpCli } from "../../support/omp/run-omp-cli.js";

const KEY = "sk-omp-loopback-0123456789";

function textOf(message: Record<string, unknown>): string {
  const c = message.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p: { type?: string; text?: string }) => (p.type === "text" ? (p.text ?? "") : "")).join("");
  return "";
}

describeOmp("our omp writes resumed by the real omp 18.3.4 CLI", (oracle) => {
  let server: ModelServer;
  let dir: string;
  beforeAll(async () => {
    server = await startModelServer({ expectedKey: KEY, respond: () => scenarios.success("Resumed fine") });
    dir = fastTempDir("omp-writers-cli-");
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("compaction, label and rename by pi-sessions; omp resumes with our summary in its template and keeps title and label", async () => {
    const file = join(dir, "omp-simple.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), file);
    const agentDir = join(dir, "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "config.yml"), "compaction:\n  keepRecentTokens: 2000\n");
    const compacted = await runCompaction({ session: await openSession(file), agentDir: join(dir, "pi-agent"), ompAgentDir: agentDir, summarizer: { digest: true }, trustProject: false });
    expect(compacted.written).toBe(true);
    const firstUser = (await openSession(file)).index.entries.find((m) => m.type === "message" && m.role === "user")!.id;
    setLabel({ session: await openSession(file), targetId: firstUser, label: "start" });
    renameSession({ session: await openSession(file), name: "Renamed before resume" });
    const before = readFileSync(file);
    const expected = await oracle().answers({ file });

    const run = await runOmpCli(oracle().install, { file, prompt: "Carry on", server, key: KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests).toHaveLength(1);
    const [, ...messages] = (run.requests[0]!.body as { messages: Record<string, unknown>[] }).messages;
    const llm = expected.leaves[0]!.llm;
    expect(messages.map((m) => m.role)).toEqual([...llm.map((m) => m.role), "user"]);
    expect(textOf(messages[0]!)).toContain("Prior model work/tool state available.");
    expect(textOf(messages[0]!)).toContain(compacted.entry!.summary.slice(0, 200));
    expect(textOf(messages.at(-1)!)).toContain("Carry on");

    // omp appended after our last line, each of its entries on its own line.
    const after = run.fileAfter;
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const appended = after.subarray(before.length).toString("utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(appended.length).toBeGreaterThanOrEqual(3);
    const back = (await oracle().loadBack(file)) as OmpLoadBack;
    expect(back.title).toBe("Renamed before resume");
    expect(back.labels[firstUser]).toBe("start");
    expect(back.entries.some((e) => e.id === compacted.entry!.id)).toBe(true);
    expect(back.leafId).toBe(appended.at(-1)!.id);
  });
});
