// Per-session file touches for the files ⇄ sessions commands, from the touch
// store kept on disk beside the catalogue (globalStorage/catalogue): a session
// unchanged since it was last analysed costs a stat, an appended one only its
// new lines, across restarts of VS Code.
import { initFilesTouched } from "../../core/files-touched";
import { FileTouchStore } from "../../core/file-history/touch-store";
import { loadBashAnalyses, saveBashAnalyses } from "../../core/files-touched/analysis-cache-file";

/** The store leaves memory this long after its last use (it holds every session's manifest); the next use loads it again. */
const RELEASE_AFTER_MS = 5 * 60_000;

export class FileTouchIndex {
  private store: Promise<FileTouchStore> | undefined;
  private releaseTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly folder: string,
    private readonly fallbackCwd: () => string,
  ) {}

  private open(): Promise<FileTouchStore> {
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    if (!this.store) {
      // The per-command analyses too: a session read in full does not parse a command analysed before.
      const opening = Promise.all([FileTouchStore.open(this.folder), loadBashAnalyses(this.folder)]).then(([store]) => store);
      opening.catch(() => {
        if (this.store === opening) this.store = undefined;
      });
      this.store = opening;
    }
    return this.store;
  }

  /** The touches of `file` by one session (one row per entry, newest first); throws when the session cannot be read. */
  async touchesOfFileIn(sessionPath: string, file: string): Promise<ReturnType<FileTouchStore["touchesOfFileIn"]>> {
    await initFilesTouched();
    return (await this.open()).touchesOfFileIn(sessionPath, file, this.fallbackCwd());
  }

  /** Writes what was learnt since the last save (atomically; other windows' records are kept). */
  async save(): Promise<void> {
    const opened = this.open();
    await (await opened).save();
    await saveBashAnalyses(this.folder);
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = setTimeout(() => {
      if (this.store === opened) this.store = undefined;
    }, RELEASE_AFTER_MS);
    this.releaseTimer.unref?.();
  }

  dispose(): void {
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.store = undefined;
  }
}
