// The node model of the Entries view, without vscode: a linear run is shown
// flat, the way pi's /tree does, up to FLAT_LIMIT rows; a longer one folds into
// turns, paged behind a "Load earlier…" row (entries-layout.ts). A branch
// point's children are "branch" nodes, one per child, each holding its run.
// Node keys are stable (`<sessionPath>#<entryId>`, `<sessionPath>#branch:<firstEntryId>`)
// and the nodes live in a cache that outlives the model, so a model built
// after a change hands VS Code the same objects (expansion, selection and
// targeted refreshes need that). Cycle-safe: entries in a parent cycle are in
// a group of their own. `advance` follows an append in place and says which
// nodes changed.
import type { EntryKind, EntryMeta } from "../../core/session/format/entry-meta";
import type { LoadedSession } from "../../core/session/open/open-session";
import { ENTRY_PAGE, pageWindow, PositionSlots, RunLayout, TURN_PAGE } from "./entries-layout";
import { ChildCounts } from "./child-counts";

export { ENTRY_FILTERS, entryKey, type ChangedNodes, type EntryFilter, type EntryNode, type NodeCache, type Paging } from "./entry-nodes";
import { entryKey, type ChangedNodes, type EntryFilter, type EntryNode, type NodeCache, type Paging } from "./entry-nodes";

function startsTurn(meta: EntryKind): boolean {
  return (meta.type === "message" && meta.role === "user") || meta.type === "compaction" || meta.type === "branch_summary";
}

export class EntriesModel {
  private readonly layouts = new Map<string, RunLayout>();
  /** The run each laid-out entry is in (a number into `runs`), by index position. */
  private readonly runs: RunLayout[] = [];
  private readonly runAt = new PositionSlots();
  private readonly runByTail = new Map<string, RunLayout>();
  /** Entries on the leaf's path, by index position; by id when the file repeats ids (positions and ids then differ). */
  private readonly onPath = new PositionSlots();
  private readonly pathIds: Set<string> | undefined;
  private readonly unreachable: ReadonlySet<string>;
  /** pi's getTree roots as built (the index would analyse the whole tree again after each append); advance() gives up on an append that moves them. */
  private readonly rootIds: readonly string[];
  /** The ids the orphans name as parent (an entry taking one adopts it: the tree's shape changes). */
  private readonly orphanParents: ReadonlySet<string>;
  /** Children per position, when they can stand for the index's childCount (child-counts.ts). */
  private counts: ChildCounts | undefined;
  private currentSession: LoadedSession;
  // What this model has seen, kept apart from the session: the core may extend its index in place.
  private seenSize: number;
  private seenLeaf: string | null;

  constructor(
    session: LoadedSession,
    readonly filter: EntryFilter,
    private readonly nodes: NodeCache = new Map(),
    private readonly paging: Paging = new Map(),
  ) {
    this.currentSession = session;
    const leaf = session.index.leafId;
    if (session.index.duplicateCount > 0) this.pathIds = new Set(leaf ? session.index.pathIds(leaf) : []);
    // pathPositions' walk (cycle-safe), marking positions instead of collecting them.
    else for (let i = session.index.size - 1; i >= 0 && this.onPath.get(i) < 0; i = session.index.parentPositionOf(i)) this.onPath.set(i, 1);
    this.unreachable = new Set(session.index.unreachable.map((m) => m.id));
    this.rootIds = session.index.roots.map((m) => m.id);
    this.orphanParents = new Set(session.index.orphans.map((m) => m.parentId!));
    this.counts = ChildCounts.of(session.index);
    this.seenSize = session.index.size;
    this.seenLeaf = leaf;
  }

  get session(): LoadedSession {
    return this.currentSession;
  }

  private get path(): string {
    return this.currentSession.path ?? "";
  }

  get leafId(): string | null {
    return this.currentSession.index.leafId;
  }

