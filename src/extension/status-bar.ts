// The status bar item of the active session: context tokens against the
// model's window, in the warning colour past pi's compaction threshold; a
// click runs Compact Session.
import * as vscode from "vscode";
import type { ActiveSession } from "./active-session";
import type { SessionsModel } from "./sessions-model";
import { tokensText } from "./session-facts";
import { sessionTooltip } from "./views/sessions-view";

export class SessionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("piSessions.context", vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[];
  private shown = false;
  private warning: boolean | undefined;

  constructor(
    private readonly active: ActiveSession,
    private readonly sessions: SessionsModel,
  ) {
    this.item.name = "Pi Sessions: context";
    this.item.command = { command: "piSessions.compactSession", title: "Compact Session" };
    this.subscriptions = [
      active.onDidChange(() => this.update()),
      // Another session's row changing leaves the item as it is.
      sessions.onDidChange((change) => {
        if (!change.paths || (active.path !== undefined && change.paths.includes(active.path))) this.update();
      }),
    ];
    this.update();
  }

  /** What the item shows now (for tests). */
  get state(): { visible: boolean; text: string; warning: boolean } {
    const facts = this.active.path ? this.sessions.factsOf(this.active.path) : undefined;
    return { visible: facts !== undefined, text: this.item.text, warning: facts?.wouldCompact === true };
  }

  /** Sets only what changed: each property set is a message to the window (and a Markdown tooltip is parsed again). */
  update(): void {
    const path = this.active.path;
    const facts = path ? this.sessions.factsOf(path) : undefined;
    if (!facts) {
      if (this.shown) this.item.hide();
      this.shown = false;
      return;
    }
    const text = `$(comment-discussion) ${tokensText(facts)}`;
    if (this.item.text !== text) this.item.text = text;
    if (this.warning !== facts.wouldCompact) {
      this.warning = facts.wouldCompact;
      this.item.backgroundColor = facts.wouldCompact ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    }
    const tooltip = sessionTooltip(facts);
    tooltip.appendMarkdown(`\n\n${facts.wouldCompact ? "**Past pi's compaction threshold.** " : ""}Click to compact this session.`);
    if ((this.item.tooltip as vscode.MarkdownString | undefined)?.value !== tooltip.value) this.item.tooltip = tooltip;
    const label = `Pi session context ${tokensText(facts)}${facts.wouldCompact ? ", past the compaction threshold" : ""}`;
    if (this.item.accessibilityInformation?.label !== label) this.item.accessibilityInformation = { label };
    if (!this.shown) this.item.show();
    this.shown = true;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}
