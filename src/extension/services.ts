// What the commands work with: one object built in activate().
import type * as vscode from "vscode";
import type { SummaryHooks } from "../core/hooks/summary-hooks";
import type { ActiveSession } from "./active-session";
import type { ApiKeys } from "./api-keys";
import type { DidBranchSummaryEvent, DidCompactEvent } from "./api";
import type { SessionStore } from "./session-store";
import type { SessionsModel } from "./sessions-model";
import type { ExtensionSettings } from "./settings";
import type { SummaryPresenter } from "./summary-presenter";
import type { EntriesTreeProvider } from "./views/entries-view";
import type { EntryNode } from "./views/entries-model";
import type { SessionsNode, SessionsTreeProvider } from "./views/sessions-view";

export interface Services {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  store: SessionStore;
  sessions: SessionsModel;
  active: ActiveSession;
  sessionsTree: SessionsTreeProvider;
  sessionsView: vscode.TreeView<SessionsNode>;
  entriesTree: EntriesTreeProvider;
  entriesView: vscode.TreeView<EntryNode>;
  hooks: SummaryHooks;
  apiKeys: ApiKeys;
  presenter: SummaryPresenter;
  settings(): ExtensionSettings;
  didCompact: vscode.EventEmitter<DidCompactEvent>;
  didBranchSummary: vscode.EventEmitter<DidBranchSummaryEvent>;
}
