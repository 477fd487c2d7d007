// What one session did to one file's content, step by step, and the file's
// content before and after those steps where the session holds it: pi `write`
// contents and `edit` replacements replay exactly (pi-edit.ts); bash and other
// tools are listed without content.

import type { SessionEntry } from "../session/format/types";
import type { FileOp } from "../files-touched/actions";
import { forEachFileActionSource, type ActionSource, type CollectFilesTouchedOptions } from "../files-touched/collect";
import { FilesLedger } from "../files-touched/ledger";
import { applyPiEdits, editsOfArguments, EditNotApplicable, unapplyPiEdits, type TextEdit } from "./pi-edit";

interface StepBase {
  entryId: string;
  timestamp?: string;
  toolCallId?: string;
  /** Letters this step gave the file. */
  ops: string;
}

export type FileChangeStep =
  | (StepBase & { kind: "write"; content: string })
  | (StepBase & { kind: "edit"; edits: TextEdit[]; /** pi's unified diff from the tool result, when present. */ diff?: string })
  /** bash, moves, reads and tools whose effect on the content the session does not hold. */
  | (StepBase & { kind: "other"; tool: string; command?: string });

export interface StepVersions {
  /** Content before / after this step; undefined where the session does not tell. */
  before?: string;
  after?: string;
}

export interface FileVersions {
  steps: Array<FileChangeStep & StepVersions>;
  /** Before the session's first step (undefined: not known). */
  before?: string;
  /** After its last step (undefined: not known). */
  after?: string;
  /** True when `before` is empty because the session created the file with a write it never read before. */
  createdBySession: boolean;
}

const ORDER: readonly FileOp[] = ["R", "W", "E", "M", "D"];

function toolResultDiffs(entries: readonly SessionEntry[]): Map<string, string> {
  const diffs = new Map<string, string>();
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const message = (entry as { message?: Record<string, unknown> }).message;
    if (!message || message.role !== "toolResult" || typeof message.toolCallId !== "string") continue;
    const details = message.details as { diff?: unknown } | undefined;
    if (details && typeof details.diff === "string") diffs.set(message.toolCallId, details.diff);
  }
  return diffs;
}

function stepOf(source: ActionSource, ops: Set<FileOp>, timestamp: string | undefined, diffs: Map<string, string>): FileChangeStep {
  const base: StepBase = {
    entryId: source.entryId,
    ops: ORDER.filter((op) => ops.has(op)).join(""),
    ...(timestamp !== undefined ? { timestamp } : {}),
    ...(source.toolCallId !== undefined ? { toolCallId: source.toolCallId } : {}),
  };
  const tool = source.tool.toLowerCase();
  const args = source.args ?? {};
  if (tool === "write" && ops.has("W") && typeof args.content === "string") return { ...base, kind: "write", content: args.content };
  if (tool === "edit" && ops.has("E")) {
    const edits = editsOfArguments(args);
    const diff = source.toolCallId ? diffs.get(source.toolCallId) : undefined;
    if (edits) return { ...base, kind: "edit", edits, ...(diff !== undefined ? { diff } : {}) };
  }
  return { ...base, kind: "other", tool: source.tool, ...(source.command !== undefined ? { command: source.command } : {}) };
}

/** The steps of `entries` that touched `path` (absolute, as the manifest writes it), in session order. */
export function fileChangeSteps(entries: readonly SessionEntry[], path: string, opts: CollectFilesTouchedOptions): FileChangeStep[] {
  const timestamps = new Map<string, string>();
  for (const entry of entries) if (typeof entry.timestamp === "string") timestamps.set(entry.id, entry.timestamp);
  const diffs = toolResultDiffs(entries);
  const steps: FileChangeStep[] = [];
  let ops = new Set<FileOp>();
  const ledger = new FilesLedger((touched, op) => {
    if (touched === path) ops.add(op);
  });
  forEachFileActionSource(entries, opts, (found, source) => {
    ops = new Set();
    for (const action of found.actions) ledger.apply(action);
    if (ops.size > 0) steps.push(stepOf(source, ops, timestamps.get(source.entryId), diffs));
  });
  return steps;
}

function changesContent(step: FileChangeStep): boolean {
  return step.kind !== "other" || /[WEMD]/.test(step.ops);
}

/**
 * Replays the steps forward from the last point the content is known (a
 * write), and backward from `current` (the file as it is now) through edits
 * when the forward replay does not reach the start. `current` is trusted only
 * where it agrees with what the session holds.
 */
export function reconstructFileVersions(steps: readonly FileChangeStep[], current?: string): FileVersions {
  const versions: Array<FileChangeStep & StepVersions> = steps.map((s) => ({ ...s }));
  let state: string | undefined;
  for (const step of versions) {
    step.before = state;
    if (step.kind === "write") state = step.content;
    else if (step.kind === "edit") state = applyOrUnknown(state, (s) => applyPiEdits(s, step.edits));
    else if (changesContent(step)) state = undefined;
    step.after = state;
  }

  const last = versions.at(-1);
  if (current !== undefined && last && (last.after === undefined || last.after === current)) {
    let back: string | undefined = current;
    for (let i = versions.length - 1; i >= 0 && back !== undefined; i--) {
      const step = versions[i]!;
      if (step.after !== undefined && step.after !== back) break;
      step.after = back;
      if (step.kind === "edit") back = applyOrUnknown(back, (s) => unapplyPiEdits(s, step.edits));
      else if (step.kind === "write" || changesContent(step)) back = undefined;
      if (step.before === undefined && back !== undefined) step.before = back;
    }
  }

  const firstContent = versions.find((s) => s.kind !== "other" || changesContent(s));
  const readFirst = versions.length > 0 && versions[0]!.kind === "other" && versions[0]!.ops.includes("R");
  const createdBySession = firstContent?.kind === "write" && versions[0] === firstContent && !readFirst;
  const first = versions[0];
  const before = first?.before ?? (createdBySession ? "" : undefined);
  const result: FileVersions = { steps: versions, createdBySession };
  if (before !== undefined) result.before = before;
  if (last?.after !== undefined) result.after = last.after;
  return result;
}

function applyOrUnknown(state: string | undefined, apply: (s: string) => string): string | undefined {
  if (state === undefined) return undefined;
  try {
    return apply(state);
  } catch (error) {
    if (error instanceof EditNotApplicable) return undefined;
    throw error;
  }
}
