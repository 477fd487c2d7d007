// The touch manifest as stored: tuples instead of objects, paths inside the
// session's cwd written relative to it (`./src/x.ts`; real paths are
// absolute, `~/…` or `Root:rel`, never `./…`), and a call's actions once when
// they only differ by failing. A 5,000-session store is a third of the size
// of plain JSON. decodeManifest validates everything: undefined when damaged.

import type { FileAction } from "../files-touched/actions";
import type { CallOutcome, ManifestSource, SourceActions, TouchManifest } from "./touch-manifest";

type StoredAction = [string, ...unknown[]];
type StoredActions = ["a", StoredAction[]] | ["u", StoredAction[]] | ["v", StoredAction[], StoredAction[], StoredAction[]];
type StoredSource = [string, string | null, string, string | null, string | null, 0 | 1 | 2, StoredActions];
export interface StoredManifest {
  c: string;
  s: StoredSource[];
  o: [string, boolean][];
}

const OUTCOMES: readonly CallOutcome[] = ["none", "ok", "error"];

function sameActions(a: readonly FileAction[], b: readonly FileAction[]): boolean {
  return a === b || (a.length === b.length && JSON.stringify(a) === JSON.stringify(b));
}

export function encodeManifest(m: TouchManifest): StoredManifest {
  const prefix = m.cwd === "/" ? "/" : `${m.cwd}/`;
  const path = (p: string): string => (p === m.cwd ? "." : p.startsWith(prefix) ? `./${p.slice(prefix.length)}` : p);
  const action = (a: FileAction): StoredAction => {
    switch (a.kind) {
      case "touch":
        return [a.op, path(a.path)];
      case "move":
        return ["M", path(a.from), path(a.to), a.into === "maybe" ? 2 : a.into ? 1 : 0];
      case "delete-tree":
        return ["T", path(a.path)];
      case "directory":
        return ["d", path(a.path)];
    }
  };
  const actions = (s: SourceActions): StoredActions => {
    if ("all" in s) return ["a", s.all.map(action)];
    if (sameActions(s.none, s.ok) && s.error.length === 0) return ["u", s.ok.map(action)];
    return ["v", s.none.map(action), s.ok.map(action), s.error.map(action)];
  };
  return {
    c: m.cwd,
    s: m.sources.map((s) => [s.entryId, s.timestamp ?? null, s.tool, s.command ?? null, s.toolCallId ?? null, OUTCOMES.indexOf(s.outcome) as 0 | 1 | 2, actions(s.actions)]),
    o: [...m.orphanResults],
  };
}

const isStr = (v: unknown): v is string => typeof v === "string";
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";

class Damaged extends Error {}

export function decodeManifest(v: unknown): TouchManifest | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const { c: cwd, s: sources, o: orphans } = v as Record<string, unknown>;
  if (!isStr(cwd) || !Array.isArray(sources) || !Array.isArray(orphans)) return undefined;
  const prefix = cwd === "/" ? "/" : `${cwd}/`;
  const path = (p: unknown): string => {
    if (!isStr(p)) throw new Damaged();
    return p === "." ? cwd : p.startsWith("./") ? prefix + p.slice(2) : p;
  };
  const action = (a: unknown): FileAction => {
    if (!Array.isArray(a)) throw new Damaged();
    const [kind, x, y, into] = a as unknown[];
    switch (kind) {
      case "R":
      case "W":
      case "E":
      case "D":
        return { kind: "touch", op: kind, path: path(x) };
      case "M":
        if (into !== 0 && into !== 1 && into !== 2) throw new Damaged();
        return { kind: "move", from: path(x), to: path(y), into: into === 2 ? "maybe" : into === 1 };
      case "T":
        return { kind: "delete-tree", path: path(x) };
      case "d":
        return { kind: "directory", path: path(x) };
      default:
        throw new Damaged();
    }
  };
  const list = (l: unknown): FileAction[] => {
    if (!Array.isArray(l)) throw new Damaged();
    return l.map(action);
  };
  const actions = (s: unknown): SourceActions => {
    if (!Array.isArray(s)) throw new Damaged();
    if (s[0] === "a" && s.length === 2) return { all: list(s[1]) };
    if (s[0] === "u" && s.length === 2) {
      const ok = list(s[1]);
      return { none: ok, ok, error: [] };
    }
    if (s[0] === "v" && s.length === 4) return { none: list(s[1]), ok: list(s[2]), error: list(s[3]) };
    throw new Damaged();
  };
  try {
    const decoded: ManifestSource[] = sources.map((s: unknown) => {
      if (!Array.isArray(s) || s.length !== 7) throw new Damaged();
      const [entryId, timestamp, tool, command, toolCallId, outcome, stored] = s as unknown[];
      if (!isStr(entryId) || !strOrNull(timestamp) || !isStr(tool) || !strOrNull(command) || !strOrNull(toolCallId) || (outcome !== 0 && outcome !== 1 && outcome !== 2)) throw new Damaged();
      return {
        entryId,
        ...(timestamp !== null ? { timestamp } : {}),
        tool,
        ...(command !== null ? { command } : {}),
        ...(toolCallId !== null ? { toolCallId } : {}),
        outcome: OUTCOMES[outcome]!,
        actions: actions(stored),
      };
    });
    const orphanResults = new Map<string, boolean>();
    for (const pair of orphans as unknown[]) {
      if (!Array.isArray(pair) || pair.length !== 2 || !isStr(pair[0]) || typeof pair[1] !== "boolean") return undefined;
      orphanResults.set(pair[0], pair[1]);
    }
    return { cwd, sources: decoded, orphanResults };
  } catch (error) {
    if (error instanceof Damaged) return undefined;
    throw error;
  }
}
