// Forking without pi: a NEW session file holding the path root→entry, as pi's
// SessionManager.createBranchedSession writes it (/fork, /clone = the whole
// current branch). The source file is only read. What is written is pi 1.5.2's
// form, which pi 0.73.1 loads with the same result:
// - header {type, version 3, id (UUID v7), timestamp, cwd, parentSession: the source};
// - the path's entries without its label entries, re-chained (each entry's
//   parentId is the entry before it; 0.73 kept the old parentIds, leaving an
//   entry whose parent was a label dangling), a compaction's firstKeptEntryId
//   that named a label moved to the next kept entry;
// - the labels (pi's resolved label map, in its order) of the path's entries,
//   as new label entries chained after the last one, with their original times;
// - the file name `<time with : and . as ->_<id>.jsonl` in pi's folder for the cwd,
//   created exclusively ("wx", as pi 1.5), never overwriting anything.
// pi writes the file only once the branch holds a conversation; pi 0.73 needs an
// assistant message for it (resuming a file without one writes its header twice),
// so a branch without an assistant message is refused.
// An omp session forks the way omp's createBranchedSession writes one: its
// title slot first (the source's title), a header with `title`/`titleSource`,
// the labels' entries dated now, in omp's folder for the cwd under omp's root.
// What differs is the agent's `forkWriter` (agent/); the folder is where the
// agent's root keeps the cwd's new sessions (discovery/agent-roots.ts).

import { randomUUID } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { SessionChangedError } from "../session/append/append.js";
import { checkParentChain } from "../session/append/append.js";
import { agentRoot, sessionDirForCwd } from "../discovery/agent-roots.js";
import { compareFingerprint } from "../session/bytes/fingerprint.js";
import type { LoadedSession } from "../session/open/open-session.js";
import { recordedCwd } from "../session/open/session-info.js";
import { newSessionId, sessionFileName } from "../session/format/session-id.js";
import type { SessionEntry, SessionHeader } from "../session/format/types.js";
import { requireEntry, RunInputError, writerAgent, type AgentOption } from "./run-common.js";
import { writerSemantics, type ForkSource, type WriterRefusal } from "../agent/index.js";

export interface ForkOptions extends AgentOption {
  /** omp's agent dir (an omp session's fork goes to its sessions folder); default omp's own, from the environment. */
  ompAgentDir?: string;
  session: LoadedSession;
  /** The entry the new session ends at; default the source's leaf (pi's /clone). */
  atId?: string;
  /** pi's agent dir: the new file goes to `<agentDir>/sessions/<cwd folder>/`. */
  agentDir: string;
  /** The new session's cwd; default the one the source records. */
  cwd?: string;
  /** Another folder for the new file (pi's --session-dir). */
  sessionDir?: string;
  dryRun?: boolean;
  now?: () => Date;
  /** Short ids for the label entries (tests); default 8 hex digits of a random UUID, as pi. */
  newId?: () => string;
}

export interface ForkResult {
  written: boolean;
  /** The new session file. */
  path: string;
  header: SessionHeader;
  /** omp's title slot line (an omp fork), else undefined. */
  titleSlot?: string;
  /** The entries of the new file (header excluded), as written. */
  entries: Record<string, unknown>[];
  /** The entry the fork ends at (the new file's last non-label entry). */
  atId: string;
  /** Where pi resumes the new file: its last entry. */
  leafId: string;
}

type Entry = Record<string, unknown> & { id: string; type: string; parentId: string | null };

/** The path without label entries, re-chained as pi 1.5's createBranchedSession does. */
function chainWithoutLabels(path: readonly SessionEntry[]): Entry[] {
  const kept: Entry[] = [];
  const replacementByLabelId = new Map<string, string>();
  const pendingLabelIds: string[] = [];
  let parentId: string | null = null;
  for (const entry of path as unknown as Entry[]) {
    if (entry.type === "label") {
      pendingLabelIds.push(entry.id);
      continue;
    }
    for (const labelId of pendingLabelIds) replacementByLabelId.set(labelId, entry.id);
    pendingLabelIds.length = 0;
    if (entry.type === "compaction") {
      const firstKept = entry.firstKeptEntryId as string;
      kept.push({ ...entry, parentId, firstKeptEntryId: firstKept === entry.id ? entry.id : (replacementByLabelId.get(firstKept) ?? firstKept) });
    } else {
      kept.push({ ...entry, parentId });
    }
    parentId = entry.id;
  }
  return kept;
}

/** pi's labelsById with labelTimestampsById: every label entry of the file in order; a truthy label sets, anything else deletes. */
function resolvedLabels(session: LoadedSession): Map<string, { label: unknown; timestamp: unknown }> {
  const labels = new Map<string, { label: unknown; timestamp: unknown }>();
  for (const meta of session.index.entries) {
    if (meta.type !== "label") continue;
    const entry = session.entryAt(meta) as unknown as { targetId?: unknown; label?: unknown; timestamp?: unknown };
    const targetId = entry.targetId as string;
    if (entry.label) labels.set(targetId, { label: entry.label, timestamp: entry.timestamp });
    else labels.delete(targetId);
  }
  return labels;
}

