// Session files for the summary panel tests, written by pi's own
// SessionManager (0.73.1): a small project in a temp dir with files that
// exist, one a bash `rm` deleted, and one outside the project.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";

interface PiWriter {
  appendMessage(message: unknown): string;
  appendCompaction(summary: string, firstKeptEntryId: string, tokensBefore: number, details?: unknown, fromHook?: boolean): string;
  branchWithSummary(id: string | null, summary: string, details?: unknown, fromHook?: boolean): string;
  appendSessionInfo(name: string): string;
  getSessionFile(): string | undefined;
}

export interface PanelFixture {
  /** The session's cwd (a real folder). */
  project: string;
  /** A real folder that is neither the project nor a workspace root. */
  outside: string;
  sessionDir: string;
  writer: PiWriter;
  ids: Record<string, string>;
  path(): string;
  cleanup(): void;
}

let clock = 1_765_000_000_000;
const tick = (): number => (clock += 1000);

const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: tick() });

function assistant(text: string, calls: { id: string; name: string; arguments: Record<string, unknown> }[] = []) {
  return {
    role: "assistant",
    content: [...(text ? [{ type: "text", text }] : []), ...calls.map((c) => ({ type: "toolCall", ...c }))],
    api: "openai-completions",
    provider: "loopback-openai",
    model: "summarizer",
    usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: calls.length > 0 ? "toolUse" : "stop",
    timestamp: tick(),
  };
}

const result = (callId: string, toolName: string, text: string) => ({
  role: "toolResult",
  toolCallId: callId,
  toolName,
  content: [{ type: "text", text }],
  isError: false,
  timestamp: tick(),
});

/**
 * u1, then tool calls: read README.md, write src/app.ts, edit src/app.ts,
 * bash `rm old.txt`, read <outside>/notes.txt; then u2 and a text answer.
 * On disk: README.md, src/app.ts, <outside>/notes.txt (old.txt is gone).
 */
export function createPanelFixture(): PanelFixture {
  const root = mkdtempSync(join(tmpdir(), "pi-sessions-panel-"));
  const project = join(root, "project");
  const outside = join(root, "elsewhere");
  const sessionDir = join(root, "sessions");
  for (const dir of [join(project, "src"), outside, sessionDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(project, "README.md"), "# demo\n");
  writeFileSync(join(project, "src", "app.ts"), "export const app = 2;\n");
  writeFileSync(join(outside, "notes.txt"), "notes\n");

  const writer = SessionManager.create(project, sessionDir) as unknown as PiWriter;
  const ids: Record<string, string> = {};
  ids.u1 = writer.appendMessage(user("Set the project up."));
  ids.a1 = writer.appendMessage(assistant("", [{ id: "c1", name: "read", arguments: { path: "README.md" } }]));
  ids.r1 = writer.appendMessage(result("c1", "read", "# demo"));
  ids.a2 = writer.appendMessage(assistant("", [{ id: "c2", name: "write", arguments: { path: "src/app.ts", content: "export const app = 1;\n" } }]));
  ids.r2 = writer.appendMessage(result("c2", "write", "Wrote src/app.ts"));
  ids.a3 = writer.appendMessage(assistant("", [{ id: "c3", name: "edit", arguments: { path: "src/app.ts", edits: [{ oldText: "1", newText: "2" }] } }]));
  ids.r3 = writer.appendMessage(result("c3", "edit", "Applied 1 edit."));
  ids.a4 = writer.appendMessage(assistant("", [{ id: "c4", name: "bash", arguments: { command: "rm old.txt" } }]));
  ids.r4 = writer.appendMessage(result("c4", "bash", ""));
  ids.a5 = writer.appendMessage(assistant("", [{ id: "c5", name: "read", arguments: { path: join(outside, "notes.txt") } }]));
  ids.r5 = writer.appendMessage(result("c5", "read", "notes"));
  ids.u2 = writer.appendMessage(user("Now document it."));
  ids.a6 = writer.appendMessage(assistant("Documented."));
  return {
    project,
    outside,
    sessionDir,
    writer,
    ids,
    path: () => writer.getSessionFile()!,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
