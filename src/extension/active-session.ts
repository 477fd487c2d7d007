// The session the palette commands and the status bar work on: the one picked
// in the Sessions view (or passed to a command). Its state is mirrored into
// context keys for `when` clauses.
import * as vscode from "vscode";
import type { SessionsModel } from "./sessions-model";

export const CONTEXT_KEYS = {
  hasActiveSession: "piSessions.hasActiveSession",
  activeSessionHasCompaction: "piSessions.activeSessionHasCompaction",
  activeSessionNeedsMigration: "piSessions.activeSessionNeedsMigration",
  entriesFilter: "piSessions.entriesFilter",
} as const;

export class ActiveSession implements vscode.Disposable {
  private current: string | undefined;
  private readonly changed = new vscode.EventEmitter<string | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** The context keys as last set (each is a message to the window: set again only when it changes). */
  private readonly keys = new Map<string, boolean>();

  constructor(private readonly sessions: SessionsModel) {
    this.subscription = sessions.onDidChange((change) => {
      if (!change.paths || (this.current !== undefined && change.paths.includes(this.current))) this.updateContextKeys();
    });
    this.updateContextKeys();
  }

  get path(): string | undefined {
    return this.current;
  }

  set(path: string | undefined): void {
    if (path === this.current) return;
    this.current = path;
    this.updateContextKeys();
    this.changed.fire(path);
  }

  private updateContextKeys(): void {
    const facts = this.current ? this.sessions.factsOf(this.current) : undefined;
    this.setKey(CONTEXT_KEYS.hasActiveSession, this.current !== undefined);
    this.setKey(CONTEXT_KEYS.activeSessionHasCompaction, facts?.hasCompaction === true);
    this.setKey(CONTEXT_KEYS.activeSessionNeedsMigration, facts?.needsMigration === true);
  }

  private setKey(key: string, value: boolean): void {
    if (this.keys.get(key) === value) return;
    this.keys.set(key, value);
    void vscode.commands.executeCommand("setContext", key, value);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
