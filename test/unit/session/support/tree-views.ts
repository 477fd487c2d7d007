// The same session seen by pi's SessionManager (the oracle) and by our reader,
// reduced to comparable shapes. Entries are keyed by position in file order
// (pi's getEntries() index, our meta.index) so that version 1 files, whose ids
// pi makes up at random, compare too.

import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import type { LoadedSession } from "../../../../src/core/session/open/open-session.js";

export interface TreeShape {
  pos: number;
  children: TreeShape[];
}

export interface SessionView {
  count: number;
  ids: string[];
  leafPos: number | null;
  tree: TreeShape[];
  /** [position of the labelled entry, label], sorted by position. */
  labels: [number, string][];
  name: string | undefined;
  /** parentId of each entry as a position (null for none, -1 for an id not in the file). */
  parents: (number | null)[];
  /** For compaction entries: [position, position of firstKeptEntryId or -1]. */
  firstKept: [number, number][];
}

interface PiTreeNode {
  entry: { id: string };
  children: PiTreeNode[];
  label?: string;
}

interface PiEntry {
  id: string;
  parentId: string | null;
  type: string;
  firstKeptEntryId?: string;
}

function shapeOf<N>(roots: readonly N[], pos: (n: N) => number, kids: (n: N) => readonly N[]): TreeShape[] {
  // Iterative, like pi's getTree, so deep chains do not overflow the stack.
  const out: TreeShape[] = roots.map((r) => ({ pos: pos(r), children: [] }));
  const stack: [N, TreeShape][] = roots.map((r, i) => [r, out[i]!]);
  while (stack.length > 0) {
    const [node, shape] = stack.pop()!;
    for (const k of kids(node)) {
      const child: TreeShape = { pos: pos(k), children: [] };
      shape.children.push(child);
      stack.push([k, child]);
    }
  }
  return out;
}

function viewOfEntries(entries: readonly PiEntry[]): Pick<SessionView, "count" | "ids" | "parents" | "firstKept"> {
  const posById = new Map<string, number>();
  entries.forEach((e, i) => posById.set(e.id, i));
  const at = (id: string | null | undefined): number | null => (id == null ? null : (posById.get(id) ?? -1));
  return {
    count: entries.length,
    ids: entries.map((e) => e.id),
    parents: entries.map((e) => at(e.parentId)),
    firstKept: entries.flatMap((e, i) => (e.type === "compaction" ? [[i, at(e.firstKeptEntryId) ?? -1] as [number, number]] : [])),
  };
}

/** pi's view of a file, read from a copy (pi rewrites v1/v2 and header-less files when it opens them). */
export function piView(path: string): SessionView {
  const dir = mkdtempSync(join(tmpdir(), "pi-view-"));
  try {
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    const sm = SessionManager.open(copy, dir);
    const entries = sm.getEntries() as unknown as PiEntry[];
    const base = viewOfEntries(entries);
    const posById = new Map(base.ids.map((id, i) => [id, i]));
    const pos = (n: PiTreeNode): number => posById.get(n.entry.id)!;
    const roots = sm.getTree() as unknown as PiTreeNode[];
    const labels: [number, string][] = [];
    for (const [i, id] of base.ids.entries()) {
      const label = sm.getLabel(id);
      if (label !== undefined) labels.push([i, label]);
    }
    const leaf = sm.getLeafId();
    return {
      ...base,
      leafPos: leaf === null ? null : posById.get(leaf)!,
      tree: shapeOf(roots, pos, (n) => n.children),
      labels,
      name: sm.getSessionName(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Our reader's view of the same file. */
export function ourView(session: LoadedSession): SessionView {
  const index = session.index;
  const base = viewOfEntries(session.entries() as unknown as PiEntry[]);
  const metas = index.entries;
  const labels: [number, string][] = [];
  for (const m of metas) {
    const label = index.labelOf(m.id);
    if (label !== undefined) labels.push([m.index, label]);
  }
  const leaf = index.leafId;
  return {
    ...base,
    leafPos: leaf === null ? null : index.get(leaf)!.index,
    tree: shapeOf(index.roots, (m) => m.index, (m) => index.children(m.id)),
    labels,
    name: index.sessionName,
  };
}
