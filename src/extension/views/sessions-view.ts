// The Sessions view: one group per workspace folder (or, with all projects
// shown, per recorded cwd; a missing cwd marked), its sessions in the chosen
// order and filter, forks under the session they came from. Each row: title,
// entries, context tokens against the window, total tokens and cost, size, last
// activity; a warning icon (and a view badge) when pi would auto-compact it.
// A session's change refreshes its row alone, unless its place in the order or
// the filter changed (then its group). A group shows its first SESSIONS_PAGE
// rows and a "Show more…" row: a row that moves (pi writes to a session further
// down, in "last activity" order) re-sends that many rows, not thousands. A
// session joining or leaving a group (one omp recorded) re-sends that group;
// the whole view only when a group appears or disappears.
import { basename } from "node:path";
import * as vscode from "vscode";
import { showBidiControls } from "../../core/text/bidi-controls";
import type { SessionsChange, SessionsModel } from "../sessions-model";
import type { SessionGroup } from "../session-discovery";
import { agoText, compactNumber, costText, factsSemantics, sizeText, tokensText, type SessionFacts } from "../session-facts";
import { compareSessions, DEFAULT_VIEW_OPTIONS, firstInOrder, passesFilters, threadForks, type SessionsViewOptions } from "./sessions-order";
import { counted } from "../../core/text/counted";

export const SESSIONS_VIEW_ID = "piSessions.sessions";

export type SessionsNode =
  | { kind: "group"; id: string; group: SessionGroup }
  | { kind: "session"; id: string; path: string }
  /** "Show more…": `hidden` further rows of the container (a group, or a session's forks). */
  | { kind: "more"; id: string; containerId: string; hidden: number };

/** Rows a group (or a session's forks) shows at first, and "Show more…" adds each time. */
export const SESSIONS_PAGE = 200;
export const SHOW_MORE_SESSIONS_COMMAND_ID = "piSessions.showMoreSessions";

export function isSessionNode(value: unknown): value is Extract<SessionsNode, { kind: "session" }> {
  return typeof value === "object" && value !== null && (value as SessionsNode).kind === "session" && typeof (value as { path?: unknown }).path === "string";
}

export interface SessionsViewStats {
  full: number;
  targeted: number;
  nodes: number;
}

