// The sessions of the workspace as the views and the status bar see them: the
// discovered groups and, per file, its facts (kept up to date from the store).
// Nothing is read until something asks (the Sessions view becoming visible, a
// command): activation stays cheap.
import { statSync } from "node:fs";
import * as vscode from "vscode";
import type { SessionStore } from "./session-store";
import type { SessionGroup } from "./session-discovery";
import { sessionFacts, type FactsContext, type SessionFacts } from "./session-facts";

export class SessionsModel implements vscode.Disposable {
  private groups: SessionGroup[] | undefined;
  private discovering: Promise<SessionGroup[]> | undefined;
  private readonly facts = new Map<string, SessionFacts>();
  private readonly errors = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: SessionStore,
    private readonly factsContext: () => FactsContext,
    private readonly discover: () => Promise<SessionGroup[]>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscription = store.onDidChange(({ path, session }) => {
      if (session) this.computeFacts(path);
      else this.facts.delete(path);
      this.changed.fire();
    });
  }

  get discovered(): boolean {
    return this.groups !== undefined;
  }

  /** The groups, discovering (and reading each session) on first call. */
  async sessionGroups(): Promise<SessionGroup[]> {
    if (this.groups) return this.groups;
    return this.rediscover();
  }

  /** Looks for session files again (a file was created or deleted, settings changed). */
  async rediscover(): Promise<SessionGroup[]> {
    if (this.discovering) return this.discovering;
    this.discovering = (async () => {
      try {
        const groups = await this.discover();
        const wanted = new Set(groups.flatMap((g) => g.files));
        for (const path of this.store.paths()) if (!wanted.has(path)) this.store.forget(path);
        await Promise.all([...wanted].map((path) => this.open(path)));
        this.groups = groups;
        this.changed.fire();
        return groups;
      } finally {
        this.discovering = undefined;
      }
    })();
    return this.discovering;
  }

  private async open(path: string): Promise<void> {
    try {
      await this.store.get(path);
      this.errors.delete(path);
      this.computeFacts(path);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.errors.set(path, message);
      this.log.warn(`cannot read ${path}: ${message}`);
    }
  }

  /** Recomputes every row (the model registry loaded, settings changed). */
  recomputeAll(): void {
    for (const path of this.store.paths()) this.computeFacts(path);
    this.changed.fire();
  }

  private computeFacts(path: string): void {
    const session = this.store.peek(path);
    if (!session) return;
    let mtime: Date | undefined;
    try {
      mtime = statSync(path).mtime;
    } catch {
      mtime = undefined;
    }
    try {
      this.facts.set(path, sessionFacts(session, this.factsContext(), mtime));
    } catch (error) {
      this.errors.set(path, error instanceof Error ? error.message : String(error));
    }
  }

  factsOf(path: string): SessionFacts | undefined {
    return this.facts.get(path);
  }

  errorOf(path: string): string | undefined {
    return this.errors.get(path);
  }

  /** Every known session file, newest first. */
  allPaths(): string[] {
    const paths = [...new Set((this.groups ?? []).flatMap((g) => g.files))];
    return this.sortNewestFirst(paths);
  }

  sortNewestFirst(paths: readonly string[]): string[] {
    const time = (path: string): number => this.facts.get(path)?.modified.getTime() ?? 0;
    return [...paths].sort((a, b) => time(b) - time(a) || a.localeCompare(b));
  }

  /** The group a session file is in. */
  groupOf(path: string): SessionGroup | undefined {
    return this.groups?.find((g) => g.files.includes(path));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
