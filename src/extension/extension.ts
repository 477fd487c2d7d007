// Entry point of the VS Code extension: builds the services (store, views,
// status bar, watchers, hooks) and registers the commands. Activation reads
// no session and loads no pi-ai: the Sessions view reads sessions when it is
// shown, and the model registry (pi-ai) loads in the background after that.
import { basename, dirname, join } from "node:path";
import * as vscode from "vscode";
import { showBidiControls } from "../core/text/bidi-controls";
import { SummaryHooks } from "../core/hooks/summary-hooks";
import { piSessionDirForCwd } from "../core/discovery/discover";
import { ActiveSession } from "./active-session";
import type { DidBranchSummaryEvent, DidCompactEvent, PiSessionsApi } from "./api";
import { ApiKeys } from "./api-keys";
import { catalogueForSettings } from "./catalogue-for-settings";
import { sessionNameOf, writerAgentFor } from "./session-facts";
import { warnOnSearchModuleFailure } from "../core/session/skim/search-memory";
import { catalogueChild } from "./catalogue-child";
import { AutoCompactionNotice } from "./auto-compaction-notice";
import { COMPACT_COMMAND_ID, compactSession } from "./commands/compact";
import { offerPiExtensionAfterCompaction, PI_EXTENSION_SETUP_COMMAND_ID, setUpPiExtension } from "./commands/pi-extension-setup";
import { registerFileSessionCommands, SESSION_CHANGES_TO_FILE_COMMAND_ID, SHOW_LAST_CONTENT_COMMAND_ID } from "./file-sessions";
import { copyEntryJson, filterEntries, goToLeaf, openRawLine, openSession, revealEntry } from "./commands/entry-actions";
import { MIGRATE_COMMAND_ID, migrateSession } from "./commands/migrate";
import { registerSessionActions } from "./commands/session-actions";
import { NAVIGATE_COMMAND_ID, navigateToEntry, SUMMARIZE_AND_NAVIGATE_COMMAND_ID, summarizeBranchAndNavigate } from "./commands/navigate";
import { SELECT_PRESET_COMMAND_ID, SET_API_KEY_COMMAND_ID, selectPreset, setApiKey } from "./commands/settings-commands";
import { SEARCH_COMMAND_ID, searchSessions } from "./commands/search";
import { CONTEXT_DOCUMENT_SCHEME, SHOW_CONTEXT_COMMAND_ID, SHOW_SUMMARY_COMMAND_ID, showContext, showSummary } from "./commands/show";
import { ReadOnlyDocuments } from "./read-only-documents";
import { registerSessionsViewCommands } from "./commands/sessions-view-commands";
import { UNDO_COMMAND_ID, undoLastCompaction } from "./commands/undo";
import { INTERNALS_COMMAND_ID, internals } from "./internals";
import { ModelWindows } from "./model-windows";
import type { Services } from "./services";
import { discoverAllProjects, discoverSessionGroups, ompDirsForCwd } from "./session-discovery";
import { SessionStore } from "./session-store";
import { extensionIndexSnapshots } from "./index-snapshots";
import { SessionWatcher } from "./session-watcher";
import { OmpRecords } from "./omp-records";
import { SessionsModel } from "./sessions-model";
import { ompSessionsFolder, readExtensionSettings, SETTINGS_SECTION, settingsOverrides, type ExtensionSettings } from "./settings";
import { SessionStatusBar } from "./status-bar";
import { registerReader } from "./reader";
import { registerUsage } from "./usage";
import { registerExport } from "./commands/export-session";
import { registerSummaryPanel } from "./summary-panel";
import { panelPresenter } from "./summary-presenter";
import { isTrusted } from "./trust";
import { ENTRIES_VIEW_ID, EntriesTreeProvider, LOAD_EARLIER_COMMAND_ID } from "./views/entries-view";
import type { EntryNode } from "./views/entries-model";
import { SESSIONS_VIEW_ID, SessionsTreeProvider, isSessionNode, type SessionsNode } from "./views/sessions-view";

export type { PiSessionsApi } from "./api";
export { ENTRIES_VIEW_ID, SESSIONS_VIEW_ID };
export const REFRESH_COMMAND_ID = "piSessions.refresh";

