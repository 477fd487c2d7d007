// A listed omp session's facts: whose it is and why, omp's title, and omp's
// compaction threshold (at least 15 % of the window kept free: 170 000 of
// 200 000 with omp's defaults), not pi's window − 16384.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SessionCatalogue } from "../../../src/core/catalogue/session-catalogue.js";
import { factsFromRow, sessionAgent, type FactsContext } from "../../../src/extension/session-facts.js";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "omp-facts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const context = (ompSessionsRoot?: string): FactsContext => ({
  agentDir: join(dir, "pi-agent"),
  ompAgentDir: join(dir, "omp-agent"),
  trusted: false,
  overrides: {},
  contextWindow: () => 200_000,
  ...(ompSessionsRoot ? { ompSessionsRoot } : {}),
});

describe("facts of an omp session in the list", () => {
  it("omp's threshold, the agent and why, omp's title (none: the first request)", async () => {
    const file = join(dir, "omp-simple.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), file);
    const catalogue = await SessionCatalogue.open(join(dir, "cache"));
    const [row] = await catalogue.list([file]);
    const facts = factsFromRow(row!, context());
    expect(facts.agent).toBe("omp");
    expect(facts.threshold).toBe(170_000);
    expect(facts.title).toBe("Please write the file hello.txt");
  });

  it("a pi session: pi's threshold; in omp's folder it is omp's, with why", () => {
    expect(sessionAgent("/h/.pi/agent/sessions/--p--/a.jsonl", undefined, "/h/.omp/agent/sessions")).toEqual({ agent: "pi" });
    expect(sessionAgent("/h/.omp/agent/sessions/-p/a.jsonl", undefined, "/h/.omp/agent/sessions")).toEqual({ agent: "omp", reason: "it lies in omp's sessions folder" });
  });

  it("a pi session row keeps pi's window − reserve", async () => {
    const folder = join(dir, "pi");
    mkdirSync(folder, { recursive: true });
    const file = join(folder, "pi.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "..", "..", "..", "examples", "todo-cli-session.jsonl"), file);
    const catalogue = await SessionCatalogue.open(join(dir, "cache2"));
    const [row] = await catalogue.list([file]);
    const facts = factsFromRow(row!, context());
    expect(facts.agent).toBe("pi");
    expect(facts.threshold).toBe(200_000 - 16_384);
  });
});
