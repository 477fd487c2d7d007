// The sessions the views and the status bar see: the discovered groups (this
// workspace, or all projects) and, per file, its facts (kept up to date from
// the store: appends are followed from the new entries). Nothing is read until
// something asks (the Sessions view becoming visible, a command): activation
// stays cheap. A cold fill lists the files first and reads them one after the
// other, each row filled in as it is read (with progress in the view).
import { sessionOmpMarker } from "../core/session/dialect/omp-markers";
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import * as vscode from "vscode";
import type { SessionStore } from "./session-store";
import { sameGroups, withoutRecordedFile, withRecordedFile, type SessionGroup, type SessionsScope } from "./session-discovery";
import { isSessionFile } from "../core/discovery/discover";
import { readSessionHeaderFields, type HeaderFields } from "./session-header";
import type { CatalogueRow } from "../core/catalogue/catalogue-row";
import type { SessionCatalogue } from "../core/catalogue/session-catalogue";
import type { BulkReader } from "../core/catalogue/bulk-reader";
import { choosePiVersion, semanticsOf } from "../core/agent";
import { LiveSessionFacts } from "../core/live/live-facts";
import { FactsPreparer } from "./facts-preparer";
import { factsFromRow, sessionAgent, sessionFacts, type FactsContext, type FactsMemo, type RowCompactionCache, type SessionFacts } from "./session-facts";

/** Sessions kept open (indexed in memory) besides the ones pinned (active, shown): the most recently used. */
const OPEN_LIMIT = 3;
// The catalogue is written at most this often (it holds every listed session: not per pi write).
const SAVE_DELAY_MS = 30_000;

export interface SessionsModelOptions {
  /** Rows of sessions not opened come from here (none: every listed session is opened). */
  catalogue?: () => Promise<SessionCatalogue>;
  /** Where a cold fill (many files not in the catalogue) is read, when not in this process. */
  bulkReader?: () => BulkReader | undefined;
  /** Sessions that must stay open (the active one, the one the Entries view shows). */
  pinned?: () => readonly (string | undefined)[];
  fillProgress?: <T>(work: (progress: FillProgress) => Promise<T>) => PromiseLike<T>;
  /** Whether a record of omp's names a file now (omp-records.ts). */
  recorded?: { names(path: string): boolean };
}

/** What changed: these sessions' rows (`paths`), these groups' lists of files (`groups`, keys), or the list itself (neither). */
export interface SessionsChange {
  paths?: readonly string[];
  groups?: readonly string[];
}

export interface FillProgress {
  report(done: number, total: number): void;
}

export class SessionsModel implements vscode.Disposable {
  private groups: SessionGroup[] | undefined;
  private discovering: Promise<SessionGroup[]> | undefined;
  /** Files written to while a look was under way and had not read their rows (looked at again when it ends). */
  private readonly changedWhileLooking = new Set<string>();
  /** Files omp's records named or stopped naming while a look was under way (looked at again when it ends). */
  private readonly recordedWhileLooking = new Set<string>();
  /** The look queued behind the one under way. */
  private nextLook: Promise<SessionGroup[]> | undefined;
  private scopeValue: SessionsScope = "workspace";
  private readonly facts = new Map<string, SessionFacts>();
  /** Branch facts per session, followed from appended entries. */
  private readonly live = new Map<string, LiveSessionFacts>();
  /** Builds ahead what a later pi write would read the whole branch for (pi 1.5 context edits). */
  readonly preparer = new FactsPreparer((path, facts) => this.live.get(path) === facts);
  private readonly memos = new Map<string, FactsMemo>();
  /** Catalogue rows of the listed sessions, and the facts drawn from them (for sessions not opened). */
  private readonly rows = new Map<string, CatalogueRow>();
  private readonly rowFacts = new Map<string, SessionFacts>();
  /** The catalogue the rows came from. */
  private rowsFrom: SessionCatalogue | undefined;
  /** Compaction settings of listed rows, per cwd, pi version and model. */
  private readonly rowCompaction: RowCompactionCache = new Map();
  /** Opened sessions, least recently used first. */
  private readonly recent = new Set<string>();
  private saveTimer: NodeJS.Timeout | undefined;
  private listed: string[] | undefined;
  private listedFrom: SessionGroup[] | undefined;
  private groupByPath: { from: SessionGroup[]; byPath: Map<string, SessionGroup> } | undefined;
  private readonly headers = new Map<string, HeaderFields | undefined>();
  private readonly errors = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<SessionsChange>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** Full looks for session files (every folder listed again) so far (tests). */
  readonly stats = { looks: 0 };