  get rootKey(): string {
    return `${this.path}#root`;
  }

  isOnLeafPath(id: string): boolean {
    return this.pathIds ? this.pathIds.has(id) : this.onPath.get(this.positionOf(id)) >= 0;
  }

  /** The index position of an entry id (the later entry for a repeated id, as lookups give), -1 when none. */
  private positionOf(id: string): number {
    return this.currentSession.index.positionOf(id);
  }

  /** The index's childCount(id), from the per-position counts when they apply (`at`: the id's position, when known). */
  childCount(id: string, at = this.counts ? this.positionOf(id) : -1): number {
    return (at >= 0 ? this.counts?.at(at) : undefined) ?? this.currentSession.index.childCount(id);
  }

  private runOf(position: number): RunLayout | undefined {
    const run = this.runAt.get(position);
    return run < 0 ? undefined : this.runs[run];
  }

  private addToRun(layout: RunLayout, id: string, position: number, kind: EntryKind & { id: string }): void {
    layout.push(id, position, this.visible(kind, position), startsTurn(kind));
    this.runAt.set(position, layout.slot);
  }

  private childIds(id: string): string[] {
    return this.currentSession.index.children(id).map((m) => m.id);
  }

  private remember<N extends EntryNode>(node: N): N {
    const known = this.nodes.get(node.key);
    if (known && known.kind === node.kind) {
      // Same object for VS Code; fields that can change (a branch's position, a page's count) updated in place.
      Object.assign(known, node);
      return known as N;
    }
    this.nodes.set(node.key, node);
    return node;
  }

  entryNode(entryId: string): EntryNode {
    const key = entryKey(this.path, entryId);
    const known = this.nodes.get(key);
    if (known) return known;
    return this.remember({ kind: "entry", key, sessionPath: this.path, entryId });
  }

  private branchNode(headId: string, branchPointId: string | null, position: number, count: number): EntryNode {
    return this.remember({ kind: "branch", key: `${this.path}#branch:${headId}`, sessionPath: this.path, headId, branchPointId, position, count });
  }

  private cycleNode(): EntryNode {
    return this.remember({ kind: "cycle", key: `${this.path}#cycle`, sessionPath: this.path });
  }

  private moreNode(containerKey: string, hidden: number, unit: "turn" | "entry"): EntryNode {
    return this.remember({ kind: "more", key: `${containerKey}#more`, sessionPath: this.path, containerKey, hidden, unit });
  }

  /** Whether a row is shown under the filter; branch points and the leaf always are. */
  visible(meta: EntryKind & { id: string }, position?: number): boolean {
    if (this.filter === "all") return true;
    if (meta.id === this.leafId || this.childCount(meta.id, position) > 1) return true;
    switch (this.filter) {
      case "user":
        return startsTurn(meta);
      case "no-tool-results":
        return !(meta.type === "message" && meta.role === "toolResult");
      case "labelled":
        return this.currentSession.index.labelOf(meta.id) !== undefined;
    }
  }

  /** The layout of the run starting at `headId` (built on first use). */
  private layout(headId: string): RunLayout {
    const known = this.layouts.get(headId);
    if (known) return known;
    const layout = new RunLayout(headId, this.runs.length);
    this.runs.push(layout);
    // linearRun's walk, without its copies (runs reach 100,000 entries): an entry already in a run ends it (a cycle).
    // By position, without making an EntryMeta per entry (they are kept: ~25 MB for a 100 MB session).
    const index = this.currentSession.index;
    let at = index.get(headId)?.index ?? -1;
    while (at >= 0 && !this.runOf(at)) {
      const id = index.idAt(at);
      this.addToRun(layout, id, at, { id, type: index.typeAt(at), role: index.roleAt(at) });
      at = this.onlyChildAt(at);
    }
    this.layouts.set(headId, layout);
    this.runByTail.set(layout.tail, layout);
    return layout;
  }

