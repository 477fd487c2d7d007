// The loopback model server as its own process, for the benchmark steps that
// measure the host's memory around a model call: in the host, the server's
// own work (reading a 90 MB request in 64 KB chunks, its body as a string, its
// parse, the record it keeps) would be counted as the extension's. Forked by
// startLoopbackProcess (omp-cpu.test.ts); answers every summary request with
// a fixed summary and keeps no record of it.
import { TEST_KEY } from "../../support/model-server-agent-dir";
import { scenarios, startModelServer } from "../../support/model-server";

void (async () => {
  const server = await startModelServer({
    expectedKey: TEST_KEY,
    respond: (r) => {
      const answer = r.promptText.includes("pull request description") ? "Kept the bench session going." : "## Goal\nKeep the bench session going.\n\n## Progress\n- [x] a step done";
      server.requests.splice(0);
      return scenarios.success(answer);
    },
  });
  process.send!({ openaiBaseUrl: server.openaiBaseUrl, anthropicBaseUrl: server.anthropicBaseUrl });
  process.on("disconnect", () => void server.close().finally(() => process.exit(0)));
})();
