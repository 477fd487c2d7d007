// The pi session the summary panel suites use (extension host and workbench
// UI), as JSONL text in pi's v3 format. No vscode import: both suites bundle it.
// Its cwd is the test workspace; its tool calls wrote hello.ts, removed old.ts
// with bash and read a file outside the workspace; then two compactions: one
// as pi writes it (no pi-sessions details: the panel recomputes the files) and
// one as our runner writes it (files recorded).
import { join } from "node:path";

export const PANEL_SESSION_IDS = {
  u1: "u1000001",
  a1: "a1000001",
  a2: "a2000002",
  a3: "a3000003",
  u2: "u2000002",
  a4: "a4000004",
  piCompaction: "c0000001",
  ourCompaction: "c0000002",
  /** withTail only: a new turn after the compactions. */
  u3: "u3000003",
  a5: "a5000005",
  /** name only: the session_info entry, last in the file (the leaf). */
  info: "1nf00001",
} as const;

export const OUR_MODEL = "loopback-openai/summarizer";
export const OUR_SUMMARY = "## Goal\nGreet the world.\n\n## Done\n- [x] hello.ts written\n\n## Next Steps\n1. Add a test for hello.ts";

export interface PanelSessionOptions {
  /** The session's cwd. */
  workspace: string;
  /** An existing file outside the workspace (read by the session). */
  outsideFile: string;
  /** A new turn after the compactions, so the session can be compacted again. */
  withTail?: boolean;
  /** pi's session name (session_info), e.g. for the Sessions view. */
  name?: string;
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
      provider: "loopback-openai",
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

export function panelSessionText(options: PanelSessionOptions): string {
  const { workspace, outsideFile } = options;
  const ids = PANEL_SESSION_IDS;
  const lines: Record<string, unknown>[] = [
    { type: "session", version: 3, id: "5f0c1d2e-0000-4000-8000-5a11a9e1c0de", timestamp: at(0), cwd: workspace },
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
    lines.push(
      user(ids.u3, ids.ourCompaction, 12, "Add a test for hello."),
      assistant(ids.a5, ids.u3, 13, [{ type: "text", text: "A test would import hello.ts and check the greeting." }]),
    );
  }
  if (options.name) lines.push({ type: "session_info", id: ids.info, parentId: lines.at(-1)!.id, timestamp: at(14), name: options.name });
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}