  /** The position of the one child of the entry at `at` (mostly the next line), -1 when it has none or several. */
  private onlyChildAt(at: number): number {
    const index = this.currentSession.index;
    if (this.childCount(index.idAt(at), at) !== 1) return -1;
    // One entry names this id as parent: when the next line's parent resolves here, that is it
    // (with repeated ids a child is looked up by its id, the later entry winning, as pi does).
    if (index.duplicateCount === 0 && at + 1 < index.size && index.parentPositionOf(at + 1) === at) return at + 1;
    const kids = index.children(index.idAt(at));
    return kids.length === 1 ? (index.get(kids[0]!.id)?.index ?? -1) : -1;
  }

  /** The rows of a run under its container: flat, or its turns paged. */
  private runRows(containerKey: string, layout: RunLayout): EntryNode[] {
    if (!layout.folded) return layout.rows.map((id) => this.entryNode(id));
    const { start, hidden } = pageWindow(layout.turnCount, this.paging.get(containerKey) ?? TURN_PAGE);
    const out: EntryNode[] = hidden > 0 ? [this.moreNode(containerKey, hidden, "turn")] : [];
    for (let turn = start; turn < layout.turnCount; turn++) out.push(this.entryNode(layout.turnHead(turn)));
    return out;
  }

  roots(): EntryNode[] {
    const roots = this.rootIds;
    const nodes: EntryNode[] =
      roots.length === 1 ? this.runRows(this.rootKey, this.layout(roots[0]!)) : roots.map((root, i) => this.branchNode(root, null, i + 1, roots.length));
    if (this.unreachable.size > 0) nodes.push(this.cycleNode());
    return nodes;
  }

  /** The turn an entry heads in a folded run, if it does. */
  private headedTurn(entryId: string): { layout: RunLayout; turn: number } | undefined {
    const position = this.positionOf(entryId);
    const layout = this.runOf(position);
    if (!layout?.folded) return undefined;
    const turn = layout.turnHeadedBy(position);
    return turn === undefined ? undefined : { layout, turn };
  }

  children(node: EntryNode): EntryNode[] {
    switch (node.kind) {
      case "entry": {
        if (this.unreachable.has(node.entryId)) return [];
        const kids = this.childCount(node.entryId) > 1 ? this.childIds(node.entryId) : [];
        if (kids.length > 1) return kids.map((id, i) => this.branchNode(id, node.entryId, i + 1, kids.length));
        const headed = this.headedTurn(node.entryId);
        if (!headed) return [];
        const members = headed.layout.turnMembers(headed.turn);
        const { start, hidden } = pageWindow(members.length, this.paging.get(node.key) ?? ENTRY_PAGE);
        const out: EntryNode[] = hidden > 0 ? [this.moreNode(node.key, hidden, "entry")] : [];
        for (let i = start; i < members.length; i++) out.push(this.entryNode(members[i]!));
        return out;
      }
      case "branch":
        return this.runRows(node.key, this.layout(node.headId));
      case "cycle":
        return this.currentSession.index.unreachable.map((m) => this.entryNode(m.id));
      case "more":
        return [];
    }
  }

  hasChildren(node: EntryNode): boolean {
    if (node.kind === "more") return false;
    if (node.kind !== "entry") return true;
    if (this.unreachable.has(node.entryId)) return false;
    if (this.childCount(node.entryId) > 1) return true;
    const headed = this.headedTurn(node.entryId);
    return headed !== undefined && headed.layout.turnMemberCount(headed.turn) > 0;
  }

  /** Shows one more page of the container a "Load earlier…" row belongs to; the container to refresh. */
  loadEarlier(node: Extract<EntryNode, { kind: "more" }>): EntryNode | undefined {
    const page = node.unit === "turn" ? TURN_PAGE : ENTRY_PAGE;
    this.paging.set(node.containerKey, (this.paging.get(node.containerKey) ?? page) + page);
    return this.containerNode(node.containerKey);
  }

