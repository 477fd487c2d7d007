// Pi Sessions: Search Sessions… — a QuickPick over pi 1.5's /resume query
// language (core/search), this workspace's sessions or every project's (a
// title-bar button toggles), results updating as the user types (debounced;
// a newer query cancels the older one). Choosing a result shows the session
// in the Entries view with the matching entry revealed. Read-only, so it runs
// in Restricted Mode too.
import { join } from "node:path";
import * as vscode from "vscode";
import { SearchIndex, type EntryMatch, type SearchResult, type SessionHit } from "../../core/search/search-index";
import { jsonlFilesInFolders, piSessionFolders } from "../../core/discovery/discover";
import { ompListedFiles } from "../../core/discovery/omp-listing";
import { elsewhereSessionFiles } from "../session-discovery";
import { notDone, ok, type CommandResult } from "../command-result";
import type { Services } from "../services";
import { openEntry, openSession } from "./entry-actions";

export const SEARCH_COMMAND_ID = "piSessions.searchSessions";

export type SearchScope = "workspace" | "all";

const DEBOUNCE_MS = 150;
const MAX_SESSIONS = 50;
const MATCHES_PER_SESSION = 3;
const ROLE_ICONS: Record<string, string> = { user: "$(account)", assistant: "$(hubot)", session_info: "$(tag)" };

interface ResultItem extends vscode.QuickPickItem {
  hit?: SessionHit;
  match?: EntryMatch;
}

let index: SearchIndex | undefined;

/** One index per window, kept in the extension's global storage (rebuilt from the session files when deleted). */
function searchIndex(services: Services): SearchIndex {
  index ??= new SearchIndex(join(services.context.globalStorageUri.fsPath, "search"));
  return index;
}

async function scopeFiles(services: Services, scope: SearchScope): Promise<string[]> {
  const workspace = (await services.sessions.sessionGroups()).flatMap((group) => group.files);
  if (scope === "workspace") return workspace;
  const settings = services.settings();
  const all = await jsonlFilesInFolders(await piSessionFolders(settings.agentDir));
  // oh-my-pi's projects as its /resume lists them.
  const omp = settings.omp.enabled ? await ompListedFiles(settings.omp.sessionsRoot) : [];
  return [...new Set([...workspace, ...all, ...omp, ...(await elsewhereSessionFiles(settings))])];
}

/** The snippet with the match set off by «…» (a QuickPick cannot highlight ranges of its own). */
function marked(match: EntryMatch): string {
  if (!match.highlight) return match.snippet;
  const [a, b] = match.highlight;
  return `${match.snippet.slice(0, a)}«${match.snippet.slice(a, b)}»${match.snippet.slice(b)}`;
}

function sessionTitle(hit: SessionHit): string {
  return hit.name ?? hit.id;
}

export function resultItems(result: SearchResult): ResultItem[] {
  const items: ResultItem[] = [];
  for (const hit of result.sessions) {
    const when = new Date(hit.modifiedMs).toLocaleString();
    const folder = hit.cwd || "(no cwd)";
    const entries = hit.matches.slice(0, MATCHES_PER_SESSION);
    if (entries.length === 0) {
      items.push({ label: `$(comment-discussion) ${sessionTitle(hit)}`, description: `matched ${hit.fields.join(", ")} · ${folder}`, detail: when, alwaysShow: true, hit });
    }
    for (const match of entries) {
      items.push({
        label: `${ROLE_ICONS[match.role] ?? "$(circle-small)"} ${sessionTitle(hit)}`,
        // The matching message's own time (the session's last activity only when the entry has none).
        description: `${match.role === "session_info" ? "name" : match.role} · ${folder} · ${match.time !== null ? new Date(match.time).toLocaleString() : when}`,
        detail: marked(match),
        alwaysShow: true,
        hit,
        match,
      });
    }
  }
  return items;
}

function summary(result: SearchResult): string | undefined {
  if (result.error) return `Not a valid query: ${result.error}`;
  if (result.truncated === "regex time limit") return `The regex took too long on ${result.notSearched.length} session(s): they were not searched.`;
  return undefined;
}

