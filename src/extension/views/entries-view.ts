// The Entries view: the tree of the selected session's entries (see
// entries-model.ts for the node model), the current leaf marked, labels,
// compactions and branch summaries as distinct rows, a filter shown in the
// view's description, and reveal() through getParent.
import * as vscode from "vscode";
import { contextEditsByTarget, type ContextEditOfTarget } from "../../core/session/index/context-edit-targets";
import type { LoadedSession } from "../../core/session/open/open-session";
import { showBidiControls } from "../../core/text/bidi-controls";
import { entryKind, entryPreview } from "../../core/tree/preview";
import type { SessionStore } from "../session-store";
import { EntriesModel, ENTRY_FILTERS, type EntryFilter, type EntryNode, type NodeCache, type Paging } from "./entries-model";
import { markdownText } from "../markdown-text";
import { entryIcon } from "./entry-icons";
import { fileSize, TAIL_FIRST_BYTES, tailSession } from "./tail-session";
import { counted } from "../../core/text/counted";

export const ENTRIES_VIEW_ID = "piSessions.entries";

export function isEntryNode(value: unknown): value is Extract<EntryNode, { kind: "entry" }> {
  return typeof value === "object" && value !== null && (value as EntryNode).kind === "entry" && typeof (value as { entryId?: unknown }).entryId === "string";
}

/** Bursts of pi writes (an assistant answer and its tool results) reach the view as one refresh. */
const FIRE_DEBOUNCE_MS = 30;
/**
 * A big session shows its file's tail at once and is indexed this long after
 * (if it is still the one shown): its first rows do not wait for the whole
 * file, and stepping through the Sessions view does not index every big
 * session passed on the way.
 */
const OPEN_DELAY_MS = 150;

export interface EntriesViewStats {
  /** Refreshes of the whole tree. */
  full: number;
  /** Refreshes of some nodes only, and how many nodes in all. */
  targeted: number;
  nodes: number;
}