  private containerNode(containerKey: string): EntryNode | undefined {
    return containerKey === this.rootKey ? undefined : this.nodes.get(containerKey);
  }

  /** The node whose children list a run's rows (a branch node, or undefined for the top level). */
  private runContainer(layout: RunLayout): EntryNode | undefined {
    const index = this.currentSession.index;
    const head = index.get(layout.headId);
    if (!head) return undefined;
    const parentMeta = head.parentId && head.parentId !== head.id ? index.get(head.parentId) : undefined;
    if (!parentMeta) {
      const roots = this.rootIds;
      if (roots.length === 1) return undefined;
      return this.branchNode(layout.headId, null, roots.indexOf(layout.headId) + 1, roots.length);
    }
    const siblings = this.childIds(parentMeta.id);
    return this.branchNode(layout.headId, parentMeta.id, siblings.indexOf(layout.headId) + 1, siblings.length);
  }

  private layoutOf(entryId: string): RunLayout {
    return this.runOf(this.positionOf(entryId)) ?? this.layout(this.runHead(entryId));
  }

  /** Makes `shown` cover the item at `index` of `total` (counted from the start). */
  private pageIn(containerKey: string, index: number, total: number, page: number): boolean {
    const shown = this.paging.get(containerKey) ?? page;
    const needed = total - index;
    if (needed <= shown) return false;
    this.paging.set(containerKey, Math.ceil(needed / page) * page);
    return true;
  }

  /**
   * The node an entry's row hangs under: a turn's head, its run's branch node
   * (or the top level), or the cycle group. Pages the row in when a "Load
   * earlier…" hides it (reveal() then finds it); `pagedIn` hears of the container.
   */
  parent(node: EntryNode, pagedIn?: (container: EntryNode | undefined) => void): EntryNode | undefined {
    if (node.kind === "cycle") return undefined;
    if (node.kind === "more") return this.containerNode(node.containerKey);
    if (node.kind === "branch") return node.branchPointId === null ? undefined : this.entryNode(node.branchPointId);
    if (this.unreachable.has(node.entryId)) return this.cycleNode();
    const layout = this.layoutOf(node.entryId);
    const container = this.runContainer(layout);
    const row = layout.rowOf(this.positionOf(node.entryId));
    if (!layout.folded || row === undefined) return container;
    const turn = layout.turnOfRow(row);
    const headRow = layout.turnStarts[turn]!;
    if (headRow !== row) {
      const head = this.entryNode(layout.rows[headRow]!);
      if (this.pageIn(head.key, row - headRow - 1, layout.turnMemberCount(turn), ENTRY_PAGE)) pagedIn?.(head);
      return head;
    }
    if (this.pageIn(container?.key ?? this.rootKey, turn, layout.turnCount, TURN_PAGE)) pagedIn?.(container);
    return container;
  }

  /** Whether a row with children starts expanded: a branch point on the leaf's path, the turn holding the leaf. */
  opensOnShow(entryId: string): boolean {
    if (!this.isOnLeafPath(entryId)) return false;
    const headed = this.headedTurn(entryId);
    if (!headed) return true;
    const leaf = this.leafId;
    const leafRow = leaf ? headed.layout.rowOf(this.positionOf(leaf)) : undefined;
    return leafRow !== undefined && headed.layout.turnOfRow(leafRow) === headed.turn;
  }

  /** The first entry of the linear run an entry is in. */
  runHead(entryId: string): string {
    const index = this.currentSession.index;
    const path = index.pathIds(entryId);
    let i = path.length - 1;
    while (i > 0 && this.childCount(path[i - 1]!) === 1) i--;
    return path[Math.max(0, i)] ?? entryId;
  }

  /** Whether the branch (from its head down) holds the current leaf. */
  branchHoldsLeaf(headId: string): boolean {
    return this.isOnLeafPath(headId);
  }

