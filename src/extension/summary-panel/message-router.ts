// What the host does with a message from the summary webview. Pure (no
// vscode): the panel hands in a PanelMessageTarget (the real one in
// summary-panel.ts, a fake in the unit tests). Every message is validated
// (isWebviewMessage), and a path is only opened when it is one of the
// panel's manifest rows: a webview page could post anything.

import { isChangedFile, isModifiedFile, isWebviewMessage, type SummaryFile, type SummaryPanelState } from "../../webview/protocol";

export interface PanelMessageTarget {
  /** The state the panel shows now. */
  state(): SummaryPanelState;
  /** The webview (re)loaded: send it the state. */
  sendInit(): void;
  /** Opens one manifest file in an editor tab. */
  openFile(file: SummaryFile, preview: boolean): Promise<void>;
  /** Asks before opening files outside the workspace and the session cwd; true = open. */
  confirmOutside(files: readonly SummaryFile[]): Promise<boolean>;
  /** A preview waits for its answer: hand it the text. false when nothing waits (anymore). */
  apply(text: string): boolean;
  /** Write nothing and close the preview. false when it was applied already. */
  discard(): boolean;
  copyMarkdown(text: string): Promise<void>;
  revealEntry(entryId: string): Promise<void>;
  /** What the session did to one manifest file (the diff editor). */
  showChanges(file: SummaryFile): Promise<void>;
  /** A deleted file's last content as the session holds it (or why there is none). */
  showLastContent(file: SummaryFile): Promise<void>;
}

export type RouteResult =
  | { done: true; action: string }
  | { done: false; reason: string };

function refused(reason: string): RouteResult {
  return { done: false, reason };
}

/** Entry ids the panel shows as links (the only ones it may ask to reveal). */
export function revealableIds(state: SummaryPanelState): string[] {
  const ids = [state.entryId, state.firstKeptEntryId, state.fromId === "root" ? undefined : state.fromId];
  return ids.filter((id): id is string => id !== undefined);
}

async function openOne(target: PanelMessageTarget, path: string, preview: boolean): Promise<RouteResult> {
  const file = target.state().files.find((candidate) => candidate.path === path);
  if (!file) return refused("not a file of this summary");
  if (file.deleted) {
    await target.showLastContent(file);
    return { done: true, action: "showLastContent" };
  }
  if (file.outside && !(await target.confirmOutside([file]))) return refused("declined: outside the workspace");
  await target.openFile(file, preview);
  return { done: true, action: "openFile" };
}

async function openAllModified(target: PanelMessageTarget): Promise<RouteResult> {
  const modified = target.state().files.filter(isModifiedFile);
  if (modified.length === 0) return refused("no modified files");
  const outside = modified.filter((file) => file.outside);
  const allowOutside = outside.length > 0 && (await target.confirmOutside(outside));
  const opening = modified.filter((file) => !file.outside || allowOutside);
  // Kept tabs (not preview): each would replace the one before.
  for (const file of opening) await target.openFile(file, false);
  return opening.length > 0 ? { done: true, action: `openAllModified ${opening.length}` } : refused("declined: outside the workspace");
}

export async function routeWebviewMessage(message: unknown, target: PanelMessageTarget): Promise<RouteResult> {
  if (!isWebviewMessage(message)) return refused("invalid message");
  const state = target.state();
  switch (message.type) {
    case "ready":
      target.sendInit();
      return { done: true, action: "init" };
    case "openFile":
      return openOne(target, message.path, message.preview);
    case "openAllModified":
      return openAllModified(target);
    case "apply":
      if (state.mode !== "preview" || state.readOnly) return refused("nothing to apply");
      return target.apply(message.text) ? { done: true, action: "apply" } : refused("nothing waits for this preview");
    case "discard":
      if (state.mode !== "preview") return refused("nothing to discard");
      return target.discard() ? { done: true, action: "discard" } : refused("already applied");
    case "copyMarkdown":
      await target.copyMarkdown(message.text);
      return { done: true, action: "copyMarkdown" };
    case "showChanges": {
      const file = state.files.find((candidate) => candidate.path === message.path);
      if (!file) return refused("not a file of this summary");
      if (!isChangedFile(file)) return refused("the session did not change this file");
      await target.showChanges(file);
      return { done: true, action: "showChanges" };
    }
    case "revealEntry":
      if (!revealableIds(state).includes(message.entryId)) return refused("not an entry of this summary");
      await target.revealEntry(message.entryId);
      return { done: true, action: "revealEntry" };
  }
}
