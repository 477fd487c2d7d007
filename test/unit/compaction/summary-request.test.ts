// buildSummaryRequest / planSummaryCalls / buildCompactionResult against the
// requests pi's real compact() sends (through pi-ai's faux provider) and the
// entry fields it returns.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compact } from "@mariozechner/pi-coding-agent";
import { branchPath, indexEntriesById } from "../../../src/core/context/path-walk.js";
import { prepareCompaction, type CompactionPreparation } from "../../../src/core/compaction/prepare-compaction.js";
import { buildCompactionResult, planSummaryCalls } from "../../../src/core/compaction/compaction-result.js";
import { summaryMaxTokens } from "../../../src/core/compaction/summary-request.js";
import { TURN_PREFIX_SUMMARIZATION_PROMPT } from "../../../src/core/compaction/prompts.js";
import { generateRandomSession } from "../../support/random-session.js";
import { loadPiOracle, type PiOracle, type PiPreparation } from "../../support/pi-oracle.js";
import { openPair } from "../../support/session-pair.js";
import { captureModel } from "../../support/captured-model.js";

interface Case {
  name: string;
  ours: CompactionPreparation;
  theirs: PiPreparation;
}

let dir: string;
let oracle: PiOracle;
const cases: Case[] = [];
const SETTINGS = { enabled: true, reserveTokens: 10000, keepRecentTokens: 500 };
const answer = (text: string) => (text.includes(TURN_PREFIX_SUMMARIZATION_PROMPT) ? "PREFIX ANSWER" : "HISTORY ANSWER\nline 2");

beforeAll(async () => {
  oracle = await loadPiOracle();
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-summary-"));
  const wanted = new Map<string, (p: PiPreparation) => boolean>([
    ["plain history, no previous summary", (p) => !p.isSplitTurn && p.previousSummary === undefined && p.messagesToSummarize.length > 0],
    ["history after a previous compaction", (p) => !p.isSplitTurn && p.previousSummary !== undefined && p.messagesToSummarize.length > 0],
    ["split turn with history and prefix", (p) => p.isSplitTurn && p.messagesToSummarize.length > 0],
    ["split turn with an empty history", (p) => p.isSplitTurn && p.messagesToSummarize.length === 0],
  ]);
  for (let seed = 1; seed <= 200 && wanted.size > 0; seed++) {
    const pair = openPair(generateRandomSession(seed, dir).path);
    const byId = indexEntriesById(pair.ours);
    for (const entry of pair.ours) {
      const theirs = oracle.prepareCompaction(pair.piBranch.getBranch(entry.id), SETTINGS);
      if (!theirs) continue;
      for (const [name, matches] of wanted) {
        if (!matches(theirs)) continue;
        cases.push({ name, theirs, ours: prepareCompaction(branchPath(entry.id, byId), SETTINGS)! });
        wanted.delete(name);
      }
    }
  }
  expect([...wanted.keys()]).toEqual([]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("compaction requests equal pi's", () => {
  for (const focus of [undefined, "keep the TODO list"]) {
    it(`for every kind of preparation (focus: ${focus ?? "none"})`, async () => {
      for (const c of cases) {
        const capture = captureModel(answer);
        try {
          const result = await compact(c.theirs as never, capture.model, "test-key", undefined, focus);
          const calls = planSummaryCalls(c.ours, focus);
          const piHistory = capture.calls.find((call) => !call.userText.includes(TURN_PREFIX_SUMMARIZATION_PROMPT));
          const piPrefix = capture.calls.find((call) => call.userText.includes(TURN_PREFIX_SUMMARIZATION_PROMPT));

          expect(calls.history === undefined, c.name).toBe(piHistory === undefined);
          if (calls.history && piHistory) {
            expect(calls.history.systemPrompt).toBe(piHistory.systemPrompt);
            expect(calls.history.userText).toBe(piHistory.userText);
            expect(summaryMaxTokens(SETTINGS.reserveTokens, calls.history.maxTokensFactor)).toBe(piHistory.maxTokens);
          }
          expect(calls.turnPrefix === undefined, c.name).toBe(piPrefix === undefined);
          if (calls.turnPrefix && piPrefix) {
            expect(calls.turnPrefix.systemPrompt).toBe(piPrefix.systemPrompt);
            // pi bug #9348: pi leaves the focus out of the prefix call; we append it.
            const expected = focus ? `${piPrefix.userText}\n\nAdditional focus: ${focus}` : piPrefix.userText;
            expect(calls.turnPrefix.userText).toBe(expected);
            expect(summaryMaxTokens(SETTINGS.reserveTokens, calls.turnPrefix.maxTokensFactor)).toBe(piPrefix.maxTokens);
          }

          const ours = buildCompactionResult(c.ours, {
            history: calls.history ? "HISTORY ANSWER\nline 2" : undefined,
            turnPrefix: calls.turnPrefix ? "PREFIX ANSWER" : undefined,
          });
          expect(ours).toStrictEqual(result);
        } finally {
          capture.unregister();
        }
      }
    });
  }

  it("clamps maxTokens to the model's output limit only when given (pi bug #4390)", () => {
    expect(summaryMaxTokens(16384, 0.8)).toBe(13107);
    expect(summaryMaxTokens(16384, 0.5)).toBe(8192);
    expect(summaryMaxTokens(16384, 0.8, 8000)).toBe(8000);
    expect(summaryMaxTokens(16384, 0.8, 64000)).toBe(13107);
  });
});