export class EntriesTreeProvider implements vscode.TreeDataProvider<EntryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EntryNode | EntryNode[] | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private sessionPath: string | undefined;
  private filterValue: EntryFilter = "all";
  private model: EntriesModel | undefined;
  /** Rows from the file's tail while a big session is not indexed yet (tail-session.ts). */
  private provisional: EntriesModel | undefined;
  private openTimer: NodeJS.Timeout | undefined;
  private nodes: NodeCache = new Map();
  private paging: Paging = new Map();
  private pending = new Set<EntryNode | undefined>();
  private timer: NodeJS.Timeout | undefined;
  private readonly fetchWaiters = new Map<string, (() => void)[]>();
  private readonly subscription: vscode.Disposable;
  readonly stats: EntriesViewStats = { full: 0, targeted: 0, nodes: 0 };

  constructor(private readonly store: SessionStore) {
    this.subscription = store.onDidChange(({ path, change, session }) => {
      if (path !== this.sessionPath) return;
      if (change === "appended" && session && this.model && this.model.filter === this.filterValue) {
        const changed = this.model.advance(session);
        if (changed) return this.schedule(changed);
      }
      this.model = undefined;
      this.provisional = undefined;
      this.schedule([undefined]);
    });
  }

  get path(): string | undefined {
    return this.sessionPath;
  }

  get filter(): EntryFilter {
    return this.filterValue;
  }

  get filterLabel(): string {
    return ENTRY_FILTERS.find((f) => f.id === this.filterValue)?.label ?? this.filterValue;
  }

  show(sessionPath: string | undefined): void {
    if (sessionPath === this.sessionPath) return;
    this.sessionPath = sessionPath;
    this.model = undefined;
    this.dropProvisional();
    this.nodes = new Map();
    this.paging = new Map();
    this.fireNow([undefined]);
  }

  setFilter(filter: EntryFilter): void {
    this.filterValue = filter;
    this.model = undefined;
    this.provisional = undefined;
    this.paging = new Map();
    this.fireNow([undefined]);
  }

  refresh(): void {
    this.model = undefined;
    this.provisional = undefined;
    this.fireNow([undefined]);
  }

  /** "Load earlier…": one more page of its container, which alone is refreshed. */
  async loadEarlier(node: EntryNode): Promise<void> {
    const model = await this.current();
    if (!model || node.kind !== "more" || node.sessionPath !== this.sessionPath) return;
    this.fireNow([model.loadEarlier(node)]);
  }

  private schedule(nodes: readonly (EntryNode | undefined)[]): void {
    for (const node of nodes) this.pending.add(node);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const pending = [...this.pending];
      this.pending.clear();
      this.fireNow(pending);
    }, FIRE_DEBOUNCE_MS);
  }

  private fireNow(nodes: readonly (EntryNode | undefined)[]): void {
    if (nodes.length === 0) return;
    if (nodes.includes(undefined)) {
      this.stats.full++;
      this.changed.fire(undefined);
      return;
    }
    this.stats.targeted++;
    this.stats.nodes += nodes.length;
    this.changed.fire(nodes as EntryNode[]);
  }

  /** The node model of the shown session (read when first needed). */
  async current(): Promise<EntriesModel | undefined> {
    if (!this.sessionPath) return undefined;
    const session = await this.store.get(this.sessionPath);
    if (!this.model || this.model.session !== session || this.model.filter !== this.filterValue) {
      this.model = new EntriesModel(session, this.filterValue, this.nodes, this.paging);
    }
    return this.model;
  }

  private dropProvisional(): void {
    this.provisional = undefined;
    if (this.openTimer) clearTimeout(this.openTimer);
    this.openTimer = undefined;
  }

  /**
   * The model VS Code's rows come from: the indexed session's; for a big
   * session not indexed yet, its tail's, and the index is read right after
   * (the store's "opened" then refreshes the view with the full model).
   */
  private async shown(): Promise<EntriesModel | undefined> {
    const path = this.sessionPath;
    if (!path || this.store.peek(path)) return this.current();
    if (this.provisional?.session.path === path && this.provisional.filter === this.filterValue) return this.provisional;
    if ((fileSize(path) ?? 0) <= TAIL_FIRST_BYTES) return this.current();
    const tail = tailSession(path);
    if (!tail) return this.current();
    this.provisional = new EntriesModel(tail, this.filterValue, this.nodes, this.paging);
    if (!this.openTimer) {
      this.openTimer = setTimeout(() => {
        this.openTimer = undefined;
        if (this.sessionPath === path) void this.store.get(path).catch(() => undefined);
      }, OPEN_DELAY_MS);
    }
    return this.provisional;
  }

  async getChildren(parent?: EntryNode): Promise<EntryNode[]> {
    const model = await this.shown();
    if (!model) return [];
    const children = parent ? model.children(parent) : model.roots();
    const key = parent?.key ?? ROOT;
    for (const waiter of this.fetchWaiters.get(key) ?? []) waiter();
    this.fetchWaiters.delete(key);
    return children;
  }

  /** Settles when VS Code next asks for a container's children (or after `ms`). */
  private nextFetch(container: EntryNode | undefined, ms: number): Promise<void> {
    const key = container?.key ?? ROOT;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      const waiters = this.fetchWaiters.get(key) ?? [];
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.fetchWaiters.set(key, waiters);
    });
  }

  async getParent(node: EntryNode): Promise<EntryNode | undefined> {
    return (await this.current())?.parent(node);
  }

  /**
   * Pages in the rows a "Load earlier…" hides on the way to a node, and
   * refreshes their containers; call it before reveal(): VS Code's reveal
   * waits for a refresh fired before it, and works from the children it has.
   */
  async pageIn(node: EntryNode): Promise<void> {
    const model = await this.current();
    if (!model) return;
    const pagedIn = new Set<EntryNode | undefined>();
    for (let current: EntryNode | undefined = node, depth = 0; current && depth < 10_000; depth++) {
      current = model.parent(current, (container) => pagedIn.add(container));
    }
    if (pagedIn.size === 0) return;
    // Wait until VS Code has the new children (the outermost container is asked first), at most a second.
    const fetched = this.nextFetch(pagedIn.has(undefined) ? undefined : [...pagedIn].pop(), 1000);
    this.fireNow([...pagedIn]);
    await fetched;
  }

  async getTreeItem(node: EntryNode): Promise<vscode.TreeItem> {
    const model = await this.shown();
    if (!model) return new vscode.TreeItem("(no session)");
    const session = model.session;
    if (node.kind === "cycle") {
      const item = new vscode.TreeItem("Entries in a parent cycle", vscode.TreeItemCollapsibleState.Collapsed);
      item.id = node.key;
      item.description = `${counted(session.index.unreachable.length, "entry")} no root reaches`;
      item.iconPath = new vscode.ThemeIcon("warning");
      return item;
    }
    if (node.kind === "more") return moreItem(node);
    if (node.kind === "branch") return branchItem(node, model, session);
    return entryItem(node, model, session);
  }

  async resolveTreeItem(item: vscode.TreeItem, node: EntryNode): Promise<vscode.TreeItem> {
    if (node.kind !== "entry" || item.tooltip !== undefined) return item;
    const model = await this.shown();
    if (model) item.tooltip = entryTooltip(node, model, model.session);
    return item;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.dropProvisional();
    this.subscription.dispose();
    this.changed.dispose();
  }
}

