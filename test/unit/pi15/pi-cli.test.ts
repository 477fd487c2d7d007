// The real pi 1.5.2 CLI end to end, offline: `pi -p` resumes a session file pi
// 1.5.2 wrote and sends its request to the loopback model server. Proves the
// harness other suites use for their end-to-end runs (runPi15Cli + a loopback
// agent folder) and pi 1.5's request shape: the system prompt first.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { scenarios, startModelServer } from "../../support/model-server.js";
import { LOOPBACK_OPENAI, TEST_KEY, writeLoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { describePi15 } from "../../support/pi15/oracle.js";
import { runPi15Cli } from "../../support/pi15/run-pi-cli.js";

const FIXTURES = new URL("../../fixtures/pi-1.5/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "pi15-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describePi15("the real pi 1.5.2 CLI against the loopback model", (oracle) => {
  it("pi -p on a session pi 1.5.2 wrote: the request starts with the system prompt, the answer is appended", async () => {
    const server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success("loopback answer") });
    const agent = await writeLoopbackAgentDir(server);
    try {
      const session = join(work, "01.jsonl");
      // pi 1.5 refuses a session whose recorded cwd does not exist: record the test's folder.
      const [header, ...rest] = readFileSync(`${FIXTURES}01-system-messages.jsonl`, "utf8").split("\n");
      const before = [JSON.stringify({ ...(JSON.parse(header!) as object), cwd: work }), ...rest].join("\n");
      writeFileSync(session, before);
      const run = await runPi15Cli(oracle().paths, {
        agentDir: agent.agentDir,
        cwd: work,
        args: ["-p", "one more thing", "--session", session, "--model", `${LOOPBACK_OPENAI}/summarizer`, "--no-extensions", "--no-skills", "--no-context-files"],
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("loopback answer");
      expect(server.requests).toHaveLength(1);
      const request = server.requests[0]!;
      expect(request.auth.matchesExpectedKey).toBe(true);
      const messages = (request.body as { messages: { role: string }[] }).messages;
      expect(messages[0]!.role).toBe("system");

      // pi appended to the file (never rewrote it) and loads it back with the new turn at the leaf.
      const after = readFileSync(session, "utf8");
      expect(after.startsWith(before)).toBe(true);
      const back = await oracle().loadBack(session);
      expect(back.context.messages.slice(-2).map((m) => m.role)).toEqual(["user", "assistant"]);
    } finally {
      await agent.cleanup();
      await server.close();
    }
  });
});
