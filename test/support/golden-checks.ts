// Golden values from shared/spec/pi-session-semantics.md (pi 0.73.1 on its own
// fixtures, both version 1, so the branch is every entry in file order),
// checked for whatever loads the entries: pi's own parse + migrate, or our reader.

import { describe, expect, it } from "vitest";
import type { CompactionEntry, SessionEntry } from "../../src/core/session/format/types.js";
import { buildSessionContext } from "../../src/core/context/build-session-context.js";
import { findCutPoint } from "../../src/core/compaction/cut-points.js";
import { prepareCompaction } from "../../src/core/compaction/prepare-compaction.js";
import { computeFileLists } from "../../src/core/compaction/file-ops.js";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/core/settings/compaction-settings.js";

export const GOLDEN_FIXTURES = new URL("../fixtures/pi-mono/", import.meta.url);

function cut(entries: SessionEntry[], keep: number): [number, number, boolean] {
  const r = findCutPoint(entries, 0, entries.length, keep);
  return [r.firstKeptEntryIndex, r.turnStartIndex, r.isSplitTurn];
}

/** `load(name)` returns the fixture's entries, migrated, header excluded. */
export function defineGoldenTests(load: (name: string) => SessionEntry[]): void {
  describe("large-session.jsonl", () => {
    it("has 1018 entries, 914 of them messages, all in the context", () => {
      const entries = load("large-session.jsonl");
      expect(entries).toHaveLength(1018);
      expect(entries.filter((e) => e.type === "message")).toHaveLength(914);
      expect(buildSessionContext(entries).messages).toHaveLength(914);
    });
  
    it("cuts where pi cuts for 20000, 5000 and 50000 tokens", () => {
      const entries = load("large-session.jsonl");
      expect(cut(entries, 20000)).toEqual([837, 834, true]);
      expect(cut(entries, 5000)).toEqual([983, 978, true]);
      expect(cut(entries, 50000)).toEqual([394, 387, true]);
    });
  
    it("prepares the default compaction as pi does", () => {
      const entries = load("large-session.jsonl");
      const prep = prepareCompaction(entries, { ...DEFAULT_COMPACTION_SETTINGS });
      expect(prep).toBeDefined();
      expect(prep!.messagesToSummarize).toHaveLength(730);
      expect(prep!.turnPrefixMessages).toHaveLength(3);
      expect(prep!.tokensBefore).toBe(177657);
      const files = computeFileLists(prep!.fileOps);
      expect(files.readFiles).toHaveLength(7);
      expect(files.modifiedFiles).toHaveLength(20);
    });
  });
  
  describe("before-compaction.jsonl", () => {
    it("keeps its two legacy compactions where migration put them", () => {
      const entries = load("before-compaction.jsonl");
      const compactions = entries.flatMap((e, i) => (e.type === "compaction" ? [i] : []));
      expect(compactions).toEqual([358, 627]);
      const kept = compactions.map((i) => entries.findIndex((e) => e.id === (entries[i] as CompactionEntry).firstKeptEntryId));
      expect(kept).toEqual([292, 550]);
    });
  
    it("gives a context of 446 messages starting with the compaction summary", () => {
      const messages = buildSessionContext(load("before-compaction.jsonl")).messages;
      expect(messages).toHaveLength(446);
      expect(messages[0]!.role).toBe("compactionSummary");
    });
  
    it("cuts where pi cuts, including on a bashExecution for 5000 tokens", () => {
      const entries = load("before-compaction.jsonl");
      expect(cut(entries, 20000)).toEqual([946, 939, true]);
      expect(cut(entries, 5000)).toEqual([1000, 1000, true]);
      const cutEntry = entries[1000]!;
      expect(cutEntry.type === "message" && cutEntry.message.role).toBe("bashExecution");
    });
  
    it("prepares the default compaction as pi does", () => {
      const entries = load("before-compaction.jsonl");
      const prep = prepareCompaction(entries, { ...DEFAULT_COMPACTION_SETTINGS });
      expect(prep).toBeDefined();
      expect(prep!.messagesToSummarize).toHaveLength(383);
      expect(prep!.turnPrefixMessages).toHaveLength(7);
      expect(prep!.tokensBefore).toBe(180820);
      const files = computeFileLists(prep!.fileOps);
      expect(files.readFiles).toHaveLength(2);
      expect(files.modifiedFiles).toHaveLength(12);
    });
  });
}
