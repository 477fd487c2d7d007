// Whether a hook's answer has the shape pi's caller relies on. pi takes any
// truthy answer as the new result; a malformed one (say a compaction without a
// string summary) would then be written to the session. Here it is reported
// and skipped instead, like a handler that threw.

import type { BeforeBranchSummaryResult, BeforeCompactResult } from "./hook-events.js";

export type ResultCheck<R> = { ok: true; result: R } | { ok: false; problem: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function checkBeforeCompactResult(value: unknown): ResultCheck<BeforeCompactResult> {
  if (!isRecord(value)) return { ok: false, problem: "the result is not an object" };
  if (value.cancel !== undefined && typeof value.cancel !== "boolean") return { ok: false, problem: '"cancel" is not true/false' };
  if (value.compaction !== undefined) {
    const c = value.compaction;
    if (!isRecord(c)) return { ok: false, problem: '"compaction" is not an object' };
    if (typeof c.summary !== "string") return { ok: false, problem: '"compaction.summary" is not a string' };
    if (c.firstKeptEntryId !== null && (typeof c.firstKeptEntryId !== "string" || c.firstKeptEntryId === "")) {
      return { ok: false, problem: '"compaction.firstKeptEntryId" is not an entry id (or null: keep nothing)' };
    }
    if (typeof c.tokensBefore !== "number" || !Number.isFinite(c.tokensBefore) || c.tokensBefore < 0) {
      return { ok: false, problem: '"compaction.tokensBefore" is not a token count' };
    }
  }
  return { ok: true, result: value as BeforeCompactResult };
}

export function checkBeforeBranchSummaryResult(value: unknown): ResultCheck<BeforeBranchSummaryResult> {
  if (!isRecord(value)) return { ok: false, problem: "the result is not an object" };
  if (value.cancel !== undefined && typeof value.cancel !== "boolean") return { ok: false, problem: '"cancel" is not true/false' };
  if (value.summary !== undefined && (!isRecord(value.summary) || typeof value.summary.summary !== "string")) {
    return { ok: false, problem: '"summary" is not {summary: string, details?}' };
  }
  if (value.customInstructions !== undefined && typeof value.customInstructions !== "string") {
    return { ok: false, problem: '"customInstructions" is not a string' };
  }
  if (value.replaceInstructions !== undefined && typeof value.replaceInstructions !== "boolean") {
    return { ok: false, problem: '"replaceInstructions" is not true/false' };
  }
  if (value.label !== undefined && typeof value.label !== "string") return { ok: false, problem: '"label" is not a string' };
  return { ok: true, result: value as BeforeBranchSummaryResult };
}
