// The skim's WebAssembly module (src/core/session/skim/search-memory.ts, wasm/skim.ts)
// in the extension host's own runtime (Electron's or code-server's Node): it is
// made there (WebAssembly with SIMD), and a big session read through it is
// indexed as the exact read indexes it.
import * as assert from "node:assert/strict";
import { rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession, openSessionSync } from "../../../src/core/session/open/open-session";
import { SEARCH_CHUNK_BYTES, searchBuffer, searchModuleStats } from "../../../src/core/session/skim/search-memory";
import { scratchDir } from "./helpers";

suite("Skim module @restricted: WebAssembly in the extension host's runtime", () => {
  test("is made in this runtime, and a session read through it is indexed as the exact read indexes it", async () => {
    assert.ok(searchBuffer !== null, "no WebAssembly SIMD in this extension host: sessions are skimmed in JavaScript");
    const file = join(scratchDir(), `skim-module-${process.pid}.jsonl`);
    const lines = [JSON.stringify({ type: "session", version: 3, id: "skim-module", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" })];
    for (let i = 0; i < 2000; i++) {
      const usage = { input: 100 + i, output: 7, cacheRead: 3, cacheWrite: 0, totalTokens: 110 + i, cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.1 + 0.2 } };
      const message =
        i % 2 === 0
          ? { role: "toolResult", toolCallId: `c${i}`, toolName: "bash", content: [{ type: "text", text: "o".repeat(300 + (i % 900)) }], isError: false, timestamp: 1735689600000 + i }
          : { role: "assistant", content: [{ type: "text", text: "a".repeat(300 + (i % 500)) }], api: "anthropic-messages", provider: "anthropic", model: "m", usage, stopReason: "toolUse", timestamp: 1735689600000 + i };
      lines.push(JSON.stringify({ type: "message", id: `e${String(i).padStart(7, "0")}`, parentId: i === 0 ? null : `e${String(i - 1).padStart(7, "0")}`, timestamp: new Date(1735689600000 + i).toISOString(), message }));
    }
    writeFileSync(file, `${lines.join("\n")}\n`);
    try {
      const before = searchModuleStats.lines;
      const skimmed = [openSessionSync(file, { skim: true }), await openSession(file, { skim: true })];
      // Every message line but those that span two chunks of the read (joined outside the module's memory).
      let spanning = 0;
      for (let k = 1, offset = 0; k < lines.length; k++) {
        offset += Buffer.byteLength(lines[k - 1]!) + 1;
        const end = offset + Buffer.byteLength(lines[k]!) + 1;
        if (Math.floor(offset / SEARCH_CHUNK_BYTES) !== Math.floor((end - 1) / SEARCH_CHUNK_BYTES)) spanning++;
      }
      assert.ok(spanning >= 1 && statSync(file).size > SEARCH_CHUNK_BYTES);
      assert.equal(searchModuleStats.lines - before, 2 * (2000 - spanning), "every message line read by the module, but those spanning chunks");
      const exact = openSessionSync(file);
      for (const s of skimmed) {
        assert.deepEqual(s.index.entries, exact.index.entries);
        assert.deepEqual(s.index.totalSpend, exact.index.totalSpend);
      }
    } finally {
      rmSync(file, { force: true });
    }
  });
});