  constructor(
    private readonly store: SessionStore,
    private readonly factsContext: () => FactsContext,
    private readonly discover: (scope: SessionsScope) => Promise<SessionGroup[]>,
    private readonly log: vscode.LogOutputChannel,
    private readonly options: SessionsModelOptions = {},
  ) {
    this.subscription = store.onDidChange(({ path, session, change }) => {
      if (change === "opened") this.touch(path);
      if (change !== "appended") {
        this.headers.delete(path);
        this.memos.delete(path);
      }
      // On an append the problem count is kept (counting again analyses the whole tree; a rewrite counts anew).
      if (session) this.computeFacts(path);
      else {
        this.facts.delete(path);
        this.live.delete(path);
        this.memos.delete(path);
        this.recent.delete(path);
      }
      this.changed.fire({ paths: [path] });
    });
  }

  get scope(): SessionsScope {
    return this.scopeValue;
  }

  /** This workspace's sessions or every project's; lists again when the list was asked for already. */
  async setScope(scope: SessionsScope): Promise<void> {
    if (scope === this.scopeValue) return;
    this.scopeValue = scope;
    await this.listMayHaveChanged();
  }

  /** The groups, discovering (and reading each session) on first call; a first look under way is shared. */
  async sessionGroups(): Promise<SessionGroup[]> {
    return this.groups ?? this.nextLook ?? this.discovering ?? this.look();
  }

  /**
   * Looks for session files again (a file was created or deleted, settings or scope changed).
   * What it returns reflects every change made before the call: a look already under way
   * may have read the folders before it, so the call waits for that one and looks again
   * (calls made meanwhile share that second look).
   */
  rediscover(): Promise<SessionGroup[]> {
    if (this.nextLook) return this.nextLook;
    if (!this.discovering) return this.look();
    const next = this.discovering
      .catch(() => undefined)
      .then(() => {
        this.nextLook = undefined;
        return this.look();
      });
    this.nextLook = next;
    return next;
  }

  /** A session file was created or deleted, or where to look changed: looks again if the list was asked for (or is being read). */
  listMayHaveChanged(): Promise<SessionGroup[]> | undefined {
    return this.groups || this.discovering ? this.rediscover() : undefined;
  }

  private look(): Promise<SessionGroup[]> {
    this.stats.looks++;
    this.discovering = (async () => {
      try {
        const groups = await this.discover(this.scopeValue);
        const wanted = new Set(groups.flatMap((g) => g.files));
        for (const path of this.store.paths()) if (!wanted.has(path)) this.store.forget(path);
        // The rows show at once ("reading…"); each fills in as its file is read. Looking again
        // and finding the same files (both watchers report a new file) changes nothing.
        if (!this.groups || !sameGroups(this.groups, groups)) {
          this.groups = groups;
          this.changed.fire({});
        }
        for (const path of this.rows.keys()) if (!wanted.has(path)) this.forgetRow(path);
        // Another catalogue (the piVersion setting changed): its rows count tokens with the new version.
        const catalogue = this.options.catalogue ? await this.options.catalogue() : undefined;
        const newCatalogue = this.rowsFrom !== undefined && catalogue !== this.rowsFrom;
        this.rowsFrom = catalogue;
        const unread = [...wanted].filter((path) => !this.facts.has(path) && (newCatalogue || !this.rowFacts.has(path)) && !this.errors.has(path));
        const fill = this.options.fillProgress ?? ((work) => work({ report: () => undefined }));
        if (unread.length > 0) await fill((progress) => (this.options.catalogue ? this.readRows(unread, progress) : this.readAll(unread, progress)));
        return groups;
      } finally {
        this.discovering = undefined;
        const changed = [...this.changedWhileLooking];
        this.changedWhileLooking.clear();
        for (const path of changed) void this.fileChanged(path);
        const recorded = [...this.recordedWhileLooking];
        this.recordedWhileLooking.clear();
        for (const path of recorded) void this.recordedFileChanged(path);
      }
    })();
    return this.discovering;
  }

