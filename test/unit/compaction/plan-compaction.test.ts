// Why a branch cannot be compacted, and the `prepare --json` shape for it.
// Expectations derived from pi's prepareCompaction rules (see the source).

import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { planCompaction, prepareCompaction } from "../../../src/core/compaction/prepare-compaction.js";
import { describePreparation } from "../../../src/core/compaction/describe-preparation.js";
import { formatFileOperations } from "../../../src/core/compaction/file-ops.js";

const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
const ts = "2025-01-01T00:00:00.000Z";
const user = (id: string, parentId: string | null, text: string): SessionEntry =>
  ({ type: "message", id, parentId, timestamp: ts, message: { role: "user", content: text, timestamp: 1 } }) as SessionEntry;

describe("planCompaction", () => {
  it("refuses an empty branch", () => {
    const plan = planCompaction([], settings);
    expect(plan).toMatchObject({ compactable: false, code: "empty-branch" });
    expect(prepareCompaction([], settings)).toBeUndefined();
  });

  it("refuses when the leaf is already a compaction, naming it", () => {
    const path = [
      user("a", null, "hi"),
      { type: "compaction", id: "c1", parentId: "a", timestamp: ts, summary: "s", firstKeptEntryId: "a", tokensBefore: 5 } as SessionEntry,
    ];
    const described = describePreparation(planCompaction(path, settings));
    expect(described).toEqual({ compactable: false, code: "already-compacted", reason: "the leaf c1 is already a compaction" });
  });

  it("says when nothing lies before the cut (pi would call the model with an empty conversation)", () => {
    const path = [user("a", null, "short"), user("b", "a", "also short")];
    const plan = planCompaction(path, settings);
    expect(plan).toMatchObject({ compactable: false, code: "nothing-to-summarize" });
    // pi's prepareCompaction still returns a preparation here; so does ours.
    expect(prepareCompaction(path, settings)?.messagesToSummarize).toEqual([]);
  });

  it("says a file needs migration when the kept entry has no id (unmigrated v1 entries)", () => {
    const v1 = [
      { type: "message", timestamp: ts, message: { role: "user", content: "x".repeat(400), timestamp: 1 } },
      { type: "message", timestamp: ts, message: { role: "user", content: "y".repeat(400), timestamp: 2 } },
    ] as unknown as SessionEntry[];
    const plan = planCompaction(v1, { ...settings, keepRecentTokens: 50 });
    expect(plan).toMatchObject({ compactable: false, code: "needs-migration" });
  });

  it("describes a compactable branch with counts, files and serialised text", () => {
    const path: SessionEntry[] = [
      user("a", null, "x".repeat(400)),
      {
        type: "message",
        id: "b",
        parentId: "a",
        timestamp: ts,
        message: {
          role: "assistant",
          content: [{ type: "toolCall", id: "t", name: "edit", arguments: { path: "src/z.ts", edits: [] } }, { type: "toolCall", id: "r", name: "read", arguments: { path: "src/y.ts" } }],
          provider: "p",
          model: "m",
          timestamp: 2,
        },
      } as SessionEntry,
      user("c", "b", "y".repeat(400)),
    ];
    const described = describePreparation(planCompaction(path, { ...settings, keepRecentTokens: 50 }));
    expect(described).toEqual({
      compactable: true,
      firstKeptEntryId: "c",
      isSplitTurn: false,
      // No usage anywhere: the sum of estimates. 400/4 per user message; the assistant's two
      // calls are "edit" + {"path":"src/z.ts","edits":[]} (4+30) and "read" + {"path":"src/y.ts"} (4+19): ceil(57/4).
      tokensBefore: 100 + 15 + 100,
      messagesToSummarize: 2,
      turnPrefixMessages: 0,
      previousSummary: null,
      readFiles: ["src/y.ts"],
      modifiedFiles: ["src/z.ts"],
      serializedHistory: `[User]: ${"x".repeat(400)}\n\n[Assistant tool calls]: edit(path="src/z.ts", edits=[]); read(path="src/y.ts")`,
      serializedTurnPrefix: "",
    });
  });
});

describe("formatFileOperations", () => {
  it("writes the blocks pi appends, each only when non-empty", () => {
    expect(formatFileOperations([], [])).toBe("");
    expect(formatFileOperations(["a"], [])).toBe("\n\n<read-files>\na\n</read-files>");
    expect(formatFileOperations(["a", "b"], ["c"])).toBe("\n\n<read-files>\na\nb\n</read-files>\n\n<modified-files>\nc\n</modified-files>");
  });
});
