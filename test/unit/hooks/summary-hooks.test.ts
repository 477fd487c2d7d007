// The hook runner's rules (pi's ExtensionRunner.emit, semantics doc "Hooks in
// pi"): registration order, last non-empty result wins, a cancel stops at
// once, a throwing handler is reported and skipped; plus what we add:
// malformed results are reported and skipped, disposers.

import { describe, expect, it, vi } from "vitest";
import type { BranchSummaryEntry, CompactionEntry } from "../../../src/core/session/format/types.js";
import type { BeforeBranchSummaryEvent, BeforeCompactEvent, HookCompaction } from "../../../src/core/hooks/hook-events.js";
import { SummaryHooks } from "../../../src/core/hooks/summary-hooks.js";
import type { HookFailure } from "../../../src/core/hooks/summary-hooks.js";

const compactEvent = (): BeforeCompactEvent => ({
  preparation: {
    firstKeptEntryId: "k1",
    messagesToSummarize: [],
    turnPrefixMessages: [],
    isSplitTurn: false,
    tokensBefore: 1000,
    fileOps: { read: [], written: [], edited: [] },
    settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
  } as unknown as BeforeCompactEvent["preparation"],
  branchEntries: [],
  customInstructions: "focus on tests",
  signal: new AbortController().signal,
});

const treeEvent = (): BeforeBranchSummaryEvent => ({
  preparation: { targetId: "t", oldLeafId: "o", commonAncestorId: "c", entriesToSummarize: [], userWantsSummary: true },
  signal: new AbortController().signal,
});

const compaction = (summary: string): { compaction: HookCompaction } => ({
  compaction: { summary, firstKeptEntryId: "k1", tokensBefore: 1000, details: { by: summary } },
});

describe("before_compact", () => {
  it("runs handlers in registration order with the same event; the last non-empty result wins", async () => {
    const hooks = new SummaryHooks();
    const seen: [number, BeforeCompactEvent][] = [];
    hooks.on("before_compact", (e) => (seen.push([1, e]), compaction("A")));
    hooks.on("before_compact", (e) => {
      seen.push([2, e]);
      return undefined;
    });
    hooks.on("before_compact", async (e) => (seen.push([3, e]), compaction("C")));
    hooks.on("before_compact", (e) => (seen.push([4, e]), null as never));
    const event = compactEvent();
    const report = await hooks.runBeforeCompact(event);
    expect(seen.map(([n]) => n)).toEqual([1, 2, 3, 4]);
    expect(seen.every(([, e]) => e === event)).toBe(true);
    expect(report).toEqual({ result: compaction("C"), cancelled: false, diagnostics: [] });
  });

  it("a cancel stops at once", async () => {
    const hooks = new SummaryHooks();
    const third = vi.fn(() => compaction("late"));
    hooks.on("before_compact", () => compaction("A"));
    hooks.on("before_compact", () => ({ cancel: true }));
    hooks.on("before_compact", third);
    const report = await hooks.runBeforeCompact(compactEvent());
    expect(report.cancelled).toBe(true);
    expect(report.result).toEqual({ cancel: true });
    expect(third).not.toHaveBeenCalled();
  });

  it("a throwing (or rejecting) handler is reported and skipped; the others still count", async () => {
    const hooks = new SummaryHooks();
    hooks.on("before_compact", () => compaction("A"));
    hooks.on("before_compact", () => {
      throw new Error("boom");
    });
    hooks.on("before_compact", async () => Promise.reject(new Error("async boom")), "my-extension");
    hooks.on("before_compact", () => undefined);
    const failures: HookFailure[] = [];
    const report = await hooks.runBeforeCompact(compactEvent(), { onError: (f) => failures.push(f) });
    expect(report.result).toEqual(compaction("A"));
    expect(report.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["hook-error", "before_compact hook #2 threw: boom; skipped"],
      ["hook-error", "before_compact hook my-extension threw: async boom; skipped"],
    ]);
    expect(failures.map((f) => [f.hook, f.handler, f.kind, (f.error as Error).message])).toEqual([
      ["before_compact", "#2", "threw", "boom"],
      ["before_compact", "my-extension", "threw", "async boom"],
    ]);
  });

  it("a malformed result is reported and does not replace the previous one", async () => {
    const hooks = new SummaryHooks();
    hooks.on("before_compact", () => compaction("A"));
    hooks.on("before_compact", () => ({ compaction: { summary: 5, firstKeptEntryId: "k", tokensBefore: 1 } }) as never);
    hooks.on("before_compact", () => ({ compaction: { summary: "x", firstKeptEntryId: "", tokensBefore: 1 } }));
    hooks.on("before_compact", () => "yes" as never);
    const report = await hooks.runBeforeCompact(compactEvent());
    expect(report.result).toEqual(compaction("A"));
    expect(report.diagnostics.map((d) => d.code)).toEqual(["invalid-hook-result", "invalid-hook-result", "invalid-hook-result"]);
    expect(report.diagnostics[0]?.message).toContain('"compaction.summary" is not a string');
  });

  it("no handlers: no result", async () => {
    expect(await new SummaryHooks().runBeforeCompact(compactEvent())).toEqual({ result: undefined, cancelled: false, diagnostics: [] });
  });
});