  private async readAll(paths: readonly string[], progress: FillProgress): Promise<void> {
    let done = 0;
    let batch: string[] = [];
    let last = Date.now();
    for (const path of paths) {
      await this.open(path);
      batch.push(path);
      progress.report(++done, paths.length);
      if (Date.now() - last > 100) {
        this.changed.fire({ paths: batch });
        batch = [];
        last = Date.now();
      }
    }
    if (batch.length > 0) this.changed.fire({ paths: batch });
  }

  /** Rows from the catalogue: unchanged files at once, the others as they are read (appended bytes only when it can). */
  private async readRows(paths: readonly string[], progress: FillProgress): Promise<void> {
    const catalogue = await this.options.catalogue!();
    let batch: string[] = [];
    let last = Date.now();
    const seen = new Set<string>();
    for await (const row of catalogue.rows(paths, (p) => progress.report(p.done, p.total), this.options.bulkReader?.())) {
      seen.add(row.path);
      this.setRow(row);
      batch.push(row.path);
      if (Date.now() - last > 100) {
        this.changed.fire({ paths: batch });
        batch = [];
        last = Date.now();
      }
    }
    for (const path of paths) if (!seen.has(path)) this.errors.set(path, "not a pi session file (no session header), or it cannot be read");
    if (batch.length > 0) this.changed.fire({ paths: batch });
    this.scheduleSave();
  }

  /**
   * The catalogue rows of every listed session (what the Usage view sums), looking first when nothing was
   * listed yet. A session opened here is followed by the store, not its row: its row is brought up to date
   * from the catalogue (the bytes appended since it was recorded); so is one with no row yet.
   */
  async usageRows(): Promise<CatalogueRow[]> {
    await this.sessionGroups();
    const catalogue = await this.options.catalogue?.();
    const out: CatalogueRow[] = [];
    for (const path of this.listedPaths()) {
      let row = this.rows.get(path);
      if (catalogue && (!row || this.store.holds(path))) {
        try {
          row = (await catalogue.refresh(path, this.options.bulkReader?.())) ?? undefined;
        } catch {
          row = undefined;
        }
      }
      if (row) out.push(row);
    }
    return out;
  }

  /** The catalogue rows come from (none without one). */
  async catalogue(): Promise<SessionCatalogue | undefined> {
    return this.options.catalogue?.();
  }

  private setRow(row: CatalogueRow): void {
    this.headers.delete(row.path);
    this.rows.set(row.path, row);
    this.errors.delete(row.path);
    this.rowFacts.set(row.path, factsFromRow(row, this.factsContext(), this.rowCompaction));
  }

  private forgetRow(path: string): void {
    this.rows.delete(path);
    this.rowFacts.delete(path);
  }

  /**
   * A watched file changed: an opened session is brought up to date by the
   * store (its facts follow), a listed one by the catalogue (appended bytes only).
   */
  async fileChanged(path: string): Promise<void> {
    // A file omp recorded: it joins the list when it appears, leaves when it is removed (that file alone).
    if (this.groups && !this.discovering && this.options.recorded?.names(path)) {
      const listed = this.groupOf(path);
      if (listed ? listed.recorded?.has(path) && !existsSync(path) : existsSync(path)) return this.recordedFileChanged(path);
    }
    if (this.store.holds(path) || !this.options.catalogue) {
      await this.store.refresh(path);
      return;
    }
    if (!this.rows.has(path)) {
      // Being read by a look under way, maybe from before this write: looked at again when it ends.
      if (this.discovering) {
        this.changedWhileLooking.add(path);
        return;
      }
      // In pi's folder but no session when the list was read (caught empty between pi's create or rewrite and its write): one now?
      if (!this.groupOf(path) && this.inPiDir(path) && readSessionHeaderFields(path)) void this.listMayHaveChanged();
      return;
    }
    const row = await (await this.options.catalogue()).refresh(path, this.options.bulkReader?.());
    // The same row object: the file is as last read (a second watcher's event for the same write).
    if (row && row === this.rows.get(path)) return;
    if (row) this.setRow(row);
    else this.forgetRow(path);
    this.changed.fire({ paths: [path] });
    this.scheduleSave();
  }