export function activate(context: vscode.ExtensionContext): PiSessionsApi {
  const log = vscode.window.createOutputChannel("Pi Sessions", { log: true });
  warnOnSearchModuleFailure((m) => log.warn(m));
  context.subscriptions.push(log);
  let settings: ExtensionSettings = readExtensionSettings();
  if (settings.presetsProblem) log.warn(settings.presetsProblem);

  const store = new SessionStore(log, { snapshots: extensionIndexSnapshots(context, log) });
  const windows = new ModelWindows(settings.agentDir, log);
  // The sessions omp recorded outside its folders: read by each look, then followed record by record.
  const records = new OmpRecords(() => settings);
  const recordedFiles = (): Promise<string[]> => records.readAll();
  const sessions: SessionsModel = new SessionsModel(
    store,
    () => ({
      agentDir: settings.agentDir,
      trusted: isTrusted(),
      overrides: settingsOverrides(settings),
      ...(settings.piVersion ? { piVersion: settings.piVersion } : {}),
      ...(ompSessionsFolder(settings) ? { ompSessionsRoot: ompSessionsFolder(settings) } : {}),
      ompAgentDir: settings.omp.agentDir,
      contextWindow: (model) => windows.window(model.provider, model.modelId),
    }),
    (scope) => (scope === "all" ? discoverAllProjects(settings, undefined, recordedFiles) : discoverSessionGroups(settings, undefined, recordedFiles)),
    log,
    {
      catalogue: catalogueForSettings(join(context.globalStorageUri.fsPath, "catalogue"), () => settings.piVersion),
      bulkReader: catalogueChild(context.extensionPath, log),
      pinned: (): (string | undefined)[] => [active.path, entriesTree.path],
      fillProgress: (work) =>
        vscode.window.withProgress({ location: { viewId: SESSIONS_VIEW_ID }, title: "Reading sessions" }, (progress) => work({ report: (done, total) => progress.report({ message: `${done} of ${total}` }) })),
      recorded: records,
    },
  );
  const active = new ActiveSession(sessions);
  const sessionsTree = new SessionsTreeProvider(sessions);
  const entriesTree = new EntriesTreeProvider(store);
  const sessionsView = vscode.window.createTreeView<SessionsNode>(SESSIONS_VIEW_ID, { treeDataProvider: sessionsTree, showCollapseAll: true, canSelectMany: true });
  const entriesView = vscode.window.createTreeView<EntryNode>(ENTRIES_VIEW_ID, { treeDataProvider: entriesTree, showCollapseAll: true });
  entriesView.message = "Select a session in the Sessions view to see its entries.";
  const hooks = new SummaryHooks();
  const didCompact = new vscode.EventEmitter<DidCompactEvent>();
  const didBranchSummary = new vscode.EventEmitter<DidBranchSummaryEvent>();
  context.subscriptions.push(store, windows, sessions, active, sessionsTree, entriesTree, sessionsView, entriesView, didCompact, didBranchSummary);

  // The services object is complete before any command can run; the panel needs revealEntry, which needs it.
  const services = { context, log, store, sessions, active, sessionsTree, sessionsView, entriesTree, entriesView, hooks, apiKeys: new ApiKeys(context), settings: () => settings, didCompact, didBranchSummary } as Omit<Services, "presenter"> as Services;
  const panel = registerSummaryPanel(context, {
    log,
    revealEntry: (sessionPath, entryId) => revealEntry(services, sessionPath, entryId),
    showChanges: async (sessionPath, path) => {
      await vscode.commands.executeCommand(SESSION_CHANGES_TO_FILE_COMMAND_ID, { sessionPath, path });
    },
    showLastContent: async (sessionPath, path) => {
      await vscode.commands.executeCommand(SHOW_LAST_CONTENT_COMMAND_ID, { sessionPath, path });
    },
    isTrusted,
    workspaceRoots: () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
    piVersion: () => settings.piVersion,
  });
  services.presenter = panelPresenter(panel);
  const reader = registerReader(context, {
    log,
    store,
    title: (path, session) => sessions.factsOf(path)?.title ?? (session ? sessionNameOf(session, writerAgentFor(session, ompSessionsFolder(settings))) : null) ?? basename(path),
    revealEntry: (sessionPath, entryId) => revealEntry(services, sessionPath, entryId),
    workspaceRoots: () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
    filter: () => entriesTree.filter,
    activePath: () => active.path,
    select: (path) => showInEntries(path),
    selections: () => selections,
  });
  registerExport(context, { log, activePath: () => active.path, isTrusted });

  const statusBar = new SessionStatusBar(active, sessions);
  const notice = new AutoCompactionNotice(sessions, () => settings, log);
  const watcher = new SessionWatcher(
    {
      changed: (path) => void sessions.fileChanged(path),
      listChanged: () => void sessions.listMayHaveChanged(),
      // One record read alone: the file it named leaves, the file it names joins (its folder watched for its writes).
      recordChanged: (record) =>
        void records.update(record).then(({ gone, named }) => {
          if (gone !== undefined) void sessions.recordedFileChanged(gone);
          if (named !== undefined) {
            watcher.watchRecordedDir(dirname(named));
            void sessions.recordedFileChanged(named);
          }
        }),
    },
    log,
  );
  context.subscriptions.push(statusBar, notice, watcher);

  const updateEntriesTitle = (): void => {
    const path = entriesTree.path;
    const facts = path ? sessions.factsOf(path) : undefined;
    entriesView.description = path ? showBidiControls(`${entriesTree.filter === "all" ? "" : `${entriesTree.filterLabel} · `}${facts?.title ?? ""}`) : undefined;
    entriesView.message = path ? undefined : "Select a session in the Sessions view to see its entries.";
  };
  const updateBadge = (): void => {
    const count = sessionsTree.wouldCompactCount();
    sessionsView.badge = count > 0 ? { value: count, tooltip: `${count} session(s) past pi's compaction threshold` } : undefined;
  };
  const watchSessions = (): void => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const piDirs = folders.flatMap((folder) => [piSessionDirForCwd(folder.uri.fsPath, settings.agentDir), ...ompDirsForCwd(folder.uri.fsPath, settings).slice(0, 1)]);
    const all = sessions.scope === "all";
    // piSessions.sessionFolders: a session written there shows up as one in an agent's folder does.
    piDirs.push(...settings.sessionFolders);
    if (all) piDirs.push(...sessions.watchedDirs());
    const roots = all ? [join(settings.agentDir, "sessions"), ...(settings.omp.enabled ? [settings.omp.sessionsRoot] : [])] : [];
    // omp's records, each followed alone, and the folders of the files they name (their writes).
    const recordedDirs = [...new Set(records.targets().map((path) => dirname(path)))];
    watcher.watch({ piDirs: [...new Set(piDirs)], piRoots: roots, include: settings.include, recordFolders: records.folders(), recordedDirs });
  };
  const showInEntries = (path: string | undefined): void => {
    active.set(path);
    entriesTree.show(path);
    updateEntriesTitle();
  };
  // Changes of the active session the user made (a row, a reader, a search hit), not the ones that follow the list.
  let selections = 0;
  let following = false;
  const showFollowingList = (path: string | undefined): void => {
    following = true;
    try {
      showInEntries(path);
    } finally {
      following = false;
    }
  };
  context.subscriptions.push(
    active.onDidChange(() => {
      if (!following) selections++;
    }),
  );
  const loadWindows = (): Promise<void> => windows.load();

  context.subscriptions.push(
    ...registerSessionsViewCommands(services),
    sessions.onDidChange((change) => {
      // The list changed: in all projects, every listed folder is watched.
      if (!change.paths) watchSessions();
      updateBadge();
      if (!change.paths || (entriesTree.path !== undefined && change.paths.includes(entriesTree.path))) updateEntriesTitle();
      // The first session becomes active once the list is known, so the status bar has something to show.
      if (!active.path) {
        const newest = sessions.allPaths()[0];
        if (newest) showFollowingList(newest);
      }
    }),
    store.onDidChange(({ path, change }) => {
      // The active session's file went away: nothing to show for it any more.
      if (change === "removed" && active.path === path) showFollowingList(undefined);
    }),
    windows.onDidLoad(() => sessions.recomputeAll()),
    entriesTree.onDidChangeTreeData(() => {
      updateEntriesTitle();
      reader.filterChanged(entriesTree.filter);
    }),
    entriesView.onDidChangeSelection((event) => {
      const node = event.selection[0];
      if (node?.kind === "entry") reader.entrySelected(node.sessionPath, node.entryId);
    }),
    sessionsView.onDidChangeSelection((event) => {
      const node = event.selection[0];
      if (node && isSessionNode(node)) showInEntries(node.path);
    }),
    sessionsView.onDidChangeVisibility((event) => {
      if (event.visible) void loadWindows();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTINGS_SECTION)) return;
      const before = settings;
      settings = readExtensionSettings();
      if (settings.presetsProblem) log.warn(settings.presetsProblem);
      if (before.agentDir !== settings.agentDir) windows.reset(settings.agentDir);
      watchSessions();
      void sessions.listMayHaveChanged()?.then(() => sessions.recomputeAll());
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      watchSessions();
      void sessions.listMayHaveChanged();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => sessions.recomputeAll()),
  );
  if (sessionsView.visible) void loadWindows();
  watchSessions();

  const refresh = async (): Promise<void> => {
    log.info("refresh requested");
    await sessions.rediscover();
    await Promise.all(store.paths().map((path) => store.refresh(path)));
    sessions.recomputeAll();
    sessionsTree.refresh();
    entriesTree.refresh();
  };

  const contextDocuments = new ReadOnlyDocuments(CONTEXT_DOCUMENT_SCHEME);
  const register = (id: string, run: (services: Services, raw: unknown) => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(id, (raw: unknown) => run(services, raw));
  context.subscriptions.push(
    vscode.commands.registerCommand(REFRESH_COMMAND_ID, refresh),
    register(COMPACT_COMMAND_ID, compactSession),
    register(PI_EXTENSION_SETUP_COMMAND_ID, setUpPiExtension),
    didCompact.event(() => offerPiExtensionAfterCompaction(services)),
    register(NAVIGATE_COMMAND_ID, navigateToEntry),
    register(SUMMARIZE_AND_NAVIGATE_COMMAND_ID, summarizeBranchAndNavigate),
    register(UNDO_COMMAND_ID, undoLastCompaction),
    contextDocuments,
    vscode.commands.registerCommand(SHOW_CONTEXT_COMMAND_ID, (raw: unknown) => showContext(services, contextDocuments, raw)),
    register(SHOW_SUMMARY_COMMAND_ID, showSummary),
    register(SET_API_KEY_COMMAND_ID, setApiKey),
    register(SELECT_PRESET_COMMAND_ID, selectPreset),
    register(MIGRATE_COMMAND_ID, migrateSession),
    register(SEARCH_COMMAND_ID, searchSessions),
    register("piSessions.navigateHere", navigateToEntry),
    register("piSessions.compactUpToHere", compactSession),
    register("piSessions.copyEntryJson", copyEntryJson),
    register("piSessions.openRawLine", openRawLine),
    register("piSessions.goToLeaf", goToLeaf),
    register("piSessions.filterEntries", filterEntries),
    vscode.commands.registerCommand(LOAD_EARLIER_COMMAND_ID, (node: EntryNode) => entriesTree.loadEarlier(node)),
    vscode.commands.registerCommand("piSessions.openSession", async (raw: unknown) => {
      const result = await openSession(services, raw);
      updateEntriesTitle();
      return result;
    }),
    registerFileSessionCommands(services),
    registerUsage(services),
    ...registerSessionActions(services),
    vscode.commands.registerCommand(INTERNALS_COMMAND_ID, () =>
      internals({ services, watcher, statusBar, notice, panel, reader, loadModelWindows: loadWindows }),
    ),
  );

  log.info(`activated (workspace trusted: ${vscode.workspace.isTrusted})`);
  return {
    log,
    sessions: sessionsTree,
    entries: entriesTree,
    refresh,
    onBeforeCompact: (handler, label) => toDisposable(hooks.on("before_compact", handler as never, label)),
    onBeforeBranchSummary: (handler, label) => toDisposable(hooks.on("before_branch_summary", handler as never, label)),
    onDidCompact: didCompact.event,
    onDidBranchSummary: didBranchSummary.event,
  };
}

function toDisposable(disposer: { dispose(): void }): vscode.Disposable {
  return new vscode.Disposable(() => disposer.dispose());
}

export function deactivate(): void {}
