// omp 18.3.4's rename (SessionManager.setSessionName on a file with a title
// slot): a `title_change` entry appended and the 256-byte slot on line 1
// rewritten in place, under omp's publish lock (write/ commits both), then
// omp's welcome-screen title cache (history.db) updated. omp reads its name
// only from the slot: a file without one is refused.

import type { RenameWriter } from "../rename-writer.js";
import { serializeTitleSlot, truncateTitleForSlot } from "../../session/format/omp-title-slot-serialize.js";
import { defaultOmpDirs } from "./agent-dir.js";
import { ompHistoryDbFile } from "./omp-dirs.js";

/**
 * What omp's welcome screen shows when its title cache (history.db) could not
 * be updated (write/omp-title-index.ts); its /resume reads the title slot.
 */
export const OMP_TITLE_CACHE_NOTICE =
  "omp's /resume shows the new name; omp's welcome screen may keep showing a name it cached earlier (history.db) until omp itself renames the session";

/** omp's SessionManager.#cleanTitle: control characters become spaces, runs of spaces one, trimmed. */
export function cleanOmpTitle(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").replace(/ +/g, " ").trim();
}

export const OMP_RENAME_WRITER: RenameWriter = Object.freeze({
  clean: cleanOmpTitle,
  refuse: (source) =>
    source.titleSlot
      ? undefined
      : {
          code: "no-title-slot",
          message: `${source.path ?? "session"}:1: this omp session has no title slot (it was started by pi); omp reads a name only from the slot, so a rename would not show in omp. Nothing was written`,
        },
  plan: (source, title, now) => {
    const previousName = source.titleSlot?.title.trim() ? source.titleSlot.title : null;
    return {
      draft: { type: "title_change", title, source: "user", previousTitle: previousName ?? undefined },
      name: truncateTitleForSlot(title, "user", now),
      previousName,
      titleSlot: serializeTitleSlot({ title, source: "user", updatedAt: now }),
      // Never named before: omp cached no title, so nothing is stale.
      titleCache: { file: ompHistoryDbFile(source.ompAgentDir ?? defaultOmpDirs().agentDir), sessionId: source.sessionId, title, staleNotice: previousName !== null ? OMP_TITLE_CACHE_NOTICE : undefined },
    };
  },
  prompt: "The session's title, as omp sets it (its title slot: shown in omp's /resume and here).",
} satisfies RenameWriter);