  /**
   * omp's records changed for one file (a record named it or stopped naming it),
   * or that file appeared or went: it joins the group of the cwd its header
   * records, or leaves its group, with one header and one row read — the
   * folders are not listed again, and only that group's rows are sent again.
   */
  async recordedFileChanged(path: string): Promise<void> {
    if (this.discovering) {
      this.recordedWhileLooking.add(path);
      return;
    }
    if (!this.groups) return;
    const wanted = (this.options.recorded?.names(path) ?? false) && isSessionFile(path) && existsSync(path);
    if (!wanted) {
      const without = withoutRecordedFile(this.groups, path);
      if (!without) return;
      this.groups = without.groups;
      this.store.forget(path);
      this.forgetRow(path);
      this.errors.delete(path);
      this.headers.delete(path);
      this.changed.fire({ paths: [path], groups: [without.key] });
      return;
    }
    if (this.groupOf(path)) return;
    const header = readSessionHeaderFields(path);
    // Not a session yet (omp records a file before it writes it): its first write is reported too.
    if (!header) return;
    const placed = withRecordedFile(this.groups, this.scopeValue, path, header, this.factsContext());
    if (!placed) return;
    this.groups = placed.groups;
    this.changed.fire({ paths: [path], groups: [placed.key] });
    const none: FillProgress = { report: () => undefined };
    await (this.options.catalogue ? this.readRows([path], none) : this.readAll([path], none));
  }

  /** A group by its key. */
  groupByKey(key: string): SessionGroup | undefined {
    return this.groups?.find((group) => group.key === key);
  }

  /** Saves the catalogue now (what a pending save would write) and cancels the pending one. */
  async saveCatalogue(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await (await this.options.catalogue?.())?.save();
  }

