// The reader's protocol validated both ways, and the host's router: a page
// can post anything, and only the file a tool call in the session names is
// opened (asking first outside the workspace and the session's cwd).
import { describe, expect, it } from "vitest";
import { sessionFromBytes } from "../../../src/core/session/open/open-session";
import { toolCallFile } from "../../../src/extension/reader/reader-files";
import { routeReaderMessage, type ReaderMessageTarget, type ToolCallFile } from "../../../src/extension/reader/reader-router";
import { isReaderHostMessage, isReaderWebviewMessage, isPersistedReaderState } from "../../../src/webview/reader-protocol";
import { assistant, header, jsonl, user } from "./support/session-text";

const state = { version: 1, sessionPath: "/s.jsonl", title: "t", leafId: "a", follow: true, filter: "all" };
const block = { id: "a", kind: "user", timestamp: "", text: "hi" };

describe("protocol", () => {
  it("host messages: valid ones pass, malformed ones are refused", () => {
    expect(isReaderHostMessage({ type: "init", state, blocks: [block], start: 0, total: 1 })).toBe(true);
    expect(isReaderHostMessage({ type: "init", state, blocks: [block], start: 1, total: 1 })).toBe(false);
    expect(isReaderHostMessage({ type: "init", state: { ...state, filter: "everything" }, blocks: [], start: 0, total: 0 })).toBe(false);
    expect(isReaderHostMessage({ type: "append", blocks: [{ ...block, kind: "html" }], total: 1 })).toBe(false);
    expect(isReaderHostMessage({ type: "append", blocks: [{ ...block, tokens: -1 }], total: 1 })).toBe(false);
    expect(isReaderHostMessage({ type: "append", blocks: [{ ...block, parts: [{ type: "toolCall", call: { id: "c", name: "x" } }] }], total: 1 })).toBe(false);
    expect(isReaderHostMessage({ type: "changed", blocks: [{ ...block, edit: { editId: "e", replacement: 5 } }] })).toBe(false);
    expect(isReaderHostMessage({ type: "reveal", entryId: "" })).toBe(false);
    expect(isReaderHostMessage({ type: "earlier", blocks: Array(2001).fill(block), start: 0 })).toBe(false);
    expect(isReaderHostMessage({ type: "eval", code: "x" })).toBe(false);
  });

  it("webview messages: ids only, never a path", () => {
    expect(isReaderWebviewMessage({ type: "openFile", entryId: "a", toolCallId: "c", preview: true })).toBe(true);
    expect(isReaderWebviewMessage({ type: "openFile", path: "/etc/passwd", preview: true })).toBe(false);
    expect(isReaderWebviewMessage({ type: "loadEarlier", before: -1 })).toBe(false);
    expect(isReaderWebviewMessage({ type: "revealEntry", entryId: "x".repeat(300) })).toBe(false);
    expect(isReaderWebviewMessage(null)).toBe(false);
    expect(isPersistedReaderState({ reader: state })).toBe(true);
    expect(isPersistedReaderState({ reader: { ...state, version: 2 } })).toBe(false);
  });
});

const session = sessionFromBytes(
  new TextEncoder().encode(
    jsonl([
      header("/work/project"),
      user("u1", null, "go"),
      assistant("a1", "u1", "", [
        { id: "in", name: "read", arguments: { path: "src/a.ts" } },
        { id: "out", name: "read", arguments: { path: "/etc/hosts" } },
        { id: "home", name: "edit", arguments: { file_path: "~/notes.md" } },
        { id: "cmd", name: "bash", arguments: { command: "ls" } },
      ]),
    ]),
  ),
);

describe("the file of a tool call", () => {
  const env = { workspaceRoots: ["/work/other"], homeDir: "/home/u" };
  it("relative paths resolve against the session's cwd and are inside it", () => {
    expect(toolCallFile(session, "a1", "in", env)).toEqual({ path: "/work/project/src/a.ts", given: "src/a.ts", outside: false });
  });
  it("elsewhere is outside; ~ is the home folder", () => {
    expect(toolCallFile(session, "a1", "out", env)).toEqual({ path: "/etc/hosts", given: "/etc/hosts", outside: true });
    expect(toolCallFile(session, "a1", "home", env)?.path).toBe("/home/u/notes.md");
    expect(toolCallFile(session, "a1", "home", { ...env, workspaceRoots: ["/home/u"] })?.outside).toBe(false);
  });
  it("no path argument, no such call, not an assistant: nothing", () => {
    expect(toolCallFile(session, "a1", "cmd", env)).toBeUndefined();
    expect(toolCallFile(session, "a1", "nope", env)).toBeUndefined();
    expect(toolCallFile(session, "u1", "in", env)).toBeUndefined();
  });
});

function fakeTarget(answer: boolean) {
  const calls: string[] = [];
  const target: ReaderMessageTarget = {
    sendInit: (anchorId?: string) => calls.push(anchorId === undefined ? "init" : `init at ${anchorId}`),
    sendEarlier: (before) => (calls.push(`earlier ${before}`), before === 5),
    shown: (n) => calls.push(`shown ${n}`),
    toolCallFile: (entryId, callId) => toolCallFile(session, entryId, callId, { workspaceRoots: [], homeDir: "/home/u" }),
    confirmOutside: async (file: ToolCallFile) => (calls.push(`ask ${file.path}`), answer),
    openFile: async (path) => (calls.push(`open ${path}`), true),
    hasEntry: (id) => session.index.get(id) !== undefined,
    revealEntry: async (id) => void calls.push(`reveal ${id}`),
  };
  return { target, calls };
}

describe("router", () => {
  it("opens a file inside without asking; asks outside and respects No", async () => {
    const { target, calls } = fakeTarget(false);
    expect(await routeReaderMessage({ type: "openFile", entryId: "a1", toolCallId: "in", preview: true }, target)).toEqual({ done: true, action: "openFile" });
    expect(await routeReaderMessage({ type: "openFile", entryId: "a1", toolCallId: "out", preview: true }, target)).toEqual({ done: false, reason: "declined: outside the workspace" });
    expect(calls).toEqual(["open /work/project/src/a.ts", "ask /etc/hosts"]);
  });

  it("refuses what the session does not name", async () => {
    const { target, calls } = fakeTarget(true);
    expect((await routeReaderMessage({ type: "openFile", entryId: "a1", toolCallId: "cmd", preview: true }, target)).done).toBe(false);
    expect((await routeReaderMessage({ type: "openFile", path: "/etc/passwd" }, target)).done).toBe(false);
    expect((await routeReaderMessage({ type: "revealEntry", entryId: "zz" }, target)).done).toBe(false);
    expect((await routeReaderMessage({ type: "loadEarlier", before: 3 }, target)).done).toBe(false);
    expect(calls).toEqual(["earlier 3"]);
  });

  it("ready, shown, reveal and earlier pages reach the panel", async () => {
    const { target, calls } = fakeTarget(true);
    await routeReaderMessage({ type: "ready" }, target);
    await routeReaderMessage({ type: "ready", anchorId: "a1" }, target);
    await routeReaderMessage({ type: "shown", blocks: 3 }, target);
    await routeReaderMessage({ type: "revealEntry", entryId: "u1" }, target);
    await routeReaderMessage({ type: "loadEarlier", before: 5 }, target);
    expect((await routeReaderMessage({ type: "ready", anchorId: 5 }, target)).done).toBe(false);
    expect(calls).toEqual(["init", "init at a1", "shown 3", "reveal u1", "earlier 5"]);
  });
});