/** Opens the reader at the matching entry (and selects it in the Entries view); a hit on the session alone opens the session. */
export async function openHit(services: Services, hit: SessionHit, match: EntryMatch | undefined): Promise<void> {
  let entryId = match?.entryId ?? null;
  if (!entryId && match && match.line > 0) {
    // An entry of an old file without ids: find it by its line.
    const session = await services.store.get(hit.path).catch(() => undefined);
    entryId = session?.index.entries.find((m) => m.line === match.line)?.id ?? null;
  }
  if (entryId) await openEntry(services, hit.path, entryId);
  else {
    await vscode.commands.executeCommand("piSessions.openReader", { sessionPath: hit.path, preview: true });
    await openSession(services, { sessionPath: hit.path });
  }
}

/**
 * Interactive: the QuickPick. With `{ query, scope }` arguments (scripts, tests): runs the
 * search without UI, opens the first result, and returns what it found.
 */
export async function searchSessions(services: Services, raw: unknown): Promise<CommandResult<{ result: SearchResult; opened?: string }>> {
  const args = typeof raw === "object" && raw !== null ? (raw as { query?: unknown; scope?: unknown }) : {};
  if (typeof args.query === "string") {
    const scope: SearchScope = args.scope === "all" ? "all" : "workspace";
    const result = await searchIndex(services).search(await scopeFiles(services, scope), args.query, { limit: MAX_SESSIONS, firstOnly: true });
    const first = result.sessions[0];
    if (!first) return notDone("not-applicable", summary(result) ?? `No session matches ${args.query}.`);
    await openHit(services, first, first.matches[0]);
    return ok({ result, opened: first.path });
  }
  return showSearchPick(services);
}

function showSearchPick(services: Services): Promise<CommandResult<{ result: SearchResult; opened?: string }>> {
  const pick = vscode.window.createQuickPick<ResultItem>();
  const allButton = { iconPath: new vscode.ThemeIcon("globe"), tooltip: "Search all projects" };
  const workspaceButton = { iconPath: new vscode.ThemeIcon("root-folder"), tooltip: "Search this workspace only" };
  let scope: SearchScope = "workspace";
  let last: SearchResult | undefined;
  let running: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  const setScope = (next: SearchScope): void => {
    scope = next;
    pick.title = `Pi Sessions: Search Sessions (${scope === "all" ? "all projects" : "this workspace"})`;
    pick.buttons = [scope === "all" ? workspaceButton : allButton];
  };
  setScope("workspace");
  pick.placeholder = 'words, "exact phrase" or re:<regex> — name, id, folder and message text';
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  const run = (): void => {
    running?.abort();
    const query = pick.value;
    if (!query.trim()) {
      pick.items = [];
      pick.busy = false;
      return;
    }
    const controller = new AbortController();
    running = controller;
    pick.busy = true;
    void (async () => {
      try {
        const result = await searchIndex(services).search(await scopeFiles(services, scope), query, { limit: MAX_SESSIONS, firstOnly: true, signal: controller.signal });
        if (controller.signal.aborted) return;
        last = result;
        const items = resultItems(result);
        const note = summary(result);
        pick.items = note ? [{ label: `$(warning) ${note}`, alwaysShow: true }, ...items] : items.length ? items : [{ label: "No sessions match.", alwaysShow: true }];
      } catch (e) {
        services.log.error(`search failed: ${e instanceof Error ? e.message : String(e)}`);
        pick.items = [{ label: "$(error) Search failed: see the Pi Sessions log.", alwaysShow: true }];
      } finally {
        if (running === controller) pick.busy = false;
      }
    })();
  };
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  };
  return new Promise((resolve) => {
    let done = false;
    let accepted = false;
    const finish = (value: CommandResult<{ result: SearchResult; opened?: string }>): void => {
      if (done) return;
      done = true;
      resolve(value);
    };
    pick.onDidChangeValue(schedule);
    pick.onDidTriggerButton(() => {
      setScope(scope === "all" ? "workspace" : "all");
      schedule();
    });
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0];
      if (!item?.hit) return;
      accepted = true;
      pick.hide();
      void openHit(services, item.hit, item.match).then(() => finish(ok({ result: last!, opened: item.hit!.path })));
    });
    pick.onDidHide(() => {
      running?.abort();
      if (timer) clearTimeout(timer);
      pick.dispose();
      if (!accepted) finish(notDone("cancelled", "Search closed."));
    });
    pick.show();
  });
}
