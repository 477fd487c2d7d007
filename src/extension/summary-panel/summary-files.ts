// Which files a summary's manifest lists. Pure (no vscode).
//
// 1. What the runner recorded in `details.piSessions.filesTouched`.
// 2. Else, for a compaction: recomputed by the grounded collector over the
//    branch it summarised (root → the compaction's parent, which is what
//    runCompaction collects; the compaction entry itself touches no file).
// 3. Else, for a branch summary: pi's own `details.readFiles/modifiedFiles`.
//    The abandoned branch a branch summary describes is not recorded in the
//    file, so it cannot be recomputed; the path to the summary is the branch
//    that was kept, whose files would be the wrong ones.

import { collectFilesTouched, initFilesTouched } from "../../core/files-touched/index";
import type { LoadedSession } from "../../core/session/open/open-session";
import { filesFromPiLists } from "./panel-files";
import type { RecordedFile, SummaryEntryFacts } from "./summary-entry";

export type ManifestSource = "recorded" | "recomputed" | "pi-lists" | "none";

export interface ManifestFiles {
  files: RecordedFile[];
  source: ManifestSource;
}

export async function manifestFilesFor(session: LoadedSession, facts: SummaryEntryFacts): Promise<ManifestFiles> {
  if (facts.recordedFiles) return { files: facts.recordedFiles, source: "recorded" };
  if (facts.kind === "compaction" && facts.parentId && session.index.get(facts.parentId)) {
    await initFilesTouched();
    const cwd = session.header?.cwd || "/";
    const found = collectFilesTouched(session.pathTo(facts.parentId), { cwd });
    return { files: found.files, source: "recomputed" };
  }
  if (facts.piFileLists) return { files: filesFromPiLists(facts.piFileLists), source: "pi-lists" };
  return { files: [], source: "none" };
}