  /** Entries in the run below a branch head (for the branch row's description). */
  runLength(headId: string): number {
    return this.layout(headId).ids.length;
  }

  /**
   * Follows an append in place: `next` is this session with lines added at the
   * end. Returns the nodes whose rows changed, or null when the append changed
   * the tree's shape (a new branch point or root, a navigation elsewhere, a
   * label under the labelled filter) and the model must be built again.
   */
  advance(next: LoadedSession): ChangedNodes | null {
    if (next.index.size < this.seenSize || next.path !== this.currentSession.path) return null;
    const added: EntryMeta[] = [];
    for (let i = this.seenSize; i < next.index.size; i++) added.push(next.index.at(i));
    this.currentSession = next;
    if (added.length === 0) return [];
    // A repeated id (now or before: lookups by id and positions then differ), or a parent cycle (an
    // entry appended below it is unreachable too; files pi never writes): built again.
    if (this.pathIds || next.index.duplicateCount > 0 || this.unreachable.size > 0) return null;
    // An entry taking the id an orphan names adopts it (roots and parents move), an empty id ends the counts: built again.
    if (added.some((meta) => this.orphanParents.has(meta.id))) return null;
    if (this.counts && !this.counts.extend(next.index)) return null;
    const oldLeaf = this.seenLeaf;
    this.seenSize = next.index.size;
    this.seenLeaf = next.index.leafId;
    if (!this.extendLeafPath(oldLeaf, added.length)) return null;
    const changed = new Set<EntryNode | undefined>();
    if (oldLeaf) {
      changed.add(this.entryNode(oldLeaf));
      const oldMeta = next.index.get(oldLeaf);
      const layout = oldMeta && this.runOf(oldMeta.index);
      if (oldMeta && layout && !this.visible(oldMeta)) {
        if (!layout.popRow(oldLeaf, oldMeta.index)) return null;
        changed.add(this.runContainer(layout));
      }
    }
    for (const meta of added) {
      if (meta.type === "label") {
        if (this.filter === "labelled") return null;
        if (meta.targetId) changed.add(this.entryNode(meta.targetId));
      }
      const parentId = meta.parentId;
      // A new root, a missing or own parent, a second child (a new branch point): the shape changed.
      if (!parentId || parentId === meta.id || !next.index.has(parentId) || this.childCount(parentId) !== 1) return null;
      // A parent appended after its child (the child was an orphan when it came): a cycle or an adoption.
      if (next.index.parentPositionOf(meta.index) > meta.index) return null;
      const layout = this.runByTail.get(parentId);
      // A run nobody has asked for yet is built whole when it is.
      if (!layout) continue;
      const rowsBefore = layout.rows.length;
      const turnsBefore = layout.turnCount;
      const foldedBefore = layout.folded;
      this.addToRun(layout, meta.id, meta.index, meta);
      this.runByTail.delete(parentId);
      this.runByTail.set(meta.id, layout);
      if (layout.rows.length === rowsBefore) continue;
      if (!layout.folded || !foldedBefore || layout.turnCount !== turnsBefore) changed.add(this.runContainer(layout));
      else changed.add(this.entryNode(layout.turnHead(layout.turnCount - 1)));
    }
    return [...changed];
  }

  /** Adds the appended entries to the leaf's path; false when the new leaf does not continue the old one. */
  private extendLeafPath(oldLeaf: string | null, addedCount: number): boolean {
    const index = this.currentSession.index;
    if (index.leafId === oldLeaf) return true;
    const chain: number[] = [];
    let at = index.size - 1;
    while (at >= 0 && this.onPath.get(at) < 0 && chain.length <= addedCount) {
      chain.push(at);
      at = index.parentPositionOf(at);
    }
    if ((at >= 0 ? index.idAt(at) : null) !== oldLeaf) return false;
    for (const added of chain) this.onPath.set(added, 1);
    return true;
  }
}
