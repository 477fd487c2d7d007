// Per-session file touches, computed once per state of the session file and
// kept while the file does not change (a pi write makes a new LoadedSession or
// a bigger index; the entry count keys the cache).
import { collectFileTouches, type FileTouch } from "../../core/file-history";
import { initFilesTouched } from "../../core/files-touched";
import type { LoadedSession } from "../../core/session/open-session";
import { recordedCwd } from "../../core/session/session-info";

interface CachedTouches {
  entries: number;
  touches: FileTouch[];
}

export class FileTouchIndex {
  private readonly cache = new Map<string, CachedTouches>();

  constructor(private readonly fallbackCwd: () => string) {}

  async touchesOf(path: string, session: LoadedSession): Promise<FileTouch[]> {
    const entries = session.index.size;
    const known = this.cache.get(path);
    if (known && known.entries === entries) return known.touches;
    await initFilesTouched();
    const touches = collectFileTouches(session.entries(), { cwd: recordedCwd(session) ?? this.fallbackCwd() });
    this.cache.set(path, { entries, touches });
    return touches;
  }

  forget(path: string): void {
    this.cache.delete(path);
  }
}
