// What the host does with a message from the reader webview. Pure (no
// vscode): the panel hands in a ReaderMessageTarget (the real one in
// reader-panel.ts, a fake in the unit tests). Every message is validated; a
// file is opened only when it is the path argument of that tool call in the
// session (the page names the entry and the call, never a path).
import { isReaderWebviewMessage } from "../../webview/reader-protocol";

export interface ToolCallFile {
  /** Absolute path, or undefined when it cannot be resolved (relative without a cwd, Root:rel). */
  path: string | undefined;
  /** As the tool call gave it. */
  given: string;
  /** Outside the workspace and the session's cwd: ask first. */
  outside: boolean;
}

export interface ReaderMessageTarget {
  /** `anchorId`: the entry a reloaded page was scrolled to (its page should hold it). */
  sendInit(anchorId?: string): void;
  sendEarlier(before: number): boolean;
  shown(blocks: number): void;
  /** The file of a tool call in the session (undefined: no such entry/call, or no path argument). */
  toolCallFile(entryId: string, toolCallId: string): ToolCallFile | undefined;
  confirmOutside(file: ToolCallFile): Promise<boolean>;
  openFile(path: string, preview: boolean): Promise<boolean>;
  hasEntry(entryId: string): boolean;
  revealEntry(entryId: string): Promise<void>;
}

export type ReaderRouteResult = { done: true; action: string } | { done: false; reason: string };

const refused = (reason: string): ReaderRouteResult => ({ done: false, reason });

export async function routeReaderMessage(message: unknown, target: ReaderMessageTarget): Promise<ReaderRouteResult> {
  if (!isReaderWebviewMessage(message)) return refused("invalid message");
  switch (message.type) {
    case "ready":
      target.sendInit(message.anchorId);
      return { done: true, action: "init" };
    case "shown":
      target.shown(message.blocks);
      return { done: true, action: "shown" };
    case "loadEarlier":
      return target.sendEarlier(message.before) ? { done: true, action: "earlier" } : refused("no earlier entries");
    case "revealEntry":
      if (!target.hasEntry(message.entryId)) return refused("not an entry of this session");
      await target.revealEntry(message.entryId);
      return { done: true, action: "revealEntry" };
    case "openFile": {
      const file = target.toolCallFile(message.entryId, message.toolCallId);
      if (!file) return refused("not a file of a tool call in this session");
      if (!file.path) return refused("where the file is is not known");
      if (file.outside && !(await target.confirmOutside(file))) return refused("declined: outside the workspace");
      return (await target.openFile(file.path, message.preview)) ? { done: true, action: "openFile" } : refused("the file does not exist");
    }
  }
}
