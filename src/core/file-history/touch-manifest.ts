// A session's file touches kept as what produced them: each tool call and `!`
// command, in file order, with its file actions. New lines extend it without
// looking at the old ones again (extendTouchManifest), and the touches are a
// replay of the stored actions through the ledger — no parsing (touchesOfManifest).
//
// A tool call's actions can depend on its result (read/write/edit count
// nothing when they failed, apply_patch needs a successful one), and results
// are paired by id over the whole file, the last one with an id winning: a
// result may come in a later append than its call, or replace an earlier
// result. So a call keeps its actions for each outcome (no result, ok, error)
// where they differ, and the outcome is changed when a result arrives.
//
// Sources that touch nothing whatever their result are not kept, except a
// call's id and outcome (another call may share its id).
//
// Entry timestamps: a source shows the timestamp of its entry, or of a later
// entry with the same id (ids are unique in a well-formed session).

import type { SessionEntry } from "../session/format/types";
import type { FileAction } from "../files-touched/actions";
import { analyzeBashCommand } from "../files-touched/analyze-bash";
import { commandOf, messageOf, toolCallOf, toolResultOf } from "../files-touched/collect";
import { FilesLedger } from "../files-touched/ledger";
import { displayPathOf, normalizeAbsolute, type PathContext } from "../files-touched/paths";
import { resolveToolPath, toolCallActions } from "../files-touched/tool-actions";
import type { FileTouch } from "./file-touch";

export type CallOutcome = "none" | "ok" | "error";

export type SourceActions = { all: FileAction[] } | { none: FileAction[]; ok: FileAction[]; error: FileAction[] };

export interface ManifestSource {
  entryId: string;
  timestamp?: string;
  /** The tool's name (`bashExecution` for a `!` command). */
  tool: string;
  command?: string;
  toolCallId?: string;
  /** The result the call has in the file so far (`none` for `!` commands and calls without an id). */
  outcome: CallOutcome;
  actions: SourceActions;
}

export interface TouchManifest {
  /** The cwd paths were resolved against. */
  cwd: string;
  sources: ManifestSource[];
  /** Results whose call is not in the file (yet): call id → is an error. */
  orphanResults: Map<string, boolean>;
}

export function emptyTouchManifest(cwd: string): TouchManifest {
  return { cwd, sources: [], orphanResults: new Map() };
}

export function actionsOf(source: ManifestSource): FileAction[] {
  return "all" in source.actions ? source.actions.all : source.actions[source.outcome];
}

