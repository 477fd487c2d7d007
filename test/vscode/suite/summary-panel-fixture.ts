// A pi session for the summary panel suites, written line by line in pi's v3
// format into the launch's scratch folder (never the committed fixtures):
// its cwd is the test workspace, its tool calls wrote hello.ts, removed
// old.ts with bash and read a file outside the workspace; then two
// compactions: one as pi writes it (no pi-sessions details: the panel
// recomputes the files) and one as our runner writes it (files recorded).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { SummaryPanelController } from "../../../src/extension/summary-panel/index";
import type { SummaryPanelState } from "../../../src/webview/protocol";
import { activateExtension } from "./extension-under-test";

/** The extension's panel controller, from its hidden internals command (the extension's own instance, not a copy bundled with the test). */
export async function summaryPanelController(): Promise<SummaryPanelController> {
  await activateExtension();
  const internals = (await vscode.commands.executeCommand("_piSessions.internals")) as { panel?: SummaryPanelController } | undefined;
  if (!internals?.panel) throw new Error("the extension's internals command did not give the summary panel");
  return internals.panel;
}

export interface PanelSession {
  path: string;
  workspace: string;
  /** An existing file outside the workspace and the session cwd. */
  outsideFile: string;
  ids: { u1: string; a1: string; a2: string; a3: string; u2: string; a4: string; piCompaction: string; ourCompaction: string };
}

const T0 = Date.parse("2026-01-10T09:00:00.000Z");
const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

function assistant(id: string, parentId: string, seconds: number, content: unknown[]): Record<string, unknown> {
  return {
    type: "message",
    id,
    parentId,
    timestamp: at(seconds),
    message: {
      role: "assistant",
      content,
      api: "openai-completions",
      provider: "loopback",
      model: "summarizer",
      usage: { input: 900, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: content.some((c) => (c as { type?: string }).type === "toolCall") ? "toolUse" : "stop",
      timestamp: T0 + seconds * 1000,
    },
  };
}

function toolResult(id: string, parentId: string, seconds: number, callId: string, toolName: string, text: string): Record<string, unknown> {
  return {
    type: "message",
    id,
    parentId,
    timestamp: at(seconds),
    message: { role: "toolResult", toolCallId: callId, toolName, content: [{ type: "text", text }], isError: false, timestamp: T0 + seconds * 1000 },
  };
}

function user(id: string, parentId: string | null, seconds: number, text: string): Record<string, unknown> {
  return { type: "message", id, parentId, timestamp: at(seconds), message: { role: "user", content: [{ type: "text", text }], timestamp: T0 + seconds * 1000 } };
}

export const OUR_MODEL = "loopback/summarizer";
export const OUR_SUMMARY = "## Goal\nGreet the world.\n\n## Done\n- [x] hello.ts written";

/** `withTail`: a new turn after the compactions (u3, a5), so the session can be compacted again. */
export function writePanelSession(options: { withTail?: boolean } = {}): PanelSession {
  const workspace = process.env.PI_SESSIONS_TEST_WORKSPACE;
  if (!workspace) throw new Error("PI_SESSIONS_TEST_WORKSPACE is not set: run through npm run test:vscode");
  const dir = mkdtempSync(join(tmpdir(), "summary-panel-"));
  const outsideDir = join(dir, "elsewhere");
  mkdirSync(outsideDir);
  const outsideFile = join(outsideDir, "notes.txt");
  writeFileSync(outsideFile, "notes outside the workspace\n");
  const ids = { u1: "u1000001", a1: "a1000001", a2: "a2000002", a3: "a3000003", u2: "u2000002", a4: "a4000004", piCompaction: "c0000001", ourCompaction: "c0000002" };
  const lines: Record<string, unknown>[] = [
    { type: "session", version: 3, id: "5f0c1d2e-summary-panel", timestamp: at(0), cwd: workspace },
    user(ids.u1, null, 1, "Write hello.ts and clean up."),
    assistant(ids.a1, ids.u1, 2, [{ type: "toolCall", id: "call1", name: "write", arguments: { path: "hello.ts", content: "export const hello = 'world';\n" } }]),
    toolResult("r1000001", ids.a1, 3, "call1", "write", "Wrote hello.ts"),
    assistant(ids.a2, "r1000001", 4, [{ type: "toolCall", id: "call2", name: "bash", arguments: { command: "rm old.ts" } }]),
    toolResult("r2000002", ids.a2, 5, "call2", "bash", ""),
    assistant(ids.a3, "r2000002", 6, [{ type: "toolCall", id: "call3", name: "read", arguments: { path: outsideFile } }]),
    toolResult("r3000003", ids.a3, 7, "call3", "read", "notes outside the workspace"),
    user(ids.u2, "r3000003", 8, "Now explain it."),
    assistant(ids.a4, ids.u2, 9, [{ type: "text", text: "hello.ts exports a greeting." }]),
    { type: "compaction", id: ids.piCompaction, parentId: ids.a4, timestamp: at(10), summary: "## Goal\nAs pi wrote it.", firstKeptEntryId: ids.u2, tokensBefore: 5000 },
    {
      type: "compaction",
      id: ids.ourCompaction,
      parentId: ids.piCompaction,
      timestamp: at(11),
      summary: OUR_SUMMARY,
      firstKeptEntryId: ids.u2,
      tokensBefore: 4200,
      details: {
        readFiles: [outsideFile],
        modifiedFiles: ["hello.ts"],
        model: OUR_MODEL,
        piSessions: {
          version: 1,
          digest: false,
          filesTouched: [
            { path: outsideFile, displayPath: outsideFile, ops: "R" },
            { path: join(workspace, "old.ts"), displayPath: "old.ts", ops: "D" },
            { path: join(workspace, "hello.ts"), displayPath: "hello.ts", ops: "W" },
          ],
        },
      },
    },
  ];
  if (options.withTail) {
    lines.push(user("u3000003", ids.ourCompaction, 12, "Add a test for hello."), assistant("a5000005", "u3000003", 13, [{ type: "text", text: "A test would import hello.ts." }]));
  }
  const path = join(dir, "2026-01-10T09-00-00-000Z_summary-panel.jsonl");
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return { path, workspace, outsideFile, ids };
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function fileRow(state: SummaryPanelState, displayPath: string) {
  const row = state.files.find((file) => file.displayPath === displayPath);
  if (!row) throw new Error(`no manifest row ${displayPath} in ${state.files.map((file) => file.displayPath).join(", ")}`);
  return row;
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  await waitFor("all editors closed", () => vscode.window.tabGroups.all.every((group) => group.tabs.length === 0) || undefined);
}
