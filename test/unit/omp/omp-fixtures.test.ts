// The five files omp 18.3.4 wrote, read with our omp semantics and compared
// field by field with omp's own answers (test/fixtures/omp-18/expected/):
// convertToLlm(buildSessionContext()) deep-equal (images compared by the
// SHA-256 of their bytes, read from the blob store as omp reads them), thinking
// level, model, token estimates, prepareCompaction at keep 20000 and 2000.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createOmpSemantics } from "../../../src/core/agent/omp-18/semantics.js";
import { ompPrepareCompaction } from "../../../src/core/agent/omp-18/prepare-compaction.js";
import { countMessagesTokens } from "../../../src/core/agent/omp-18/tokenizer.js";
import { computeFileLists } from "../../../src/core/agent/omp-18/prepare-compaction.js";
import { sessionFromBytes } from "../../../src/core/session/open/open-session.js";
import { digestImages } from "../../support/omp/image-digest.js";
import { OMP_FIXTURE_BLOBS, OMP_FIXTURES, OMP_FIXTURES_DIR, prefix, readOmpExpected, readOmpExpectedLlm } from "../../support/omp/expected-fixtures.js";

const omp = createOmpSemantics(OMP_FIXTURE_BLOBS);
const open = (name: string) => {
  const file = join(OMP_FIXTURES_DIR, `${name}.jsonl`);
  return sessionFromBytes(readFileSync(file), file);
};

describe("omp's own answers on the five files it wrote", () => {
  for (const name of OMP_FIXTURES) {
    it(`${name}: the messages omp sends, deep-equal`, () => {
      const session = open(name);
      const path = session.pathTo();
      const context = omp.buildSessionContext(path);
      const llm = digestImages(JSON.parse(JSON.stringify(omp.convertToLlm(context.messages))));
      expect(llm).toEqual(readOmpExpectedLlm(name));
    });

    it(`${name}: thinking level, model, tokens, preparations as omp's`, () => {
      const expected = readOmpExpected(name);
      const session = open(name);
      const path = session.pathTo();
      const context = omp.buildSessionContext(path);
      expect(context.thinkingLevel).toBe(expected.context.thinkingLevel);
      const [provider, ...rest] = (expected.context.models.default as string).split("/");
      expect(context.model).toEqual({ provider, modelId: rest.join("/") });
      expect(context.messages.map((m) => m.role)).toEqual(expected.context.roles);
      expect(context.messages.map((m) => omp.estimateTokens(m))).toEqual(expected.tokens.perMessage);
      expect(countMessagesTokens(context.messages as never)).toBe(expected.tokens.contextMessagesTotal);
      const loaded = omp.asLoaded(path);
      for (const [key, keep] of [["keep20000", 20000], ["keep2000", 2000]] as const) {
        const want = expected.prepare[key];
        const got = ompPrepareCompaction(loaded, keep);
        if (want === null) {
          expect(got.compactable).toBe(false);
          continue;
        }
        expect(got.compactable).toBe(true);
        if (!got.compactable) continue;
        const p = got.preparation;
        const files = computeFileLists(p.fileOps);
        expect({
          firstKeptEntryId: p.firstKeptEntryId,
          isSplitTurn: p.isSplitTurn,
          tokensBefore: p.tokensBefore,
          messagesToSummarize: p.messagesToSummarize.length,
          messagesToSummarizeRoles: p.messagesToSummarize.map((m) => m.role),
          turnPrefixMessages: p.turnPrefixMessages.length,
          turnPrefixRoles: p.turnPrefixMessages.map((m) => m.role),
          recentMessages: p.recentMessages.length,
          previousSummary: p.previousSummary === undefined ? null : prefix(p.previousSummary, 80),
          readFiles: files.readFiles,
          modifiedFiles: files.modifiedFiles,
        }).toEqual({
          firstKeptEntryId: want.firstKeptEntryId,
          isSplitTurn: want.isSplitTurn,
          tokensBefore: want.tokensBefore,
          messagesToSummarize: want.messagesToSummarize,
          messagesToSummarizeRoles: want.messagesToSummarizeRoles,
          turnPrefixMessages: want.turnPrefixMessages,
          turnPrefixRoles: want.turnPrefixRoles,
          recentMessages: want.recentMessages,
          previousSummary: want.previousSummary,
          readFiles: want.readFiles,
          modifiedFiles: want.modifiedFiles,
        });
        const described = omp.describePreparation(omp.planCompaction(path, { enabled: true, reserveTokens: 16384, keepRecentTokens: keep }));
        if (!described.compactable) throw new Error("not compactable");
        expect(described.serializedHistory.length).toBe(want.serializedHistoryChars);
        expect(described.serializedTurnPrefix.length).toBe(want.serializedTurnPrefixChars);
      }
    });
  }

  it("without the blob store: omp's notice where the frames were, and no 'imaged middle' markers", () => {
    const bare = createOmpSemantics(undefined);
    const session = open("omp-snapcompact");
    const first = bare.convertToLlm(bare.buildSessionContext(session.pathTo()).messages)[0] as { content: { type: string; text?: string }[] };
    expect(first.content.map((b) => b.type)).toEqual(["text", "text", "text"]);
    expect(first.content[1]!.text).not.toContain("imaged middle below");
    expect(first.content[2]!.text!.startsWith("-------------- 5 archived image frames unavailable here --------------\n-------------- middle history omitted above\n")).toBe(true);
  });
});
