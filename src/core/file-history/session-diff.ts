// "All changes of this session" to one file, as a pair of texts for a diff
// editor, built from what the session itself holds (its writes and edits), not
// from whatever the file on disk holds today. In order of preference:
//  - the whole file before and after, replayed from the session alone (it wrote
//    the file) or through today's file where that agrees with the session's result;
//  - today's file taken as the content the session started from, when the
//    session's edits apply to it in order (a revert, a branch switch, a checkout
//    of the files as they were before);
//  - otherwise each change on its own, in session order (the replaced text and
//    its replacement, a write's content), with a first line that says what is not
//    in the session. The notice is in both texts, so the diff does not mark it.

import type { FileChangeStep, FileVersions, StepVersions } from "./file-changes";
import { applyPiEdits, EditNotApplicable } from "./pi-edit";

export type SessionDiffSource =
  /** Replayed from the session (and today's file, where it agrees). */
  | "session"
  /** Today's file is the content before the session's changes: they apply to it. */
  | "disk-before"
  /** Only the changes themselves: the content around them was never seen. */
  | "changes";

export interface SessionDiff {
  before: string;
  after: string;
  source: SessionDiffSource;
  /** For the view's title: what the two sides are. */
  description: string;
  /** What the session does not hold, said in the view (undefined: nothing missing). */
  notice?: string;
}

type Step = FileChangeStep & StepVersions;

export function sessionDiff(versions: FileVersions, current: string | undefined): SessionDiff {
  const steps = versions.steps;
  // versions.after may be today's file taken as is (file-changes.ts): here only what the session itself holds,
  // or today's file where the replay backwards through the session's edits reached the start.
  const sessionAfter = replayFrom(undefined, steps);
  const afterHeld = versions.after !== undefined && (versions.after === sessionAfter || !versions.createdBySession);
  if (versions.before !== undefined && afterHeld) {
    return { before: versions.before, after: versions.after!, source: "session", description: "before ↔ after" };
  }
  // Today's file as the start is checked by the edits applying to it: only when an edit comes first.
  const firstChange = steps.find((s) => s.kind !== "other" || /[WEMD]/.test(s.ops));
  const fromDisk = current !== undefined && firstChange?.kind === "edit" ? replayFrom(current, steps, true) : undefined;
  if (fromDisk !== undefined && fromDisk !== current) {
    return { before: current!, after: fromDisk, source: "disk-before", description: "today's file ↔ with the session's changes" };
  }
  if (sessionAfter !== undefined) {
    const notice = "Pi Sessions: the file's content before this session's first write is not in the session; after: the file as the session left it.";
    return { before: `# ${notice}\n`, after: `# ${notice}\n${sessionAfter}`, source: "changes", description: "the file as the session left it (before not in the session)", notice };
  }
  return changesOnly(steps);
}

/** `start` through every step, or undefined when the end is not known (`strict`: when any step's content is not: not in the session, an edit that does not apply). */
function replayFrom(start: string | undefined, steps: readonly Step[], strict = false): string | undefined {
  let state = start;
  for (const step of steps) {
    if (step.kind === "write") state = step.content;
    else if (state === undefined) continue;
    else if (step.kind === "edit") {
      try {
        state = applyPiEdits(state, step.edits);
      } catch (error) {
        if (!(error instanceof EditNotApplicable)) throw error;
        if (strict) return undefined;
        state = undefined;
      }
    } else if (/[WEMD]/.test(step.ops)) {
      if (strict) return undefined;
      state = undefined;
    }
  }
  return state;
}

function when(step: Step): string {
  return step.timestamp ? ` · ${step.timestamp.replace("T", " ").replace(/\.\d+Z$/, " UTC")}` : "";
}

function changesOnly(steps: readonly Step[]): SessionDiff {
  const before: string[] = [];
  const after: string[] = [];
  const both = (text: string) => {
    before.push(text);
    after.push(text);
  };
  const unknownOps = steps.filter((s) => s.kind === "other" && /[WEMD]/.test(s.ops)).length;
  const notice = [
    "Pi Sessions: the file's content around these changes was never seen by the session (it edited the file without writing it whole,",
    "and the file on disk no longer holds the session's result). Each change the session made is shown on its own, in order.",
    unknownOps > 0 ? `${unknownOps} change${unknownOps === 1 ? "" : "s"} by other tools (bash…) are listed without content: the session does not hold it.` : "",
  ].filter(Boolean);
  for (const line of notice) both(`# ${line}`);
  steps.forEach((step, i) => {
    both("");
    if (step.kind === "edit") {
      step.edits.forEach((edit, k) => {
        both(`# ── ${i + 1}. edit${step.edits.length > 1 ? ` (replacement ${k + 1} of ${step.edits.length})` : ""}${when(step)} · entry ${step.entryId} ──`);
        before.push(edit.oldText);
        after.push(edit.newText);
      });
    } else if (step.kind === "write") {
      both(`# ── ${i + 1}. write (the whole file)${when(step)} · entry ${step.entryId} ──`);
      if (step.before !== undefined) before.push(step.before);
      else before.push("# (the content before this write is not in the session)");
      after.push(step.content);
    } else {
      both(`# ── ${i + 1}. ${step.tool}${step.command ? `: ${step.command.split("\n")[0]!.slice(0, 200)}` : ""}${when(step)} · entry ${step.entryId} ──`);
      both(`# (${step.ops.includes("R") && !/[WEMD]/.test(step.ops) ? "read only" : "its effect on the content is not in the session"})`);
    }
  });
  return {
    before: `${before.join("\n")}\n`,
    after: `${after.join("\n")}\n`,
    source: "changes",
    description: "each change (content around them not in the session)",
    notice: notice.join(" "),
  };
}
