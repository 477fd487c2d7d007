// Follows one session file as pi writes it, as `tail -f` follows a log: a
// change notification (fs.watch, with a polling fallback for file systems
// where it is silent) reads only the appended bytes into the same session and
// updates the live facts from the new entries; a rewrite is read again in full;
// a deletion ends the follow. One read at a time; bursts collapse into one.

import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import type { IndexSnapshots } from "../session/snapshot/index-snapshot.js";
import { LiveSessionFacts, type BranchFacts } from "./live-facts.js";
import { openSession, refreshSession, type LoadedSession } from "../session/open/open-session.js";
import { prepareAheadInSlices, type PreparingAhead } from "./prepare-ahead.js";
import type { ContextTokenRule } from "../tokens/context-token-rule.js";

export type FollowEvent =
  | {
      kind: "opened" | "appended" | "rewritten";
      facts: BranchFacts;
      session: LoadedSession;
      /** Process CPU time spent reading the change and updating the facts (ms). */
      cpuMs: number;
    }
  | { kind: "deleted" }
  | { kind: "error"; message: string };

export interface FollowOptions {
  onEvent(event: FollowEvent): void;
  /** How often to look at the file when no notification came (ms; default 1000). */
  pollMs?: number;
  /** The token rule, or the rule for the session as it is now (e.g. by its pi version; a change counts again from scratch). */
  rule?: ContextTokenRule | ((session: LoadedSession) => ContextTokenRule);
  /** Open with OpenOptions.skim (default true: following needs the index's fields, not every byte validated). */
  skim?: boolean;
  /** Open with OpenOptions.snapshots (index snapshots of big files). */
  snapshots?: IndexSnapshots;
}

export interface SessionFollower {
  /** Looks at the file now (what a notification does). */
  check(): Promise<void>;
  stop(): void;
  /** Settles when the follow ends (stop() or the file was deleted). */
  readonly done: Promise<void>;
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** Opens the session (throws naming the file when it cannot) and follows it until stop() or deletion. */
export async function followSession(path: string, options: FollowOptions): Promise<SessionFollower> {
  const started = process.cpuUsage();
  let lastStat = statKey(path);
  let session = await openSession(path, { skim: options.skim ?? true, snapshots: options.snapshots });
  const ruleOf = (s: LoadedSession): ContextTokenRule | undefined => (typeof options.rule === "function" ? options.rule(s) : options.rule);
  let facts = new LiveSessionFacts(session, ruleOf(session));

  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let watcher: FSWatcher | null = null;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    watcher?.close();
    clearInterval(timer);
    preparing?.run.cancel();
    finish();
  };

  // Between pi's writes, what a later one would read the whole branch for is built
  // ahead (pi 1.5's first context edit on a branch without a compaction).
  let preparing: { facts: LiveSessionFacts; run: PreparingAhead } | undefined;
  const prepareAhead = (): void => {
    if (stopped || preparing?.facts === facts || facts.preparedAhead) return;
    preparing?.run.cancel();
    const target = facts;
    const run = prepareAheadInSlices(target, { wanted: () => !stopped && facts === target });
    preparing = { facts: target, run };
    void run.done.then(() => {
      if (preparing?.run === run) preparing = undefined;
    });
  };

  const readChange = async (): Promise<void> => {
    const start = process.cpuUsage();
    let result;
    try {
      result = await refreshSession(session);
    } catch (error) {
      if (!existsSync(path)) {
        options.onEvent({ kind: "deleted" });
        stop();
      } else {
        options.onEvent({ kind: "error", message: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    if (result.change === "unchanged") return;
    session = result.session;
    // A file replaced by a rename is a new inode: watch that one.
    if (result.change === "rewritten") startWatching();
    const rule = ruleOf(session);
    if (rule !== undefined && rule !== facts.rule) facts = new LiveSessionFacts(session, rule);
    const current = facts.update(session);
    options.onEvent({ kind: result.change, facts: current, session, cpuMs: cpuSince(start) });
    prepareAhead();
  };

  const check = async (): Promise<void> => {
    if (stopped) return;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await readChange();
      } while (again && !stopped);
    })();
    try {
      await running;
    } finally {
      running = null;
    }
  };

  const startWatching = (): void => {
    watcher?.close();
    try {
      watcher = watch(path, { persistent: false }, () => void check());
      watcher.on("error", () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      watcher = null;
    }
  };
  startWatching();
  // The fallback: notifications can be missed (network file systems, editors that replace files).
  const timer = setInterval(() => {
    const key = statKey(path);
    if (key !== lastStat || key === "gone") {
      lastStat = key;
      void check();
    }
  }, options.pollMs ?? 1000);
  options.onEvent({ kind: "opened", facts: facts.current, session, cpuMs: cpuSince(started) });
  prepareAhead();
  // Changes made while the session was being opened.
  void check();

  return { check, stop, done };
}

function statKey(path: string): string {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return "gone";
  }
}
