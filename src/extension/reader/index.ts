// The session reader (issue 12): registerReader wires the controller, the
// WebviewPanelSerializer and the piSessions.openReader command ("Open
// Session": a session row's click, the Sessions and Entries views' menus).
import * as vscode from "vscode";
import { commandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import { ReaderController, type ReaderDeps } from "./reader-controller";
import { FIRST_PAINT_WAIT_MS, READER_VIEW_TYPE } from "./reader-panel";

export { READER_VIEW_TYPE } from "./reader-panel";
export type { ReaderController, ReaderSnapshot, ReaderTesting } from "./reader-controller";

export const OPEN_READER_COMMAND_ID = "piSessions.openReader";

/** Sessions with more entries than this show in the Entries view after the reader's first page. */
const SELECT_AFTER_FIRST_PAINT_ENTRIES = 5000;

export interface ReaderRegistration extends ReaderDeps {
  /** The session the command opens when given none (the active one). */
  activePath(): string | undefined;
  /** Selects the session (Entries view, active session) as a session row's click does. */
  select(sessionPath: string): void;
  /** How many times the user has changed the active session so far. */
  selections(): number;
}

export function registerReader(context: vscode.ExtensionContext, deps: ReaderRegistration): ReaderController {
  const controller = new ReaderController(context.extensionUri, deps);
  let opens = 0;
  const openReader = async (raw: unknown): Promise<CommandResult<{ sessionPath: string }>> => {
    const args = commandArgs(raw);
    const sessionPath = args.sessionPath ?? deps.activePath();
    if (!sessionPath) return notDone("no-session", "No session given.");
    const preview = typeof raw === "object" && raw !== null && (raw as { preview?: unknown }).preview === true;
    // A session not read yet, or a long one: the Entries view (which reads the whole file, or lists
    // thousands of rows) follows once the reader has shown the last turns, so they come first.
    const cold = !controller.isRead(sessionPath) || controller.entryCount(sessionPath) > SELECT_AFTER_FIRST_PAINT_ENTRIES;
    if (!cold) deps.select(sessionPath);
    const selections = deps.selections();
    const opening = ++opens;
    try {
      const panel = await controller.open(sessionPath, args.entryId, preview);
      // Unless the user moved on meanwhile: closed this reader, opened another session, or selected one.
      const stillWanted = () => opening === opens && !panel.isDisposed && panel.sessionPath === sessionPath && deps.selections() === selections;
      if (cold) void panel.whenShown(FIRST_PAINT_WAIT_MS).then(() => stillWanted() && deps.select(sessionPath));
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      deps.log.error(`open session: ${text}`);
      void vscode.window.showErrorMessage(`Pi Sessions: ${text}`);
      return notDone("error", text);
    }
    return ok({ sessionPath });
  };
  context.subscriptions.push(
    controller,
    vscode.window.registerWebviewPanelSerializer(READER_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => controller.restore(panel, state),
    }),
    vscode.commands.registerCommand(OPEN_READER_COMMAND_ID, openReader),
  );
  return controller;
}