describe("before_branch_summary", () => {
  it("the last result wins as a whole (pi does not merge instruction overrides)", async () => {
    const hooks = new SummaryHooks();
    hooks.on("before_branch_summary", () => ({ label: "first" }));
    hooks.on("before_branch_summary", () => ({ customInstructions: "keep it short", replaceInstructions: true }));
    expect((await hooks.runBeforeBranchSummary(treeEvent())).result).toEqual({ customInstructions: "keep it short", replaceInstructions: true });
  });

  it("a summary result, then a cancel that stops the rest", async () => {
    const hooks = new SummaryHooks();
    const after = vi.fn(() => undefined);
    hooks.on("before_branch_summary", (e) => ({ summary: { summary: `left ${e.preparation.oldLeafId}`, details: { n: 1 } } }));
    expect((await hooks.runBeforeBranchSummary(treeEvent())).result).toEqual({ summary: { summary: "left o", details: { n: 1 } } });
    hooks.on("before_branch_summary", () => ({ cancel: true }));
    hooks.on("before_branch_summary", after);
    const report = await hooks.runBeforeBranchSummary(treeEvent());
    expect([report.cancelled, report.result]).toEqual([true, { cancel: true }]);
    expect(after).not.toHaveBeenCalled();
  });

  it("rejects wrongly typed fields", async () => {
    const hooks = new SummaryHooks();
    hooks.on("before_branch_summary", () => ({ label: 7 }) as never);
    hooks.on("before_branch_summary", () => ({ summary: "text" }) as never);
    const report = await hooks.runBeforeBranchSummary(treeEvent());
    expect(report.result).toBeUndefined();
    expect(report.diagnostics.map((d) => d.message)).toEqual([
      'before_branch_summary hook #1 returned an invalid result: "label" is not a string; skipped',
      'before_branch_summary hook #2 returned an invalid result: "summary" is not {summary: string, details?}; skipped',
    ]);
  });
});

describe("after_* events", () => {
  it("reach every handler with the written entry, even when one throws", async () => {
    const hooks = new SummaryHooks();
    const entry = { type: "compaction", id: "c1", parentId: "p", timestamp: "t", summary: "s", firstKeptEntryId: "k", tokensBefore: 1 } as CompactionEntry;
    const got: string[] = [];
    hooks.on("after_compact", (e) => void got.push(`1:${e.entry.id}:${e.fromHook}`));
    hooks.on("after_compact", () => {
      throw new Error("listener failed");
    });
    hooks.on("after_compact", (e) => void got.push(`3:${e.entry.id}`));
    const diagnostics = await hooks.emitAfterCompact({ entry, fromHook: false });
    expect(got).toEqual(["1:c1:false", "3:c1"]);
    expect(diagnostics.map((d) => d.message)).toEqual(["after_compact hook #2 threw: listener failed; skipped"]);

    const summary = { type: "branch_summary", id: "b1", parentId: "n", timestamp: "t", fromId: "n", summary: "s" } as BranchSummaryEntry;
    hooks.on("after_branch_summary", (e) => void got.push(`${e.entry.id}:${e.newLeafId}:${e.oldLeafId}`));
    expect(await hooks.emitAfterBranchSummary({ entry: summary, newLeafId: "n", oldLeafId: "o", fromHook: true })).toEqual([]);
    expect(got.at(-1)).toBe("b1:n:o");
  });
});

describe("registration", () => {
  it("dispose removes exactly its own registration, once", async () => {
    const hooks = new SummaryHooks();
    const handler = vi.fn(() => undefined);
    const first = hooks.on("before_compact", handler);
    hooks.on("before_compact", handler);
    expect(hooks.has("before_compact")).toBe(true);
    first.dispose();
    first.dispose();
    await hooks.runBeforeCompact(compactEvent());
    expect(handler).toHaveBeenCalledTimes(1);
    expect(hooks.has("after_compact")).toBe(false);
  });

  it("disposing during a run takes effect from the next run", async () => {
    const hooks = new SummaryHooks();
    const later = vi.fn(() => compaction("later"));
    let laterDisposer = { dispose: () => undefined as void };
    hooks.on("before_compact", () => {
      laterDisposer.dispose();
      return undefined;
    });
    laterDisposer = hooks.on("before_compact", later);
    expect((await hooks.runBeforeCompact(compactEvent())).result).toEqual(compaction("later"));
    expect((await hooks.runBeforeCompact(compactEvent())).result).toBeUndefined();
    expect(later).toHaveBeenCalledTimes(1);
  });
});
