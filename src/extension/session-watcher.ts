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
// started), and once there it is watched and the list looks again.
import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";

export interface WatchTargets {
  /** Folders outside the workspace holding *.jsonl sessions (pi's). */
  piDirs: string[];
  /** Globs inside the workspace folders. */
  include: string[];
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
}

const DEBOUNCE_MS = 50;
const MISSING_FOLDER_POLL_MS = 1000;

export class SessionWatcher implements vscode.Disposable {
  private disposables: vscode.Disposable[] = [];
  private fsWatchers: FSWatcher[] = [];
  private missingFolderPoll: NodeJS.Timeout | undefined;
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
    for (const dir of targets.piDirs) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), "*.jsonl"));
      this.hook(watcher);
      try {
        const fsWatcher = watch(dir, { persistent: false }, (event, name) => {
          if (typeof name === "string" && name.endsWith(".jsonl")) this.schedule(join(dir, name), "fs.watch", event === "change" ? "change" : "unknown");
        });
        fsWatcher.on("error", (error) => this.log.debug(`fs.watch ${dir}: ${error.message}`));
        this.fsWatchers.push(fsWatcher);
      } catch (error) {
        // The folder does not exist yet (no pi session for this folder so far).
        this.log.debug(`fs.watch ${dir}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      for (const include of targets.include) this.hook(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, include)));
    }
    const missing = targets.piDirs.filter((dir) => !existsSync(dir));
    if (missing.length > 0) {
      this.missingFolderPoll = setInterval(() => {
        if (!missing.some((dir) => existsSync(dir))) return;
        this.log.debug(`pi's folder appeared: watching ${missing.filter((dir) => existsSync(dir)).join(", ")}`);
        this.watch(targets);
        this.events.listChanged();
      }, MISSING_FOLDER_POLL_MS);
      this.missingFolderPoll.unref?.();
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

  private schedule(path: string, source: WatchSource, kind: "change" | "create" | "delete" | "unknown"): void {
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

function fileState(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return undefined;
  }
}