  private scheduleSave(): void {
    if (this.saveTimer || !this.options.catalogue) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.options.catalogue!().then((c) => c.save()).catch((error: unknown) => this.log.warn(`cannot save the session catalogue: ${error instanceof Error ? error.message : String(error)}`));
    }, SAVE_DELAY_MS);
  }

  /** Keeps the opened sessions to the pinned ones and the OPEN_LIMIT most recently used (with a catalogue). */
  private touch(path: string): void {
    this.recent.delete(path);
    this.recent.add(path);
    if (!this.options.catalogue) return;
    const pinned = new Set(this.options.pinned?.() ?? []);
    const evictable = [...this.recent].filter((p) => !pinned.has(p));
    for (const old of evictable.slice(0, Math.max(0, evictable.length - OPEN_LIMIT))) {
      this.recent.delete(old);
      this.store.forget(old);
      // Its row continues from the catalogue (the appends seen while open are read there once).
      void this.fileChanged(old);
    }
  }

  private async open(path: string): Promise<void> {
    try {
      await this.store.get(path);
      this.errors.delete(path);
      this.computeFacts(path);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.errors.set(path, message);
      this.log.warn(`cannot read ${path}: ${message}`);
    }
  }

  /** Recomputes every row (the model registry loaded, settings changed). */
  recomputeAll(): void {
    for (const memo of this.memos.values()) memo.compaction = undefined;
    this.rowCompaction.clear();
    for (const path of this.store.paths()) this.computeFacts(path);
    for (const row of this.rows.values()) this.setRow(row);
    this.changed.fire({ paths: [...new Set([...this.store.paths(), ...this.rows.keys()])] });
  }

  private computeFacts(path: string): void {
    const session = this.store.peek(path);
    if (!session) return;
    let stat: { mtime: Date; size: number } | undefined;
    try {
      stat = statSync(path);
    } catch {
      stat = undefined;
    }
    try {
      const context = this.factsContext();
      const choice = choosePiVersion({ explicit: context.piVersion, explicitFrom: "the piSessions.piVersion setting", session });
      // An omp session's context is counted as omp counts it (its marks, or omp's folder).
      const agent = sessionAgent(path, sessionOmpMarker(session)?.what, context.ompSessionsRoot).agent;
      const rule = semanticsOf(agent, choice.version).contextTokenRule;
      let live = this.live.get(path);
      // A new version (a 0.73-era session resumed in pi 1.5, a changed setting) counts from scratch.
      if (live && live.rule !== rule) live = undefined;
      const branch = live ? live.update(session) : (live = new LiveSessionFacts(session, rule)).current;
      this.live.set(path, live);
      this.preparer.after(path, live);
      let memo = this.memos.get(path);
      if (!memo) this.memos.set(path, (memo = {}));
      this.facts.set(path, sessionFacts(session, branch, choice, context, stat, memo));
    } catch (error) {
      this.errors.set(path, error instanceof Error ? error.message : String(error));
    }
  }

  factsOf(path: string): SessionFacts | undefined {
    return this.facts.get(path) ?? this.rowFacts.get(path);
  }

  /** Sessions indexed in memory now (for tests and the benchmark). */
  openedPaths(): string[] {
    return this.store.paths();
  }

  errorOf(path: string): string | undefined {
    return this.errors.get(path);
  }

  /** id, cwd and parentSession: from the session's catalogue row, else the file's first line (cached until the file is rewritten). */
  headerOf(path: string): HeaderFields | undefined {
    if (!this.headers.has(path)) {
      const row = this.rows.get(path);
      this.headers.set(path, row ? { id: row.id, cwd: row.cwd, ...(row.parentSession ? { parentSession: row.parentSession } : {}) } : readSessionHeaderFields(path));
    }
    return this.headers.get(path);
  }

  /** Every listed session file, in no particular order (cheap: per change, nothing sorted). */
  listedPaths(): readonly string[] {
    if (!this.listed || this.listedFrom !== this.groups) {
      this.listedFrom = this.groups;
      this.listed = [...new Set((this.groups ?? []).flatMap((g) => g.files))];
    }
    return this.listed;
  }

  /** Every known session file, newest first. */
  allPaths(): string[] {
    const paths = [...new Set((this.groups ?? []).flatMap((g) => g.files))];
    return this.sortNewestFirst(paths);
  }

  sortNewestFirst(paths: readonly string[]): string[] {
    const time = (path: string): number => this.factsOf(path)?.lastActivity.getTime() ?? 0;
    return [...paths].sort((a, b) => time(b) - time(a) || a.localeCompare(b));
  }

  /** The folders holding the listed sessions (watched in all-projects scope). */
  watchedDirs(): string[] {
    return [...new Set(this.listedPaths().map((path) => dirname(path)))];
  }

  private inPiDir(path: string): boolean {
    const dir = dirname(path);
    return this.groups?.some((group) => group.piDir === dir) ?? false;
  }

  /** The group a session file is in (the first holding it). */
  groupOf(path: string): SessionGroup | undefined {
    if (!this.groups) return undefined;
    if (this.groupByPath?.from !== this.groups) {
      const byPath = new Map<string, SessionGroup>();
      for (const group of this.groups) for (const file of group.files) if (!byPath.has(file)) byPath.set(file, group);
      this.groupByPath = { from: this.groups, byPath };
    }
    return this.groupByPath.byPath.get(path);
  }

  dispose(): void {
    this.preparer.dispose();
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      void this.options.catalogue?.().then((c) => c.save()).catch(() => undefined);
    }
    this.subscription.dispose();
    this.changed.dispose();
  }
}
