// A file the session deleted (or that is gone now): the last content of it the
// session holds, replayed from its writes and edits, or why there is none.

import type { FileVersions } from "./file-changes";

export type LastContent =
  | { known: true; content: string; /** The entry after which the file held it. */ entryId: string; /** Changed afterwards by a step whose content the session does not hold (before its deletion). */ laterUnknown: boolean }
  | { known: false; reason: string };

export function lastContentOf(versions: FileVersions): LastContent {
  let last: { content: string; entryId: string; at: number } | undefined;
  versions.steps.forEach((step, at) => {
    // The content just before a deletion (or any change) is as good as one after a write.
    if (step.before !== undefined && /[DM]/.test(step.ops)) last = { content: step.before, entryId: step.entryId, at };
    else if (step.after !== undefined) last = { content: step.after, entryId: step.entryId, at };
  });
  if (last) {
    const laterUnknown = versions.steps.slice(last.at + 1).some((s) => s.kind === "other" && /[WE]/.test(s.ops));
    return { known: true, content: last.content, entryId: last.entryId, laterUnknown };
  }
  const changedBy = versions.steps.find((s) => s.kind === "other")?.tool;
  return {
    known: false,
    reason: versions.steps.some((s) => s.kind === "edit")
      ? "the session only edited parts of it and never saw the whole file"
      : changedBy
        ? `the session only touched it with ${changedBy}, which does not record the file's content`
        : "the session never held its content",
  };
}
