// The node model of the Entries view, without vscode: long linear runs are
// shown flat, the way pi's /tree does; a branch point's children are "branch"
// nodes, one per child, each listing its linear run as siblings. Node keys are
// stable (`<sessionPath>#<entryId>`, `<sessionPath>#branch:<firstEntryId>`) so
// expansion survives a refresh. Cycle-safe: entries in a parent cycle are shown
// in a group of their own.
import type { EntryMeta } from "../../core/session/entry-meta";
import type { LoadedSession } from "../../core/session/open-session";
import { linearRun } from "../../core/tree/segments";

export type EntryFilter = "all" | "user" | "no-tool-results" | "labelled";

export const ENTRY_FILTERS: readonly { id: EntryFilter; label: string; detail: string }[] = [
  { id: "all", label: "All entries", detail: "Every entry of the session" },
  { id: "user", label: "User messages only", detail: "User messages, compactions and branch summaries" },
  { id: "no-tool-results", label: "No tool results", detail: "Hide tool results" },
  { id: "labelled", label: "Labelled entries", detail: "Entries with a label" },
];

export type EntryNode =
  | { kind: "entry"; key: string; sessionPath: string; entryId: string }
  | { kind: "branch"; key: string; sessionPath: string; headId: string; branchPointId: string | null; position: number; count: number }
  | { kind: "cycle"; key: string; sessionPath: string };

export function entryKey(sessionPath: string, entryId: string): string {
  return `${sessionPath}#${entryId}`;
}

/** Builds nodes for one session; the same key always gives the same object (reveal needs that). */
export class EntriesModel {
  private readonly nodes = new Map<string, EntryNode>();
  private readonly leafPath: ReadonlySet<string>;
  private readonly unreachable: ReadonlySet<string>;

  constructor(
    readonly session: LoadedSession,
    readonly filter: EntryFilter,
  ) {
    const leaf = session.index.leafId;
    this.leafPath = new Set(leaf ? session.index.pathIds(leaf) : []);
    this.unreachable = new Set(session.index.unreachable.map((m) => m.id));
  }

  private get path(): string {
    return this.session.path ?? "";
  }

  get leafId(): string | null {
    return this.session.index.leafId;
  }

  isOnLeafPath(id: string): boolean {
    return this.leafPath.has(id);
  }

  private childIds(id: string): string[] {
    return this.session.index.children(id).map((m) => m.id);
  }

  private remember<N extends EntryNode>(node: N): N {
    const known = this.nodes.get(node.key);
    if (known) return known as N;
    this.nodes.set(node.key, node);
    return node;
  }

  entryNode(entryId: string): EntryNode {
    return this.remember({ kind: "entry", key: entryKey(this.path, entryId), sessionPath: this.path, entryId });
  }

  private branchNode(headId: string, branchPointId: string | null, position: number, count: number): EntryNode {
    return this.remember({ kind: "branch", key: `${this.path}#branch:${headId}`, sessionPath: this.path, headId, branchPointId, position, count });
  }

  /** Whether a row is shown under the filter; branch points and the leaf always are. */
  visible(meta: EntryMeta): boolean {
    if (this.filter === "all") return true;
    if (meta.id === this.leafId || this.session.index.childCount(meta.id) > 1) return true;
    switch (this.filter) {
      case "user":
        return (meta.type === "message" && meta.role === "user") || meta.type === "compaction" || meta.type === "branch_summary";
      case "no-tool-results":
        return !(meta.type === "message" && meta.role === "toolResult");
      case "labelled":
        return this.session.index.labelOf(meta.id) !== undefined;
    }
  }

  private runNodes(headId: string): EntryNode[] {
    const out: EntryNode[] = [];
    for (const id of linearRun({ childIds: (id) => this.childIds(id) }, headId)) {
      const meta = this.session.index.get(id);
      if (meta && this.visible(meta)) out.push(this.entryNode(id));
    }
    return out;
  }

  roots(): EntryNode[] {
    const roots = this.session.index.roots;
    const nodes: EntryNode[] =
      roots.length === 1 ? this.runNodes(roots[0]!.id) : roots.map((root, i) => this.branchNode(root.id, null, i + 1, roots.length));
    if (this.unreachable.size > 0) nodes.push(this.remember({ kind: "cycle", key: `${this.path}#cycle`, sessionPath: this.path }));
    return nodes;
  }

  children(node: EntryNode): EntryNode[] {
    switch (node.kind) {
      case "entry": {
        if (this.unreachable.has(node.entryId)) return [];
        const kids = this.childIds(node.entryId);
        return kids.length > 1 ? kids.map((id, i) => this.branchNode(id, node.entryId, i + 1, kids.length)) : [];
      }
      case "branch":
        return this.runNodes(node.headId);
      case "cycle":
        return this.session.index.unreachable.map((m) => this.entryNode(m.id));
    }
  }

  hasChildren(node: EntryNode): boolean {
    if (node.kind !== "entry") return true;
    return !this.unreachable.has(node.entryId) && this.session.index.childCount(node.entryId) > 1;
  }

  /** The node an entry's row hangs under: its run's branch node (or the top level), or the cycle group. */
  parent(node: EntryNode): EntryNode | undefined {
    if (node.kind === "cycle") return undefined;
    if (node.kind === "branch") return node.branchPointId === null ? undefined : this.entryNode(node.branchPointId);
    if (this.unreachable.has(node.entryId)) return this.remember({ kind: "cycle", key: `${this.path}#cycle`, sessionPath: this.path });
    const headId = this.runHead(node.entryId);
    const head = this.session.index.get(headId);
    if (!head) return undefined;
    const parentMeta = head.parentId && head.parentId !== head.id ? this.session.index.get(head.parentId) : undefined;
    if (!parentMeta) {
      const roots = this.session.index.roots;
      if (roots.length === 1) return undefined;
      return this.branchNode(headId, null, roots.findIndex((r) => r.id === headId) + 1, roots.length);
    }
    const siblings = this.childIds(parentMeta.id);
    return this.branchNode(headId, parentMeta.id, siblings.indexOf(headId) + 1, siblings.length);
  }

  /** The first entry of the linear run an entry is in. */
  runHead(entryId: string): string {
    const path = this.session.index.pathIds(entryId);
    let i = path.length - 1;
    while (i > 0 && this.session.index.childCount(path[i - 1]!) === 1) i--;
    return path[Math.max(0, i)] ?? entryId;
  }

  /** Whether the branch (from its head down) holds the current leaf. */
  branchHoldsLeaf(headId: string): boolean {
    return this.leafPath.has(headId);
  }

  /** Entries in the run below a branch head (for the branch row's description). */
  runLength(headId: string): number {
    return linearRun({ childIds: (id) => this.childIds(id) }, headId).length;
  }
}
