// The Sessions view's title-bar actions: show all projects / this workspace,
// sort by, filter. The choice is remembered per workspace and mirrored into
// context keys (which toggle icon shows) and the view's description.
import * as vscode from "vscode";
import { notDone, ok, type CommandResult } from "../command-result";
import type { SessionsScope } from "../session-discovery";
import type { Services } from "../services";
import {
  DEFAULT_VIEW_OPTIONS,
  isSessionFilter,
  isSessionSort,
  SESSION_FILTERS,
  SESSION_SORTS,
  type SessionFilter,
  type SessionSort,
  type SessionsViewOptions,
} from "../views/sessions-order";
import { SHOW_MORE_SESSIONS_COMMAND_ID, type SessionsNode } from "../views/sessions-view";

export const SHOW_ALL_PROJECTS_COMMAND_ID = "piSessions.showAllProjects";
export const SHOW_WORKSPACE_SESSIONS_COMMAND_ID = "piSessions.showWorkspaceSessions";
export const SORT_SESSIONS_COMMAND_ID = "piSessions.sortSessions";
export const FILTER_SESSIONS_COMMAND_ID = "piSessions.filterSessions";
const STATE_KEY = "piSessions.sessionsView";
const SCOPE_CONTEXT_KEY = "piSessions.sessionsScope";
const FILTERED_CONTEXT_KEY = "piSessions.sessionsFiltered";

interface ViewState extends SessionsViewOptions {
  scope: SessionsScope;
}

function readState(services: Services): ViewState {
  const raw = services.context.workspaceState.get<Partial<ViewState>>(STATE_KEY) ?? {};
  return {
    scope: raw.scope === "all" ? "all" : "workspace",
    sort: isSessionSort(raw.sort) ? raw.sort : DEFAULT_VIEW_OPTIONS.sort,
    filters: Array.isArray(raw.filters) ? raw.filters.filter(isSessionFilter) : [],
  };
}

function describe(state: ViewState): string | undefined {
  const parts: string[] = [];
  if (state.scope === "all") parts.push("All projects");
  if (state.sort !== "activity") parts.push(`by ${SESSION_SORTS.find((s) => s.id === state.sort)!.label.toLowerCase()}`);
  if (state.filters.length > 0) parts.push(state.filters.map((f) => SESSION_FILTERS.find((x) => x.id === f)!.label.toLowerCase()).join(", "));
  return parts.length > 0 ? parts.join(" · ") : undefined;
}

async function apply(services: Services, state: ViewState): Promise<void> {
  await services.context.workspaceState.update(STATE_KEY, state);
  void vscode.commands.executeCommand("setContext", SCOPE_CONTEXT_KEY, state.scope);
  void vscode.commands.executeCommand("setContext", FILTERED_CONTEXT_KEY, state.filters.length > 0);
  services.sessionsView.description = describe(state);
  services.sessionsTree.setOptions({ sort: state.sort, filters: state.filters });
  if (services.sessions.scope !== state.scope) await services.sessions.setScope(state.scope);
}

async function setScope(services: Services, scope: SessionsScope): Promise<CommandResult<{ scope: SessionsScope }>> {
  await apply(services, { ...readState(services), scope });
  return ok({ scope });
}

async function sortSessions(services: Services, raw: unknown): Promise<CommandResult<{ sort: SessionSort }>> {
  const state = readState(services);
  let sort = isSessionSort(raw) ? raw : undefined;
  if (!sort) {
    const items = SESSION_SORTS.map((s) => ({ label: s.label, id: s.id, description: s.id === state.sort ? "current" : undefined }));
    sort = (await vscode.window.showQuickPick(items, { title: "Pi Sessions: Sort Sessions By" }))?.id;
  }
  if (!sort) return notDone("cancelled", "No order chosen.");
  await apply(services, { ...state, sort });
  return ok({ sort });
}

async function filterSessions(services: Services, raw: unknown): Promise<CommandResult<{ filters: SessionFilter[] }>> {
  const state = readState(services);
  let filters: SessionFilter[] | undefined = Array.isArray(raw) ? raw.filter(isSessionFilter) : undefined;
  if (!filters) {
    const items = SESSION_FILTERS.map((f) => ({ label: f.label, detail: f.detail, id: f.id, picked: state.filters.includes(f.id) }));
    filters = (await vscode.window.showQuickPick(items, { title: "Pi Sessions: Filter Sessions (none: show all)", canPickMany: true }))?.map((i) => i.id);
  }
  if (!filters) return notDone("cancelled", "No filter chosen.");
  await apply(services, { ...state, filters });
  return ok({ filters });
}

/** Registers the view's title-bar commands and restores the remembered scope, order and filter. */
export function registerSessionsViewCommands(services: Services): vscode.Disposable[] {
  const state = readState(services);
  void vscode.commands.executeCommand("setContext", SCOPE_CONTEXT_KEY, state.scope);
  void vscode.commands.executeCommand("setContext", FILTERED_CONTEXT_KEY, state.filters.length > 0);
  services.sessionsView.description = describe(state);
  services.sessionsTree.setOptions({ sort: state.sort, filters: state.filters });
  // Set before anything lists (the model lists on first ask, not now).
  void services.sessions.setScope(state.scope);
  return [
    vscode.commands.registerCommand(SHOW_ALL_PROJECTS_COMMAND_ID, () => setScope(services, "all")),
    vscode.commands.registerCommand(SHOW_WORKSPACE_SESSIONS_COMMAND_ID, () => setScope(services, "workspace")),
    vscode.commands.registerCommand(SORT_SESSIONS_COMMAND_ID, (raw: unknown) => sortSessions(services, raw)),
    vscode.commands.registerCommand(FILTER_SESSIONS_COMMAND_ID, (raw: unknown) => filterSessions(services, raw)),
    // The "Show more…" row of a long group (not in the palette: it needs the row).
    vscode.commands.registerCommand(SHOW_MORE_SESSIONS_COMMAND_ID, (node: SessionsNode) => services.sessionsTree.showMore(node)),
  ];
}
