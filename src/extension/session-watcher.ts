// Live updates: a watched session file that changes is brought up to date
// (only the appended bytes are read when it grew); a created or deleted file
// makes the list look again. pi's folders are outside the workspace, so they
// are watched both with VS Code's watcher on an absolute RelativePattern and
// with Node's fs.watch. In code-server 4.139 each of the two alone keeps the
// live-updates suite green; both stay on for hosts where one of them is
// missing. Events are debounced per file, and each write reaches the listener
// once: an event for a file whose size, mtime and inode are what the listener
// was last told about (the other watcher reporting the same write, often
// 80 ms or more later) is dropped after a stat. pi creates a cwd's folder with
// its first session there: a folder missing when watching starts is looked for
// every second (neither watcher reports files in a folder created after it
// started), and once there it is watched and the list looks again. Listing
// every project, pi's sessions folder is watched for new project folders.
// omp's record folders (custom-session-files, terminal-sessions) are watched
// record by record: each record created, changed or removed is reported alone
// (`recordChanged`), and the folders of the files omp recorded report their
// session files as changed (created, appended or removed), never as a list
// change: one record or one file is what the listener reads again. Those
// folders are added one at a time as records name them (`watchRecordedDir`).
import { existsSync, readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";

export interface WatchTargets {
  /** Folders outside the workspace holding *.jsonl sessions (pi's). */
  piDirs: string[];
  /** Folders each of whose subfolders is one of pi's (`<agent-dir>/sessions` when every project is listed). */
  piRoots?: string[];
  /** Globs inside the workspace folders. */
  include: string[];
  /** omp's record folders (custom-session-files, terminal-sessions): each record reported alone. */
  recordFolders?: string[];
  /** Folders of session files omp recorded: their *.jsonl reported as changed (never as a list change). */
  recordedDirs?: string[];
}

export type WatchSource = "vscode" | "fs.watch";

export interface WatcherStats {
  /** Changes handed to the listener. */
  delivered: number;
  /** Events dropped: the file was as last delivered. */
  duplicates: number;
}

export interface SessionWatcherEvents {
  changed(path: string): void;
  /** A file was created or deleted. */
  listChanged(): void;
  /** One of omp's records was created, changed or removed. */
  recordChanged?(record: string): void;
}

const DEBOUNCE_MS = 50;
const MISSING_FOLDER_POLL_MS = 1000;

export class SessionWatcher implements vscode.Disposable {
  private disposables: vscode.Disposable[] = [];
  private fsWatchers: FSWatcher[] = [];
  private missingFolderPoll: NodeJS.Timeout | undefined;
  private targets: WatchTargets = { piDirs: [], include: [] };
  /** Record folders and recorded files' folders watched now, and those waited for (not there yet). */
  private readonly recordWatched = new Set<string>();
  private readonly recordMissing = new Map<string, "records" | "recorded">();
  private piDirsWatched = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  readonly eventCounts: Record<WatchSource, number> = { vscode: 0, "fs.watch": 0 };
  readonly stats: WatcherStats = { delivered: 0, duplicates: 0 };
  /** Size, mtime and inode of each file as last handed to the listener. */
  private readonly delivered = new Map<string, string>();

  constructor(
    private readonly events: SessionWatcherEvents,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  watch(targets: WatchTargets): void {
    this.stop();
    this.targets = targets;
    const dirs = new Set(targets.piDirs);
    this.piDirsWatched = dirs;
    for (const root of targets.piRoots ?? []) {
      for (const dir of subfolders(root)) dirs.add(dir);
      // pi makes a folder for a new cwd when it starts there: watch it too (its first session comes later).
      this.watchFolder(root, (name) => {
        const dir = join(root, name);
        if (!dirs.has(dir) && isFolder(dir)) this.scheduleKey("rewatch", () => this.rewatch([dir]));
      });
    }
    for (const dir of dirs) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), "*.jsonl"));
      this.hook(watcher);
      this.watchFolder(dir, (name, event) => {
        if (name.endsWith(".jsonl")) this.schedule(join(dir, name), "fs.watch", event === "change" ? "change" : "unknown");
      });
    }
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      for (const include of targets.include) this.hook(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, include)));
    }
    for (const folder of targets.recordFolders ?? []) this.watchRecords(folder, "records");
    for (const dir of targets.recordedDirs ?? []) this.watchRecords(dir, "recorded");
    const missing = [...dirs, ...(targets.piRoots ?? [])].filter((dir) => !existsSync(dir));
    if (missing.length > 0 || this.recordMissing.size > 0) {
      this.missingFolderPoll = setInterval(() => {
        const appeared = missing.filter((dir) => existsSync(dir));
        if (appeared.length > 0) return this.rewatch(appeared);
        for (const [dir, kind] of this.recordMissing) if (existsSync(dir)) this.recordFolderAppeared(dir, kind);
      }, MISSING_FOLDER_POLL_MS);
      this.missingFolderPoll.unref?.();
    }
  }

  /** A folder holding a file omp recorded (from a new record): watched from now on (kept over later rewatches). */
  watchRecordedDir(dir: string): void {
    if (this.recordWatched.has(dir) || this.recordMissing.has(dir) || this.piDirsWatched.has(dir)) return;
    this.targets = { ...this.targets, recordedDirs: [...(this.targets.recordedDirs ?? []), dir] };
    this.watchRecords(dir, "recorded");
    if (this.recordMissing.has(dir) && !this.missingFolderPoll) {
      this.missingFolderPoll = setInterval(() => {
        for (const [missing, kind] of this.recordMissing) if (existsSync(missing)) this.recordFolderAppeared(missing, kind);
      }, MISSING_FOLDER_POLL_MS);
      this.missingFolderPoll.unref?.();
    }
  }

  /** Watches a record folder (each record reported alone) or a recorded files' folder (its *.jsonl as changed); a missing one is waited for. */
  private watchRecords(dir: string, kind: "records" | "recorded"): void {
    if (this.recordWatched.has(dir) || (kind === "recorded" && this.piDirsWatched.has(dir))) return;
    if (!existsSync(dir)) {
      this.recordMissing.set(dir, kind);
      return;
    }
    this.recordMissing.delete(dir);
    this.recordWatched.add(dir);
    const report = kind === "records" ? (path: string) => this.scheduleRecord(path) : (path: string) => this.schedule(path, "vscode", "recorded");
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), kind === "records" ? "*" : "*.jsonl"));
    this.disposables.push(watcher, watcher.onDidChange((uri) => report(uri.fsPath)), watcher.onDidCreate((uri) => report(uri.fsPath)), watcher.onDidDelete((uri) => report(uri.fsPath)));
    this.watchFolder(dir, (name) => {
      if (kind === "records") this.scheduleRecord(join(dir, name));
      else if (name.endsWith(".jsonl")) this.schedule(join(dir, name), "fs.watch", "recorded");
    });
  }

  /** A record folder or a recorded files' folder appeared: watched, and what is in it already reported (omp wrote it before the watch). */
  private recordFolderAppeared(dir: string, kind: "records" | "recorded"): void {
    this.log.debug(`omp's folder appeared: watching ${dir}`);
    this.watchRecords(dir, kind);
    for (const name of namesIn(dir)) {
      if (kind === "records") this.scheduleRecord(join(dir, name));
      else if (name.endsWith(".jsonl")) this.schedule(join(dir, name), "fs.watch", "recorded");
    }
  }

  private scheduleRecord(record: string): void {
    this.scheduleKey(`record:${record}`, () => this.events.recordChanged?.(record));
  }

  /** Folders appeared (pi's for a cwd, or its sessions folder): watched from now on, and the list looks again (files may be in them already). */
  private rewatch(appeared: readonly string[]): void {
    this.log.debug(`pi's folder appeared: watching ${appeared.join(", ")}`);
    this.watch(this.targets);
    this.events.listChanged();
  }

  /** Node's watcher on one folder (none when it does not exist yet: the missing-folder poll looks for it). */
  private watchFolder(dir: string, onName: (name: string, event: string) => void): void {
    try {
      const fsWatcher = watch(dir, { persistent: false }, (event, name) => {
        if (typeof name === "string") onName(name, event);
      });
      fsWatcher.on("error", (error) => this.log.debug(`fs.watch ${dir}: ${error.message}`));
      this.fsWatchers.push(fsWatcher);
    } catch (error) {
      this.log.debug(`fs.watch ${dir}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private hook(watcher: vscode.FileSystemWatcher): void {
    this.disposables.push(
      watcher,
      watcher.onDidChange((uri) => this.schedule(uri.fsPath, "vscode", "change")),
      watcher.onDidCreate((uri) => this.schedule(uri.fsPath, "vscode", "create")),
      watcher.onDidDelete((uri) => this.schedule(uri.fsPath, "vscode", "delete")),
    );
  }

  /** `recorded`: a file in a recorded files' folder, created, written or removed (the listener reads that file alone). */
  private schedule(path: string, source: WatchSource, kind: "change" | "create" | "delete" | "unknown" | "recorded"): void {
    this.eventCounts[source]++;
    if (kind === "create" || kind === "delete" || kind === "unknown") this.scheduleKey("list", () => this.events.listChanged());
    if (kind === "delete") this.delivered.delete(path);
    else this.scheduleKey(path, () => this.deliver(path));
  }

  private deliver(path: string): void {
    const state = fileState(path);
    if (state !== undefined && this.delivered.get(path) === state) {
      this.stats.duplicates++;
      return;
    }
    if (state === undefined) this.delivered.delete(path);
    else this.delivered.set(path, state);
    this.stats.delivered++;
    this.events.changed(path);
  }

  private scheduleKey(key: string, run: () => void): void {
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        run();
      }, DEBOUNCE_MS),
    );
  }

  private stop(): void {
    clearInterval(this.missingFolderPoll);
    this.missingFolderPoll = undefined;
    this.recordWatched.clear();
    this.recordMissing.clear();
    for (const d of this.disposables) d.dispose();
    for (const w of this.fsWatchers) w.close();
    this.disposables = [];
    this.fsWatchers = [];
  }

  dispose(): void {
    this.stop();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.delivered.clear();
  }
}

function subfolders(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, entry.name));
  } catch {
    return [];
  }
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function fileState(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return undefined;
  }
}
