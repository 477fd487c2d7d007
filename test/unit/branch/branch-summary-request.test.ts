// buildBranchSummaryRequest / composeBranchSummary against pi's real
// generateBranchSummary (through pi-ai's faux provider).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateBranchSummary } from "@mariozechner/pi-coding-agent";
import { branchSourceFromEntries, collectEntriesForBranchSummary } from "../../../src/core/branch/collect-entries.js";
import { prepareBranchEntries } from "../../../src/core/branch/prepare-branch-entries.js";
import {
  branchSummaryTokenBudget,
  buildBranchSummaryRequest,
  composeBranchSummary,
  NO_CONTENT_SUMMARY,
} from "../../../src/core/branch/branch-summary-request.js";
import { computeFileLists } from "../../../src/core/compaction/file-ops.js";
import { generateRandomSession } from "../../support/random-session.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { openPair } from "../../support/session-pair.js";
import { loadPiOracle, type PiOracle } from "../../support/pi-oracle.js";
import { captureModel } from "../../support/captured-model.js";
import type { SessionPair } from "../../support/differential.js";

let dir: string;
let oracle: PiOracle;
const pairs: SessionPair[] = [];

beforeAll(async () => {
  oracle = await loadPiOracle();
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-branch-summary-"));
  for (let seed = 300; seed < 312; seed++) pairs.push(openPair(generateRandomSession(seed, dir).path));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTIONS: { customInstructions?: string; replaceInstructions?: boolean }[] = [
  {},
  { customInstructions: "focus on tests" },
  { customInstructions: "Only list the files.", replaceInstructions: true },
  { replaceInstructions: true },
];

describe("branch summary requests equal pi's", () => {
  it.each(OPTIONS.map((o, i) => [i, o] as const))("options #%i", async (_i, options) => {
    let compared = 0;
    for (const [p, pair] of pairs.entries()) {
      const rng = createSeededRandom(p + 1);
      const ids = pair.ours.map((e) => e.id);
      for (let k = 0; k < 4; k++) {
        const oldLeaf = ids[ids.length - 1 - k] ?? ids[0]!;
        const target = rng.pick(ids);
        const { entries } = collectEntriesForBranchSummary(branchSourceFromEntries(pair.ours), oldLeaf, target);
        const piEntries = oracle.collectEntriesForBranchSummary(pair.piBranch, oldLeaf, target).entries;
        for (const [contextWindow, reserveTokens] of [[128000, 16384], [20000, 16384], [0, 1000]] as const) {
          const capture = captureModel(() => "BRANCH ANSWER", contextWindow);
          try {
            const result = await generateBranchSummary(piEntries as never, {
              model: capture.model,
              apiKey: "test-key",
              signal: new AbortController().signal,
              reserveTokens,
              ...options,
            });
            const prepared = prepareBranchEntries(entries, branchSummaryTokenBudget(contextWindow, reserveTokens));
            if (prepared.messages.length === 0) {
              expect(capture.calls).toHaveLength(0);
              expect(result.summary).toBe(NO_CONTENT_SUMMARY);
              continue;
            }
            const request = buildBranchSummaryRequest({ messages: prepared.messages, ...options });
            expect(capture.calls).toHaveLength(1);
            const call = capture.calls[0]!;
            expect(request.systemPrompt).toBe(call.systemPrompt);
            expect(request.userText).toBe(call.userText);
            expect(request.maxTokens).toBe(call.maxTokens);
            expect(call.reasoning).toBeUndefined();
            const files = computeFileLists(prepared.fileOps);
            expect(composeBranchSummary("BRANCH ANSWER", files)).toBe(result.summary);
            expect(files).toStrictEqual({ readFiles: result.readFiles, modifiedFiles: result.modifiedFiles });
            compared++;
          } finally {
            capture.unregister();
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
  });

  it("budgets the model's window minus the reserve, 128000 when the window is unknown", () => {
    expect(branchSummaryTokenBudget(200000, 16384)).toBe(183616);
    expect(branchSummaryTokenBudget(undefined, 16384)).toBe(111616);
    expect(branchSummaryTokenBudget(0, 1000)).toBe(127000);
  });
});
