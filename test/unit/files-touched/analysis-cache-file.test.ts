// The per-command bash analyses kept on disk: a saved analysis is used by the
// next process (here: after clearing the memoised ones) without parsing, and
// a damaged, foreign or older file — or a damaged entry — is never used.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeBashCommand, clearBashAnalysisCache, initFilesTouched } from "../../../src/core/files-touched";
import { bashAnalysesFile, loadBashAnalyses, saveBashAnalyses } from "../../../src/core/files-touched/analysis-cache-file";
import { bashAnalysisEntries } from "../../../src/core/files-touched/analyze-bash";
import { cli } from "../cli/run-cli";

let dir: string;
let n = 0;
beforeAll(async () => {
  await initFilesTouched();
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-bash-analyses-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => join(dir, `f${n++}`);

const COMMAND = "cat a.ts > b.ts && mv b.ts lib/";
const opts = { cwd: "/repo" };

async function savedFolder(): Promise<string> {
  const folder = fresh();
  clearBashAnalysisCache();
  analyzeBashCommand(COMMAND, opts);
  await saveBashAnalyses(folder);
  return folder;
}

/** Rewrites the stored file's one entry so that the command's analysis says something no parse would give. */
function planted(folder: string, edit: (data: any) => void): void {
  const data = JSON.parse(readFileSync(bashAnalysesFile(folder), "utf8"));
  data.entries[0][1] = [{ kind: "touch", op: "W", path: "/planted" }];
  edit(data);
  writeFileSync(bashAnalysesFile(folder), JSON.stringify(data));
}

describe("bash analyses on disk", () => {
  it("a stored analysis answers the next process without a parse", async () => {
    const folder = await savedFolder();
    const parsed = analyzeBashCommand(COMMAND, opts);
    planted(folder, () => undefined);
    clearBashAnalysisCache();
    expect(await loadBashAnalyses(folder)).toBe(1);
    // The planted result comes back: it was taken from the file, not parsed again.
    expect(analyzeBashCommand(COMMAND, opts).actions).toEqual([{ kind: "touch", op: "W", path: "/planted" }]);
    expect(parsed.actions.length).toBeGreaterThan(0);
  });

  it("nothing is written when nothing was analysed since the last save", async () => {
    const folder = await savedFolder();
    const before = readFileSync(bashAnalysesFile(folder), "utf8");
    writeFileSync(bashAnalysesFile(folder), "{}");
    await saveBashAnalyses(folder);
    expect(readFileSync(bashAnalysesFile(folder), "utf8")).toBe("{}");
    expect(before).toContain(COMMAND);
  });

  it("a damaged file, another format or analysis version, or a damaged entry is not used", async () => {
    const damage: Array<(data: any) => void> = [
      (d) => (d.analysis = -1),
      (d) => (d.version = 99),
      (d) => (d.format = "other"),
      (d) => (d.entries[0][1] = [{ kind: "touch", op: "X", path: "/planted" }]),
      (d) => (d.entries[0][2] = [{ severity: "loud", code: 1 }]),
      (d) => (d.entries[0] = ["no separators", [], []]),
    ];
    for (const edit of damage) {
      const folder = await savedFolder();
      planted(folder, edit);
      clearBashAnalysisCache();
      await loadBashAnalyses(folder);
      expect(analyzeBashCommand(COMMAND, opts).actions).not.toContainEqual({ kind: "touch", op: "W", path: "/planted" });
    }
    for (const text of ["{not json", "", "null", "[]"]) {
      const folder = await savedFolder();
      writeFileSync(bashAnalysesFile(folder), text);
      clearBashAnalysisCache();
      expect(await loadBashAnalyses(folder)).toBe(0);
      expect([...bashAnalysisEntries()]).toEqual([]);
    }
  });

  it("`pi-sessions files` keeps its analyses in the cache folder for the next run", async () => {
    const cache = fresh();
    const session = join(fresh());
    const header = { type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/repo" };
    const callEntry = {
      type: "message",
      id: "a1",
      parentId: null,
      timestamp: "2025-01-01T00:00:01.000Z",
      message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "sed -i s/a/b/ src/x.ts" } }], provider: "p", model: "m", timestamp: 1 },
    };
    writeFileSync(session, `${JSON.stringify(header)}\n${JSON.stringify(callEntry)}\n`);
    clearBashAnalysisCache();
    const first = await cli(["files", session, "--json"], { env: { PI_SESSIONS_CACHE_DIR: cache } });
    expect(first.code).toBe(0);
    expect(first.json().files).toEqual([{ path: "/repo/src/x.ts", displayPath: "src/x.ts", ops: "E" }]);
    const stored = readFileSync(bashAnalysesFile(join(cache, "catalogue")), "utf8");
    expect(stored).toContain("sed -i s/a/b/ src/x.ts");
    clearBashAnalysisCache();
    const second = await cli(["files", session, "--json"], { env: { PI_SESSIONS_CACHE_DIR: cache } });
    expect(second.json().files).toEqual(first.json().files);
    expect([...bashAnalysisEntries()].map(([key]) => key)).toContain("/repo\0/repo\0sed -i s/a/b/ src/x.ts");
  });
});