const ROOT = "";

export const LOAD_EARLIER_COMMAND_ID = "piSessions.loadEarlierEntries";

function moreItem(node: Extract<EntryNode, { kind: "more" }>): vscode.TreeItem {
  const item = new vscode.TreeItem("Load earlier…", vscode.TreeItemCollapsibleState.None);
  item.id = node.key;
  item.description = `${node.hidden} earlier ${node.unit === "turn" ? (node.hidden === 1 ? "turn" : "turns") : node.hidden === 1 ? "entry" : "entries"}`;
  item.iconPath = new vscode.ThemeIcon("fold-up");
  item.contextValue = "loadEarlier";
  item.command = { command: LOAD_EARLIER_COMMAND_ID, title: "Load Earlier", arguments: [node] };
  return item;
}

function branchItem(node: Extract<EntryNode, { kind: "branch" }>, model: EntriesModel, session: LoadedSession): vscode.TreeItem {
  const head = session.entry(node.headId);
  const holdsLeaf = model.branchHoldsLeaf(node.headId);
  const item = new vscode.TreeItem(
    `Branch ${node.position} of ${node.count}`,
    holdsLeaf ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = node.key;
  const length = model.runLength(node.headId);
  item.description = showBidiControls(`${holdsLeaf ? "current · " : ""}${length} ${length === 1 ? "entry" : "entries"} · ${head ? entryPreview(head, 60) : node.headId}`);
  item.iconPath = new vscode.ThemeIcon("git-branch", holdsLeaf ? new vscode.ThemeColor("charts.green") : undefined);
  item.contextValue = "branch";
  return item;
}

/** The context edit that applies to an entry on the current branch (the latest there), else the latest anywhere. */
function contextEditOf(session: LoadedSession, model: EntriesModel, entryId: string): ContextEditOfTarget | undefined {
  const edits = contextEditsByTarget(session).get(entryId);
  if (!edits) return undefined;
  for (let i = edits.length - 1; i >= 0; i--) if (model.isOnLeafPath(edits[i]!.editId)) return edits[i];
  return edits[edits.length - 1];
}

function entryItem(node: Extract<EntryNode, { kind: "entry" }>, model: EntriesModel, session: LoadedSession): vscode.TreeItem {
  const meta = session.index.get(node.entryId);
  const entry = meta ? session.entryAt(meta) : undefined;
  const hasChildren = model.hasChildren(node);
  const isLeaf = node.entryId === model.leafId;
  const item = new vscode.TreeItem(
    showBidiControls(entry ? entryPreview(entry, 100) : node.entryId),
    hasChildren ? (model.opensOnShow(node.entryId) ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed) : vscode.TreeItemCollapsibleState.None,
  );
  item.id = node.key;
  if (!meta) return item;
  const message = (entry as { message?: { isError?: unknown; stopReason?: unknown } } | undefined)?.message;
  const isError = message?.isError === true || message?.stopReason === "error";
  const label = session.index.labelOf(node.entryId);
  if (label) {
    // First, highlighted: after a 100-character preview (in the description) it was cut off at the default sidebar width.
    const shown = showBidiControls(label);
    item.label = { label: `${shown} · ${String(item.label)}`, highlights: [[0, shown.length]] };
  }
  const marks: string[] = [];
  if (isLeaf) marks.push("● leaf");
  const edit = contextEditOf(session, model, node.entryId);
  if (edit) marks.push(edit.replacement === null ? "omitted by a context edit" : "replaced by a context edit");
  const branches = model.childCount(node.entryId);
  if (branches > 1) marks.push(counted(branches, "branch"));
  else if (hasChildren) marks.push("turn");
  marks.push(entryKind(meta));
  item.description = showBidiControls(marks.join(" · "));
  item.iconPath = isLeaf ? new vscode.ThemeIcon("debug-stackframe", new vscode.ThemeColor("charts.green")) : entryIcon(meta, isError);
  const context = ["entry", `type-${meta.type}`];
  if (isLeaf) context.push("leaf");
  if (label) context.push("labelled");
  if (meta.type === "compaction" || meta.type === "branch_summary") context.push("summary");
  item.contextValue = context.join(" ");
  if (meta.type === "compaction" || meta.type === "branch_summary") {
    item.command = { command: "piSessions.showSummary", title: "Show Summary", arguments: [{ sessionPath: node.sessionPath, entryId: node.entryId }] };
  }
  return item;
}

/** An entry row's tooltip (built on hover: VS Code parses each Markdown tooltip it is handed). */
function entryTooltip(node: Extract<EntryNode, { kind: "entry" }>, model: EntriesModel, session: LoadedSession): vscode.MarkdownString | undefined {
  const meta = session.index.get(node.entryId);
  if (!meta) return undefined;
  const entry = session.entryAt(meta);
  const isLeaf = node.entryId === model.leafId;
  const onPath = model.isOnLeafPath(node.entryId);
  const label = session.index.labelOf(node.entryId);
  const edit = contextEditOf(session, model, node.entryId);
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**${entryKind(meta)}** \`${meta.id}\`${isLeaf ? " — current leaf" : onPath ? " — on the current branch" : ""}\n\n`);
  if (label) tooltip.appendMarkdown(`label: **${markdownText(showBidiControls(label))}**\n\n`);
  tooltip.appendMarkdown(`line ${meta.line}${meta.timestamp ? ` · ${meta.timestamp}` : ""}\n\n`);
  if (entry) tooltip.appendMarkdown(markdownText(showBidiControls(entryPreview(entry, 400))));
  if (edit) {
    tooltip.appendMarkdown(`\n\n---\n\ncontext edit \`${edit.editId}\`: `);
    if (edit.replacement === null) tooltip.appendMarkdown("the model no longer sees this entry (pi 1.x, e.g. a retried or recovered attempt)");
    else {
      tooltip.appendMarkdown("the model sees instead:\n\n");
      tooltip.appendMarkdown(markdownText(showBidiControls(entryPreview({ type: "custom_message", customType: "replacement", content: edit.replacement.content } as never, 400))));
    }
  }
  return tooltip;
}