function uniqueId(taken: Set<string>, newId: () => string): string {
  for (let i = 0; i < 100; i++) {
    const id = newId();
    if (!taken.has(id)) return id;
  }
  return randomUUID();
}

/** The new file's header and entries, and where it goes; writes nothing. */
export function planFork(options: ForkOptions): { path: string; header: SessionHeader; entries: Entry[]; atId: string; titleSlot?: string } {
  const { session } = options;
  const source = session.path;
  if (source === undefined) throw new RunInputError("not-a-file", "the session was not read from a file; nothing to fork");
  if (!session.header || session.headerMissing) throw new RunInputError("missing-header", `${source}:1: cannot fork: the first line is not a session header`);
  // pi 0.73 and 1.5 fork alike (pi 1.5's form, which 0.73 loads the same).
  const semantics = writerSemantics(writerAgent(session, options), "0.73");
  const writer = semantics.forkWriter;
  const forkSource: ForkSource = { path: source, titleSlot: session.titleSlot, header: session.header };
  refuse(writer.refuseSource(forkSource));
  const atId = options.atId ?? session.index.leafId;
  if (atId === null) throw new RunInputError("empty-session", `${source}: cannot fork: the session has no entries`);
  requireEntry(session, atId, "fork point");
  checkParentChain(session, atId);
  const path = session.pathTo(atId);
  refuse(writer.refuseBranch(forkSource, atId, path));
  const cwdRaw = options.cwd ?? recordedCwd(session);
  if (cwdRaw === undefined) throw new RunInputError("no-cwd", `${source}: the session header records no cwd; say which directory the new session belongs to`);
  const cwd = resolve(cwdRaw);
  const now = (options.now ?? (() => new Date()))();
  const timestamp = now.toISOString();
  const id = newSessionId(now);
  const header = writer.header({ id, timestamp, cwd, parentSession: resolve(source) }, forkSource);

  const entries = chainWithoutLabels(path);
  const pathEntryIds = new Set(entries.map((e) => e.id));
  let parentId: string | null = entries.at(-1)?.id ?? null;
  const labelEntries: Entry[] = [];
  for (const [targetId, { label, timestamp: labelTimestamp }] of resolvedLabels(session)) {
    if (!pathEntryIds.has(targetId)) continue;
    const labelId = uniqueId(pathEntryIds, options.newId ?? (() => randomUUID().slice(0, 8)));
    pathEntryIds.add(labelId);
    labelEntries.push({ type: "label", id: labelId, parentId, timestamp: writer.labelTimestamp(labelTimestamp, timestamp), targetId, label });
    parentId = labelId;
  }
  const agentDir = semantics.agentDir({ pi: { agentDir: options.agentDir }, omp: { agentDir: options.ompAgentDir } });
  const dir = options.sessionDir ?? sessionDirForCwd(agentRoot(semantics.agent.agent, agentDir), cwd);
  const titleSlot = writer.titleSlot(forkSource, timestamp);
  return { path: join(dir, sessionFileName(timestamp, id)), header, entries: [...entries, ...labelEntries], atId, ...(titleSlot ? { titleSlot } : {}) };
}

function refuse(refusal: WriterRefusal | undefined): void {
  if (refusal) throw new RunInputError(refusal.code, refusal.message);
}

/** Writes the fork as a new file (exclusive create, one write); on any error no new file is left. */
export function forkSession(options: ForkOptions): ForkResult {
  const plan = planFork(options);
  const source = options.session.path!;
  // The entries came from the source's bytes as read; a rewritten source may have changed under them.
  if (compareFingerprint(source, options.session.fingerprint) === "rewritten") throw new SessionChangedError(source, "it was rewritten while being forked");
  const text = [plan.header, ...plan.entries].map((e) => `${JSON.stringify(e)}\n`).join("");
  const written = text.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  const result = { path: plan.path, header: plan.header, entries: written.slice(1), atId: plan.atId, leafId: plan.entries.at(-1)!.id, ...(plan.titleSlot ? { titleSlot: plan.titleSlot } : {}) };
  if (options.dryRun) return { written: false, ...result };
  writeNewFile(plan.path, (plan.titleSlot ?? "") + text);
  return { written: true, ...result };
}

function writeNewFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "wx");
  let open = true;
  try {
    const bytes = Buffer.from(text, "utf8");
    const n = writeSync(fd, bytes, 0, bytes.length);
    if (n !== bytes.length) throw new Error(`short write: ${n} of ${bytes.length} bytes`);
    fsyncSync(fd);
    open = false;
    closeSync(fd);
  } catch (error) {
    try {
      if (open) closeSync(fd);
      unlinkSync(path);
    } catch {
      // Reported below with the write error.
    }
    throw new Error(`${path}: writing the new session failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
