// The sessions the extension has read, by path: opened on first use (an index of
// metas; bodies stay on disk until needed) and brought up to date with
// refreshSession, which reads only the appended bytes when the file grew and
// the whole file when it was rewritten. One read at a time per path.
import * as vscode from "vscode";
import { openSession, refreshSession, type LoadedSession, type OpenOptions } from "../core/session/open/open-session";
import type { FileChange } from "../core/session/bytes/fingerprint";
import { Session } from "../core/session/open/loaded-session";
import { counted } from "../core/text/counted";

export interface SessionChange {
  path: string;
  change: FileChange | "opened" | "removed";
  session: LoadedSession | undefined;
}

export interface StoreStats {
  opened: number;
  appended: number;
  rewritten: number;
  unchanged: number;
  /** Of the opened and rewritten: read from an index snapshot on (not whole in this process). */
  fromSnapshot: number;
}

export class SessionStore implements vscode.Disposable {
  private readonly sessions = new Map<string, LoadedSession>();
  private readonly pending = new Map<string, Promise<unknown>>();
  private readonly changed = new vscode.EventEmitter<SessionChange>();
  readonly onDidChange = this.changed.event;
  readonly stats: StoreStats = { opened: 0, appended: 0, rewritten: 0, unchanged: 0, fromSnapshot: 0 };

  /** `openOptions`: how sessions are opened (e.g. with the extension's index snapshots). */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    readonly openOptions: OpenOptions = {},
  ) {}

  /** The session as last read, without reading. */
  peek(path: string): LoadedSession | undefined {
    return this.sessions.get(path);
  }

  paths(): string[] {
    return [...this.sessions.keys()];
  }

  /** The session, opened now if it was never read. */
  async get(path: string): Promise<LoadedSession> {
    const known = this.sessions.get(path);
    if (known) return known;
    return this.serialized(path, async () => {
      const again = this.sessions.get(path);
      if (again) return again;
      const session = await openSession(path, this.openOptions);
      this.stats.opened++;
      this.countSnapshot(session);
      this.sessions.set(path, session);
      this.changed.fire({ path, change: "opened", session });
      return session;
    });
  }

  /** Whether the session is read, or being read. */
  holds(path: string): boolean {
    return this.sessions.has(path) || this.pending.has(path);
  }

  /**
   * Brings a read session up to date with its file (only new bytes when it grew). One being
   * opened is brought up to date after the open: the write may have come after its bytes were read.
   */
  async refresh(path: string): Promise<LoadedSession | undefined> {
    if (!this.holds(path)) return undefined;
    return this.serialized(path, async () => {
      const current = this.sessions.get(path);
      if (!current) return undefined;
      let result: Awaited<ReturnType<typeof refreshSession>>;
      try {
        result = await refreshSession(current);
      } catch (error) {
        this.log.warn(`cannot re-read ${path}: ${error instanceof Error ? error.message : String(error)}`);
        this.sessions.delete(path);
        this.changed.fire({ path, change: "removed", session: undefined });
        return undefined;
      }
      this.stats[result.change]++;
      if (result.change === "rewritten") this.countSnapshot(result.session);
      if (result.change === "unchanged") return current;
      this.log.debug(`${path}: ${result.change}, ${counted(result.session.index.size, "entry")}`);
      this.sessions.set(path, result.session);
      this.changed.fire({ path, change: result.change, session: result.session });
      return result.session;
    });
  }

  /** Reads the whole file again (after a migration replaced it). */
  async reload(path: string): Promise<LoadedSession> {
    return this.serialized(path, async () => {
      const session = await openSession(path, this.openOptions);
      this.stats.rewritten++;
      this.countSnapshot(session);
      this.sessions.set(path, session);
      this.changed.fire({ path, change: "rewritten", session });
      return session;
    });
  }

  private countSnapshot(session: LoadedSession): void {
    if (session instanceof Session && session.openedFromSnapshot) this.stats.fromSnapshot++;
  }

  forget(path: string): void {
    if (this.sessions.delete(path)) this.changed.fire({ path, change: "removed", session: undefined });
  }

  private serialized<T>(path: string, work: () => Promise<T>): Promise<T> {
    const before = this.pending.get(path) ?? Promise.resolve();
    const next = before.then(work, work);
    const settled = next.catch(() => undefined);
    this.pending.set(path, settled);
    void settled.then(() => {
      if (this.pending.get(path) === settled) this.pending.delete(path);
    });
    return next;
  }

  dispose(): void {
    this.changed.dispose();
    this.sessions.clear();
  }
}