function sameActions(a: readonly FileAction[], b: readonly FileAction[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

function callActions(call: NonNullable<ReturnType<typeof toolCallOf>>, ctx: PathContext): SourceActions {
  const none = toolCallActions(call, undefined, ctx).actions;
  const ok = toolCallActions(call, { isError: false }, ctx).actions;
  const error = toolCallActions(call, { isError: true }, ctx).actions;
  return sameActions(none, ok) && sameActions(none, error) ? { all: none } : { none, ok, error };
}

/** The tools whose successful result may name the file they touched (omp's `details.resolvedPath`). */
const RESOLVING_TOOLS = new Set(["read", "write", "edit", "multiedit"]);

/**
 * A read/write/edit call whose result reports the path the tool resolved: its
 * one touch on success is of that file (as toolCallActions counts it when the
 * result is at hand; here the result may come in a later append than the call).
 */
function retarget(source: ManifestSource, resolvedPath: string, ctx: PathContext): void {
  if (!("ok" in source.actions) || !RESOLVING_TOOLS.has(source.tool.toLowerCase())) return;
  const [only, ...more] = source.actions.ok;
  if (!only || more.length > 0 || only.kind !== "touch") return;
  const path = resolveToolPath(resolvedPath, ctx);
  if (path && path !== only.path) source.actions = { ...source.actions, ok: [{ ...only, path }] };
}

/** `manifest` extended by `entries` (the lines after those it was built from), in place. */
export function extendTouchManifest(manifest: TouchManifest, entries: readonly SessionEntry[]): TouchManifest {
  const ctx: PathContext = { sessionCwd: normalizeAbsolute(manifest.cwd) };
  const byCallId = new Map<string, ManifestSource[]>();
  const byEntryId = new Map<string, ManifestSource[]>();
  const add = (map: Map<string, ManifestSource[]>, key: string, source: ManifestSource) => {
    const list = map.get(key);
    if (list) list.push(source);
    else map.set(key, [source]);
  };
  const index = (source: ManifestSource) => {
    if (source.toolCallId !== undefined) add(byCallId, source.toolCallId, source);
    add(byEntryId, source.entryId, source);
  };
  for (const source of manifest.sources) index(source);
  // Every result of the new lines first: a call is paired with the last result with its id, wherever it is.
  const results = new Map<string, boolean>();
  const resolved = new Map<string, string>();
  for (const entry of entries) {
    const result = toolResultOf(entry);
    if (!result) continue;
    results.set(result.id, result.isError);
    if (result.resolvedPath && !result.isError) resolved.set(result.id, result.resolvedPath);
    else resolved.delete(result.id);
  }
  const outcomeOf = (id: string | undefined): CallOutcome => {
    if (id === undefined) return "none";
    const isError = results.has(id) ? results.get(id) : manifest.orphanResults.get(id);
    if (isError !== undefined) return isError ? "error" : "ok";
    return byCallId.get(id)?.[0]?.outcome ?? "none";
  };
  for (const entry of entries) {
    if (typeof entry.timestamp === "string") for (const earlier of byEntryId.get(entry.id) ?? []) earlier.timestamp = entry.timestamp;
    const message = messageOf(entry);
    if (!message) continue;
    const base = { entryId: entry.id, ...(typeof entry.timestamp === "string" ? { timestamp: entry.timestamp } : {}) };
    if (message.role === "assistant" && Array.isArray(message.content)) {
      for (const block of message.content) {
        const call = toolCallOf(block);
        if (!call) continue;
        const actions = callActions(call, ctx);
        const silent = "all" in actions && actions.all.length === 0;
        // A call that touches nothing whatever its result gives no touch: kept (bare) only to pair its id.
        if (silent && !call.id) continue;
        const command = silent ? undefined : commandOf(call.args);
        const source: ManifestSource = {
          ...(silent ? { entryId: "" } : base),
          tool: silent ? "" : call.name,
          ...(command !== undefined ? { command } : {}),
          ...(call.id ? { toolCallId: call.id } : {}),
          outcome: outcomeOf(call.id || undefined),
          actions,
        };
        manifest.sources.push(source);
        index(source);
      }
    } else if (message.role === "bashExecution" && typeof message.command === "string") {
      const actions = analyzeBashCommand(message.command, { cwd: ctx.sessionCwd }).actions;
      if (actions.length === 0) continue;
      const source: ManifestSource = { ...base, tool: "bashExecution", command: message.command, outcome: "none", actions: { all: actions } };
      manifest.sources.push(source);
      index(source);
    }
  }
  for (const [id, isError] of results) {
    const calls = byCallId.get(id);
    if (!calls) {
      manifest.orphanResults.set(id, isError);
      continue;
    }
    for (const call of calls) {
      call.outcome = isError ? "error" : "ok";
      const path = resolved.get(id);
      if (path) retarget(call, path, ctx);
    }
  }
  for (const id of [...manifest.orphanResults.keys()]) if (byCallId.has(id)) manifest.orphanResults.delete(id);
  return manifest;
}

export function buildTouchManifest(entries: readonly SessionEntry[], cwd: string): TouchManifest {
  return extendTouchManifest(emptyTouchManifest(cwd), entries);
}

/** Every letter every source gave every file, in session order (the stored actions replayed through the ledger). */
export function touchesOfManifest(manifest: TouchManifest): FileTouch[] {
  const ctx: PathContext = { sessionCwd: normalizeAbsolute(manifest.cwd) };
  const touches: FileTouch[] = [];
  let current: Omit<FileTouch, "path" | "displayPath" | "op"> | undefined;
  const ledger = new FilesLedger((path, op) => {
    if (current) touches.push({ ...current, path, displayPath: displayPathOf(path, ctx), op });
  });
  for (const source of manifest.sources) {
    current = {
      entryId: source.entryId,
      tool: source.tool,
      ...(source.timestamp !== undefined ? { timestamp: source.timestamp } : {}),
      ...(source.command !== undefined ? { command: source.command } : {}),
      ...(source.toolCallId !== undefined ? { toolCallId: source.toolCallId } : {}),
    };
    for (const action of actionsOf(source)) ledger.apply(action);
  }
  return touches;
}

/**
 * Every path an action that can give letters names: touched, moved from or
 * to, deleted as a tree (a `directory` action — mkdir, cd — only tells a
 * later move where a file lands, under a path that move names).
 */
export function manifestPaths(manifest: TouchManifest): Set<string> {
  const paths = new Set<string>();
  const add = (actions: readonly FileAction[]) => {
    for (const a of actions) {
      if (a.kind === "move") {
        paths.add(a.from);
        paths.add(a.to);
      } else if (a.kind !== "directory") paths.add(a.path);
    }
  };
  for (const source of manifest.sources) {
    if ("all" in source.actions) add(source.actions.all);
    else for (const outcome of ["none", "ok", "error"] as const) add(source.actions[outcome]);
  }
  return paths;
}

/**
 * False when the session cannot have touched `file`: the ledger only gives a
 * file letters through an action naming it or one of its directories (a move
 * or recursive delete of a directory reaches the files under it).
 */
export function mayTouchFile(paths: ReadonlySet<string>, file: string): boolean {
  for (let p = file; ; ) {
    if (paths.has(p)) return true;
    const slash = p.lastIndexOf("/");
    if (slash < 0) return false;
    if (slash === 0) return p !== "/" && paths.has("/");
    p = p.slice(0, slash);
  }
}
