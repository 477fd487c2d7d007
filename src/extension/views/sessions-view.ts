// The Sessions view: one group per workspace folder, its sessions newest first,
// each with its title, entry count and context tokens against the model's
// window, and a warning icon (and a view badge) when pi would auto-compact it.
import { basename } from "node:path";
import * as vscode from "vscode";
import { showBidiControls } from "../../core/text/bidi-controls";
import type { SessionsModel } from "../sessions-model";
import type { SessionGroup } from "../session-discovery";
import { compactNumber, tokensText, type SessionFacts } from "../session-facts";

export const SESSIONS_VIEW_ID = "piSessions.sessions";

export type SessionsNode = { kind: "group"; id: string; group: SessionGroup } | { kind: "session"; id: string; path: string };

export function isSessionNode(value: unknown): value is Extract<SessionsNode, { kind: "session" }> {
  return typeof value === "object" && value !== null && (value as SessionsNode).kind === "session" && typeof (value as { path?: unknown }).path === "string";
}

export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionsNode | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, SessionsNode>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly model: SessionsModel) {
    this.subscription = model.onDidChange(() => this.changed.fire());
  }

  refresh(): void {
    this.changed.fire();
  }

  /** The node of a session file (the same object each time, so reveal() finds it). */
  sessionNode(path: string): SessionsNode {
    return this.node({ kind: "session", id: `session:${path}`, path });
  }

  private node<N extends SessionsNode>(fresh: N): N {
    const known = this.nodes.get(fresh.id);
    if (known && known.kind === "group" && fresh.kind === "group") known.group = fresh.group;
    if (known) return known as N;
    this.nodes.set(fresh.id, fresh);
    return fresh;
  }

  async getChildren(parent?: SessionsNode): Promise<SessionsNode[]> {
    if (!parent) {
      const groups = await this.model.sessionGroups();
      // Folders without sessions are left out; with none at all the view's welcome text shows.
      return groups.filter((group) => group.files.length > 0).map((group) => this.node({ kind: "group", id: `group:${group.folder.uri.toString()}`, group }));
    }
    if (parent.kind === "group") return this.model.sortNewestFirst(parent.group.files).map((path) => this.sessionNode(path));
    return [];
  }

  getParent(node: SessionsNode): SessionsNode | undefined {
    if (node.kind === "group") return undefined;
    const group = this.model.groupOf(node.path);
    return group ? this.node({ kind: "group", id: `group:${group.folder.uri.toString()}`, group }) : undefined;
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    if (node.kind === "group") {
      const count = node.group.files.length;
      const item = new vscode.TreeItem(node.group.folder.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.id;
      item.description = count === 1 ? "1 session" : `${count} sessions`;
      item.iconPath = new vscode.ThemeIcon("root-folder");
      item.tooltip = new vscode.MarkdownString(`**${node.group.folder.name}**\n\npi's sessions folder: \`${node.group.piDir}\``);
      item.contextValue = "sessionGroup";
      return item;
    }
    return this.sessionItem(node);
  }

  private sessionItem(node: Extract<SessionsNode, { kind: "session" }>): vscode.TreeItem {
    const facts = this.model.factsOf(node.path);
    const error = this.model.errorOf(node.path);
    const item = new vscode.TreeItem(showBidiControls(facts?.title ?? basename(node.path)), vscode.TreeItemCollapsibleState.None);
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
    const parts = [`${facts.entryCount} entries`, tokensText(facts)];
    if (facts.wouldCompact) parts.push("would auto-compact");
    if (facts.needsMigration) parts.push("old format");
    item.description = parts.join(" · ");
    item.iconPath = facts.wouldCompact
      ? new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"))
      : new vscode.ThemeIcon(facts.needsMigration ? "history" : "comment-discussion");
    item.tooltip = sessionTooltip(facts);
    item.contextValue = ["session", facts.needsMigration ? "needsMigration" : "", facts.hasCompaction ? "hasCompaction" : ""].filter(Boolean).join(" ");
    item.accessibilityInformation = { label: showBidiControls(`${facts.title}, ${parts.join(", ")}`) };
    return item;
  }

  /** Sessions past pi's compaction threshold. */
  wouldCompactCount(): number {
    return this.model.allPaths().filter((path) => this.model.factsOf(path)?.wouldCompact).length;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

export function sessionTooltip(facts: SessionFacts): vscode.MarkdownString {
  const source = { usage: "from the last answer's usage", estimate: "estimated", "estimate-after-compaction": "estimated (no answer since the last compaction)" }[facts.usage.source];
  const lines = [
    `**${escapeMarkdown(showBidiControls(facts.title))}**`,
    "",
    `- context: ${facts.usage.tokens.toLocaleString("en-US")} tokens (${source}), ${facts.usage.messageCount} messages`,
    `- model: ${facts.model ? `${facts.model.provider}/${facts.model.modelId}` : "none yet"}${facts.contextWindow ? `, window ${compactNumber(facts.contextWindow)}` : ""}`,
    facts.threshold !== undefined
      ? `- pi compacts above ${facts.threshold.toLocaleString("en-US")} tokens${facts.compaction.enabled ? "" : " (auto-compaction is off)"}`
      : `- compaction threshold: window not known yet`,
    `- ${facts.entryCount} entries, last activity ${facts.modified.toLocaleString()}`,
    `- read as pi ${facts.piVersion} (${escapeMarkdown(facts.piVersionReason)})`,
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
