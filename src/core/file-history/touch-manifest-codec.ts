// The touch manifest as stored: tuples instead of objects, each path once in
// a table the actions point into (the table is also every path the manifest
// names: a query for a file checks it without decoding the rest), paths
// inside the session's cwd written relative to it (`./src/x.ts`; real paths
// are absolute, `~/…` or `Root:rel`, never `./…`), and a call's actions once
// when they only differ by failing. decodeManifest validates everything:
// undefined when damaged.

import type { FileAction } from "../files-touched/actions";
import { manifestPaths, type CallOutcome, type ManifestSource, type SourceActions, type TouchManifest } from "./touch-manifest";

/** [op, path index] or ["M", from, to, into]. */
type StoredAction = [string, ...number[]];
type StoredActions = ["a", StoredAction[]] | ["u", StoredAction[]] | ["v", StoredAction[], StoredAction[], StoredAction[]];
/** The timestamp as epoch ms when that is exactly how it is written (ISO with ms, UTC), else as written. */
type StoredSource = [string, number | string | null, string, string | null, string | null, 0 | 1 | 2, StoredActions];

function storedTime(ts: string | undefined): number | string | null {
  if (ts === undefined) return null;
  const ms = Date.parse(ts);
  return Number.isFinite(ms) && new Date(ms).toISOString() === ts ? ms : ts;
}
export interface StoredManifest {
  c: string;
  /** Every path the actions name (cwd-relative where inside it), the `n` first those that can give letters. */
  p: string[];
  n: number;
  s: StoredSource[];
  o: [string, boolean][];
}

const OUTCOMES: readonly CallOutcome[] = ["none", "ok", "error"];

function sameActions(a: readonly FileAction[], b: readonly FileAction[]): boolean {
  return a === b || (a.length === b.length && JSON.stringify(a) === JSON.stringify(b));
}

export function encodeManifest(m: TouchManifest): StoredManifest {
  const prefix = m.cwd === "/" ? "/" : `${m.cwd}/`;
  const table: string[] = [];
  const indexes = new Map<string, number>();
  // The paths that can give letters first (manifestPaths), then those only known as directories.
  for (const p of manifestPaths(m)) path(p);
  const lettered = table.length;
  function path(p: string): number {
    let i = indexes.get(p);
    if (i === undefined) {
      i = table.length;
      indexes.set(p, i);
      table.push(p === m.cwd ? "." : p.startsWith(prefix) ? `./${p.slice(prefix.length)}` : p);
    }
    return i;
  }
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
  const sources = m.sources.map((s) => [s.entryId, storedTime(s.timestamp), s.tool, s.command ?? null, s.toolCallId ?? null, OUTCOMES.indexOf(s.outcome) as 0 | 1 | 2, actions(s.actions)] as StoredSource);
  return { c: m.cwd, p: table, n: lettered, s: sources, o: [...m.orphanResults] };
}

const isStr = (v: unknown): v is string => typeof v === "string";
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";

class Damaged extends Error {}

/** The absolute paths of a stored manifest's table; undefined when damaged. */
export function decodePaths(v: unknown): string[] | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const { c: cwd, p: table } = v as Record<string, unknown>;
  if (!isStr(cwd) || !Array.isArray(table) || !table.every(isStr)) return undefined;
  const prefix = cwd === "/" ? "/" : `${cwd}/`;
  return table.map((p) => (p === "." ? cwd : p.startsWith("./") ? prefix + p.slice(2) : p));
}

export function decodeManifest(v: unknown): TouchManifest | undefined {
  const table = decodePaths(v);
  if (!table) return undefined;
  const { c: cwd, s: sources, o: orphans } = v as Record<string, unknown>;
  if (!isStr(cwd) || !Array.isArray(sources) || !Array.isArray(orphans)) return undefined;
  const path = (i: unknown): string => {
    const p = typeof i === "number" ? table[i] : undefined;
    if (p === undefined) throw new Damaged();
    return p;
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
      if (!isStr(entryId) || !(strOrNull(timestamp) || (typeof timestamp === "number" && Number.isFinite(timestamp) && Math.abs(timestamp) <= 8.64e15)) || !isStr(tool) || !strOrNull(command) || !strOrNull(toolCallId) || (outcome !== 0 && outcome !== 1 && outcome !== 2)) throw new Damaged();
      return {
        entryId,
        ...(timestamp !== null ? { timestamp: typeof timestamp === "number" ? new Date(timestamp).toISOString() : timestamp } : {}),
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

/** A manifest as loaded from disk (decoded on first use; its path table can be read alone) or as computed. */
export class StoredTouchManifest {
  private decoded: TouchManifest | null | undefined;
  private pathSet: Set<string> | null | undefined;

  private constructor(private readonly raw: unknown) {}

  static fromDisk(raw: unknown): StoredTouchManifest {
    return new StoredTouchManifest(raw);
  }

  static of(manifest: TouchManifest): StoredTouchManifest {
    const stored = new StoredTouchManifest(undefined);
    stored.decoded = manifest;
    return stored;
  }

  /** The manifest; undefined when the stored one is damaged. */
  manifest(): TouchManifest | undefined {
    if (this.decoded === undefined) this.decoded = decodeManifest(this.raw) ?? null;
    return this.decoded ?? undefined;
  }

  /** The paths that can give letters (manifestPaths); undefined when damaged. */
  paths(): Set<string> | undefined {
    if (this.pathSet === undefined) {
      if (this.decoded) this.pathSet = manifestPaths(this.decoded);
      else {
        const table = decodePaths(this.raw);
        const lettered = (this.raw as { n?: unknown }).n;
        this.pathSet = table && typeof lettered === "number" && Number.isInteger(lettered) && lettered >= 0 && lettered <= table.length ? new Set(table.slice(0, lettered)) : null;
      }
    }
    return this.pathSet ?? undefined;
  }

  toJSON(): unknown {
    return this.decoded ? encodeManifest(this.decoded) : this.raw;
  }
}