export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionsNode | SessionsNode[] | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, SessionsNode>();
  /** The rows last handed out, by container node id ("" for the top level). */
  private readonly shown = new Map<string, string[]>();
  /** Where each shown session's row is: its container's node id. */
  private readonly containerOf = new Map<string, string>();
  private readonly forkParent = new Map<string, string>();
  private readonly forks = new Map<string, string[]>();
  /** Rows shown per container id (SESSIONS_PAGE until "Show more…"), and the containers holding back rows. */
  private readonly limits = new Map<string, number>();
  private readonly paged = new Set<string>();
  private pageSize = SESSIONS_PAGE;
  private readonly subscription: vscode.Disposable;
  private viewOptions: SessionsViewOptions = DEFAULT_VIEW_OPTIONS;
  /** Listed sessions past pi's threshold (for the view's badge), kept per changed row; undefined: count anew. */
  private overThreshold: Set<string> | undefined;
  private listedSet: { from: readonly string[]; paths: Set<string> } | undefined;
  /** The groups last handed out at the top level, by node id. */
  private readonly topShown = new Set<string>();
  readonly stats: SessionsViewStats = { full: 0, targeted: 0, nodes: 0 };

  constructor(private readonly model: SessionsModel) {
    this.subscription = model.onDidChange((change) => this.onModelChange(change));
  }

  get options(): SessionsViewOptions {
    return this.viewOptions;
  }

  setOptions(options: SessionsViewOptions): void {
    this.viewOptions = options;
    this.refresh();
  }

  refresh(): void {
    this.stats.full++;
    this.changed.fire();
  }

  private onModelChange(change: SessionsChange): void {
    this.trackThreshold(change);
    if (!change.paths && !change.groups) return this.refresh();
    const fire = new Set<SessionsNode>();
    const inChangedGroup = new Set<string>();
    for (const key of change.groups ?? []) {
      const group = this.model.groupByKey(key);
      const shows = group !== undefined && group.files.length > 0 && this.passing(group.files).length > 0;
      // A group appears or disappears at the top level: the view's top level again.
      if (shows !== this.topShown.has(key)) return this.refresh();
      if (!group || !shows) continue;
      fire.add(this.groupNode(group));
      for (const path of group.files) inChangedGroup.add(path);
    }
    for (const path of change.paths ?? []) {
      if (inChangedGroup.has(path)) continue;
      // A session gone from its group with it (its row no longer exists).
      if (change.groups && !this.model.groupOf(path)) continue;
      const containerId = this.containerOf.get(path);
      const facts = this.model.factsOf(path);
      const passes = passesFilters(this.viewOptions.filters, facts);
      const cmp = (a: string, b: string): number => compareSessions(this.viewOptions.sort, a, b, (p) => this.model.factsOf(p));
      if (containerId === undefined) {
        // Not shown: it joins its group when it now passes the filter.
        if (passes && this.viewOptions.filters.length > 0) return this.refresh();
        // Held back behind "Show more…": its container when it now sorts into the page.
        const held = passes && this.paged.size > 0 ? this.pagedContainerOf(path) : undefined;
        const last = held && this.shown.get(held.id)?.at(-1);
        if (held && last !== undefined && cmp(path, last) < 0) fire.add(held);
        continue;
      }
      const list = this.shown.get(containerId) ?? [];
      const at = list.indexOf(path);
      const lastShown = at === list.length - 1 && !this.paged.has(containerId);
      const inOrder = at < 0 || ((at === 0 || cmp(list[at - 1]!, path) <= 0) && (lastShown || (at < list.length - 1 && cmp(path, list[at + 1]!) <= 0)));
      if (passes && inOrder) {
        fire.add(this.sessionNode(path));
        continue;
      }
      const container = containerId === "" ? undefined : this.nodes.get(containerId);
      if (!container) return this.refresh();
      fire.add(container);
    }
    if (fire.size === 0) return;
    this.stats.targeted++;
    this.stats.nodes += fire.size;
    this.changed.fire([...fire]);
  }

  /** The node of a session file (the same object each time, so reveal() finds it). */
  sessionNode(path: string): SessionsNode {
    return this.node({ kind: "session", id: `session:${path}`, path });
  }

  private groupNode(group: SessionGroup): SessionsNode {
    return this.node({ kind: "group", id: group.key, group });
  }

  private node<N extends SessionsNode>(fresh: N): N {
    const known = this.nodes.get(fresh.id);
    if (known && known.kind === "group" && fresh.kind === "group") known.group = fresh.group;
    if (known) return known as N;
    this.nodes.set(fresh.id, fresh);
    return fresh;
  }

  private passing(paths: readonly string[]): readonly string[] {
    if (this.viewOptions.filters.length === 0) return paths;
    return paths.filter((path) => passesFilters(this.viewOptions.filters, this.model.factsOf(path)));
  }

  /** The first page of a container's rows in order (and "Show more…" when some are held back). */
  private remember(containerId: string, rows: readonly string[]): SessionsNode[] {
    const before = this.shown.get(containerId);
    if (before) for (const path of before) if (this.containerOf.get(path) === containerId) this.containerOf.delete(path);
    const limit = this.limits.get(containerId) ?? this.pageSize;
    const facts = (path: string): SessionFacts | undefined => this.model.factsOf(path);
    const paths = firstInOrder(rows, limit, (a, b) => compareSessions(this.viewOptions.sort, a, b, facts));
    this.shown.set(containerId, paths);
    for (const path of paths) this.containerOf.set(path, containerId);
    const nodes = paths.map((path) => this.sessionNode(path));
    if (paths.length < rows.length) {
      this.paged.add(containerId);
      const more: SessionsNode = { kind: "more", id: `more:${containerId}`, containerId, hidden: rows.length - paths.length };
      this.nodes.set(more.id, more);
      nodes.push(more);
    } else this.paged.delete(containerId);
    return nodes;
  }

  /** The container (group or parent session) of a session held back behind its "Show more…", if it is. */
  private pagedContainerOf(path: string): SessionsNode | undefined {
    const forkOf = this.forkParent.get(path);
    const id = forkOf !== undefined ? `session:${forkOf}` : this.model.groupOf(path)?.key;
    return id !== undefined && this.paged.has(id) ? this.nodes.get(id) : undefined;
  }

  /** Rows per page, from the first page again (tests lower it). */
  setPageSize(size: number): void {
    this.pageSize = size;
    this.limits.clear();
    this.refresh();
  }

  /** "Show more…": one more page of its container, which alone is refreshed. */
  showMore(node: SessionsNode): void {
    if (node.kind !== "more") return;
    const container = this.nodes.get(node.containerId);
    if (!container) return;
    this.limits.set(node.containerId, (this.limits.get(node.containerId) ?? this.pageSize) + this.pageSize);
    this.stats.targeted++;
    this.stats.nodes++;
    this.changed.fire([container]);
  }

  async getChildren(parent?: SessionsNode): Promise<SessionsNode[]> {
    if (!parent) {
      const groups = await this.model.sessionGroups();
      // Groups without (matching) sessions are left out; with none at all the view's welcome text shows.
      const shown = groups.filter((group) => group.files.length > 0 && this.passing(group.files).length > 0).map((group) => this.groupNode(group));
      this.topShown.clear();
      for (const node of shown) this.topShown.add(node.id);
      return shown;
    }
    if (parent.kind === "group") {
      const threads = threadForks(parent.group.files, (path) => this.model.headerOf(path));
      for (const [path, parentPath] of threads.parentOf) this.forkParent.set(path, parentPath);
      for (const [path, list] of threads.forks) this.forks.set(path, list);
      return this.remember(parent.id, this.passing(threads.top));
    }
    if (parent.kind === "more") return [];
    return this.remember(parent.id, this.passing(this.forks.get(parent.path) ?? []));
  }

  getParent(node: SessionsNode): SessionsNode | undefined {
    if (node.kind === "group") return undefined;
    if (node.kind === "more") return this.nodes.get(node.containerId);
    const forkOf = this.forkParent.get(node.path);
    if (forkOf) return this.sessionNode(forkOf);
    const group = this.model.groupOf(node.path);
    return group ? this.groupNode(group) : undefined;
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    if (node.kind === "group") return groupItem(node);
    if (node.kind === "more") return moreItem(node);
    return this.sessionItem(node);
  }

  private sessionItem(node: Extract<SessionsNode, { kind: "session" }>): vscode.TreeItem {
    const facts = this.model.factsOf(node.path);
    const error = this.model.errorOf(node.path);
    const forks = this.forks.get(node.path)?.length ?? 0;
    const item = new vscode.TreeItem(showBidiControls(facts?.title ?? basename(node.path)), forks > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.resourceUri = vscode.Uri.file(node.path);
    // A click selects the session (Entries view) and shows it in the preview reader, as a click in
    // the Explorer opens a preview editor; "Open Session" from the menu opens a reader of its own.
    item.command = { command: "piSessions.openReader", title: "Open Session", arguments: [{ sessionPath: node.path, preview: true }] };
    if (error || !facts) {
      item.description = error ? "cannot be read" : "reading…";
      item.iconPath = new vscode.ThemeIcon(error ? "error" : "loading~spin");
      item.tooltip = error ?? node.path;
      item.contextValue = "session";
      return item;
    }
    // Whose session it is: pi's rows are the default; omp's say so first.
    const tag = factsSemantics(facts).listTag;
    const parts = [...(tag ? [tag] : []), ...sessionColumns(facts)];
    if (forks > 0) parts.push(counted(forks, "fork"));
    if (facts.wouldCompact) parts.push("would auto-compact");
    if (facts.needsMigration) parts.push("old format");
    item.description = parts.join(" · ");
    item.iconPath = facts.wouldCompact
      ? new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"))
      : new vscode.ThemeIcon(facts.needsMigration ? "history" : this.forkParent.has(node.path) ? "repo-forked" : "comment-discussion");
    // VS Code's extension host parses every Markdown tooltip it is handed: a group re-sent is a
    // page of them (built on hover with resolveTreeItem instead, the Entries paging suite's reveal
    // timed out in full runs, as it did for the session before).
    item.tooltip = sessionTooltip(facts);
    item.contextValue = ["session", facts.needsMigration ? "needsMigration" : "", facts.hasCompaction ? "hasCompaction" : ""].filter(Boolean).join(" ");
    item.accessibilityInformation = { label: showBidiControls(`${facts.title}, ${parts.join(", ")}`) };
    return item;
  }

  /** Listed sessions past pi's compaction threshold (this provider hears the model's changes before the badge asks). */
  wouldCompactCount(): number {
    if (!this.overThreshold) {
      this.overThreshold = new Set();
      for (const path of this.model.listedPaths()) if (this.model.factsOf(path)?.wouldCompact) this.overThreshold.add(path);
    }
    return this.overThreshold.size;
  }

  private trackThreshold(change: SessionsChange): void {
    if (!change.paths || !this.overThreshold) {
      this.overThreshold = undefined;
      return;
    }
    const listed = this.model.listedPaths();
    if (this.listedSet?.from !== listed) this.listedSet = { from: listed, paths: new Set(listed) };
    for (const path of change.paths) {
      if (this.listedSet.paths.has(path) && this.model.factsOf(path)?.wouldCompact) this.overThreshold.add(path);
      else this.overThreshold.delete(path);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function moreItem(node: Extract<SessionsNode, { kind: "more" }>): vscode.TreeItem {
  const item = new vscode.TreeItem("Show more…", vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = node.hidden === 1 ? "1 more session" : `${node.hidden} more sessions`;
  item.iconPath = new vscode.ThemeIcon("fold-down");
  item.contextValue = "showMoreSessions";
  item.command = { command: SHOW_MORE_SESSIONS_COMMAND_ID, title: "Show More Sessions", arguments: [node] };
  return item;
}

function groupItem(node: Extract<SessionsNode, { kind: "group" }>): vscode.TreeItem {
  const group = node.group;
  const count = group.files.length;
  const item = new vscode.TreeItem(group.label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = node.id;
  const sessions = counted(count, "session");
  item.description = group.folder ? sessions : `${sessions} · ${group.cwdMissing ? "folder missing · " : ""}${group.cwd || "no cwd recorded"}`;
  item.iconPath = new vscode.ThemeIcon(group.cwdMissing ? "warning" : group.folder ? "root-folder" : "folder");
  const where = group.folder ? "" : `recorded cwd: \`${group.cwd || "none"}\`${group.cwdMissing ? " — **does not exist on this machine**" : ""}\n\n`;
  item.tooltip = new vscode.MarkdownString(`**${group.label}**\n\n${where}pi's sessions folder: \`${group.piDir}\``);
  item.contextValue = group.cwdMissing ? "sessionGroup cwdMissing" : "sessionGroup";
  return item;
}

/** The columns of a row: entries and messages, context tokens, total tokens and cost, size, last activity. */
export function sessionColumns(facts: SessionFacts): string[] {
  const parts = [counted(facts.entryCount, "entry"), tokensText(facts)];
  parts.push(`Σ ${compactNumber(facts.totals.tokens)} ${costText(facts.totals.cost)}`);
  parts.push(sizeText(facts.sizeBytes), agoText(facts.lastActivity));
  return parts;
}

export function sessionTooltip(facts: SessionFacts): vscode.MarkdownString {
  const source = { usage: "from the last answer's usage", estimate: "estimated", "estimate-after-compaction": "estimated (no answer since the last compaction)" }[facts.usage.source];
  const lines = [
    `**${escapeMarkdown(showBidiControls(facts.title))}**`,
    "",
    `- context: ${facts.usage.tokens.toLocaleString("en-US")} tokens (${source}), ${counted(facts.usage.messageCount, "message")}`,
    `- model: ${facts.model ? `${facts.model.provider}/${facts.model.modelId}` : "none yet"}${facts.contextWindow ? `, window ${compactNumber(facts.contextWindow)}` : ""}`,
    facts.threshold !== undefined
      ? `- ${facts.agent} compacts above ${facts.threshold.toLocaleString("en-US")} tokens${facts.compaction.enabled ? "" : " (auto-compaction is off)"}`
      : `- compaction threshold: window not known yet`,
    `- ${counted(facts.entryCount, "entry")} in the file, every branch (${counted(facts.messageCount, "message")}); the reader counts the current branch's`,
    `- last activity ${facts.lastActivity.toLocaleString()}`,
    `- in all: ${facts.totals.tokens.toLocaleString("en-US")} tokens, ${costText(facts.totals.cost)}`,
    `- ${sizeText(facts.sizeBytes)} on disk`,
    // Whose rules read it, and why (omp: why it is omp's; pi: why this version).
    `- ${factsSemantics(facts).readingNote(escapeMarkdown(facts.agentReason ?? facts.piVersionReason ?? ""))}`,
    ...(facts.settingsError ? [`- pi's settings: ${escapeMarkdown(facts.settingsError)}`] : []),
    ...(facts.needsMigration ? ["- an older session format: migrate it before writing"] : []),
    ...(facts.problems > 0 ? [`- ${facts.problems} problem(s) in the file`] : []),
    "",
    `\`${showBidiControls(facts.path)}\``,
  ];
  return new vscode.MarkdownString(lines.join("\n"));
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
}
