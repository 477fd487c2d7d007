// piSessions.autoCompactionNotice: when a watched session crosses pi's
// compaction threshold and then stays idle for the configured seconds, offer
// to compact it — once per crossing (again only after it dropped below).
import * as vscode from "vscode";
import type { SessionsModel } from "./sessions-model";
import type { ExtensionSettings } from "./settings";

export class AutoCompactionNotice implements vscode.Disposable {
  private readonly over = new Set<string>();
  private readonly notified = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscription: vscode.Disposable;
  /** Offers made (for tests). */
  readonly offers: string[] = [];

  constructor(
    private readonly sessions: SessionsModel,
    private readonly settings: () => ExtensionSettings,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // A change names the sessions it touched: only those are looked at (a list change: all).
    this.subscription = sessions.onDidChange((change) => this.check(change.paths ?? this.sessions.listedPaths()));
  }

  private check(paths: readonly string[]): void {
    const { enabled, idleSeconds } = this.settings().autoCompactionNotice;
    for (const path of paths) {
      const facts = this.sessions.factsOf(path);
      const isOver = facts?.wouldCompact === true;
      if (!isOver) {
        this.over.delete(path);
        this.notified.delete(path);
        this.clear(path);
        continue;
      }
      const wasOver = this.over.has(path);
      this.over.add(path);
      if (!enabled || this.notified.has(path)) continue;
      // Each change restarts the idle wait; the first crossing starts it.
      if (wasOver && !this.timers.has(path)) continue;
      this.clear(path);
      this.timers.set(
        path,
        setTimeout(() => this.offer(path), idleSeconds * 1000),
      );
    }
  }

  private offer(path: string): void {
    this.timers.delete(path);
    const facts = this.sessions.factsOf(path);
    if (!facts?.wouldCompact || this.notified.has(path)) return;
    this.notified.add(path);
    this.offers.push(path);
    this.log.info(`auto-compaction notice for ${path}`);
    void vscode.window
      .showInformationMessage(
        `"${facts.title}" is past pi's compaction threshold (${facts.usage.tokens.toLocaleString("en-US")} of ${facts.contextWindow?.toLocaleString("en-US") ?? "?"} tokens). Compact it now?`,
        "Compact…",
        "Not Now",
      )
      .then((answer) => {
        if (answer === "Compact…") void vscode.commands.executeCommand("piSessions.compactSession", { sessionPath: path });
      });
  }

  private clear(path: string): void {
    const timer = this.timers.get(path);
    if (timer) clearTimeout(timer);
    this.timers.delete(path);
  }

  dispose(): void {
    this.subscription.dispose();
    for (const timer of this.timers.values()) clearTimeout(timer);
  }
}
