// Session files for the writer tests, written by pi's own SessionManager
// (0.73.1), and the oracle's view of a file after we wrote to it. pi's
// SessionManager.open rewrites v1/v2 files and files without a header, so
// the oracle always opens a copy.

import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { buildSessionContext, SessionManager } from "@mariozechner/pi-coding-agent";

export const PROVIDER = "loopback-openai";
export const MODEL_ID = "summarizer";

export function tempDir(prefix = "pi-sessions-write-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export const sha = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

interface PiWriter {
  appendMessage(message: unknown): string;
  appendCompaction(summary: string, firstKeptEntryId: string, tokensBefore: number, details?: unknown, fromHook?: boolean): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  appendModelChange(provider: string, modelId: string): string;
  branch(id: string): void;
  branchWithSummary(id: string | null, summary: string, details?: unknown, fromHook?: boolean): string;
  getLeafId(): string | null;
  getBranch(id?: string): { id: string; type: string }[];
  getSessionFile(): string | undefined;
}

let clock = 1_765_000_000_000;
const tick = (): number => (clock += 1000);
/** Characters written so far, so assistant usage grows like a real context (about 4 chars per token). */
let contextChars = 0;

export const user = (text: string): Record<string, unknown> => {
  contextChars += text.length;
  return { role: "user", content: [{ type: "text", text }], timestamp: tick() };
};

export interface ModelRef {
  provider: string;
  model: string;
}

export function assistantMessage(
  text: string,
  calls: { id: string; name: string; arguments: Record<string, unknown> }[] = [],
  model: ModelRef = { provider: PROVIDER, model: MODEL_ID },
): Record<string, unknown> {
  contextChars += text.length + JSON.stringify(calls).length;
  const total = Math.ceil(contextChars / 4) + 500;
  return {
    role: "assistant",
    content: [...(text ? [{ type: "text", text }] : []), ...calls.map((c) => ({ type: "toolCall", ...c }))],
    api: "openai-completions",
    provider: model.provider,
    model: model.model,
    usage: { input: total - 100, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: total, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: calls.length > 0 ? "toolUse" : "stop",
    timestamp: tick(),
  };
}

export const assistant = assistantMessage;

export function toolResult(callId: string, toolName: string, text: string, isError = false): Record<string, unknown> {
  contextChars += text.length;
  return { role: "toolResult", toolCallId: callId, toolName, content: [{ type: "text", text }], isError, timestamp: tick() };
}

const filler = (label: string, chars: number): string => `${label} ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(chars / 27))}`.slice(0, chars);

export interface BuiltSession {
  path: string;
  /** Ids by name, for the tests to refer to. */
  ids: Record<string, string>;
}

function writer(dir: string): PiWriter {
  return SessionManager.create("/work/project", dir) as unknown as PiWriter;
}

/**
 * Two earlier turns (history), then a long last turn: a user request and
 * `rounds` tool rounds of ~`roundChars` characters each. With keepRecentTokens
 * below the last turn's size, the cut lands inside it: a split turn.
 */
export function longTurnSession(dir: string, options: { rounds?: number; roundChars?: number; model?: ModelRef } = {}): BuiltSession {
  const sm = writer(dir);
  contextChars = 0;
  const assistant = (text: string, calls: Parameters<typeof assistantMessage>[1] = []) => assistantMessage(text, calls, options.model);
  const ids: Record<string, string> = {};
  const rounds = options.rounds ?? 8;
  const size = options.roundChars ?? 2000;
  ids.u1 = sm.appendMessage(user("Add a --json flag to the list command. Keep the text output as it is."));
  ids.a1 = sm.appendMessage(assistant("", [{ id: "c1", name: "read", arguments: { path: "src/cli.ts" } }]));
  ids.r1 = sm.appendMessage(toolResult("c1", "read", filler("cli source", size)));
  ids.a1b = sm.appendMessage(assistant(filler("I read the CLI; the list command prints rows", size)));
  ids.u2 = sm.appendMessage(user("Go ahead and implement it."));
  ids.a2 = sm.appendMessage(assistant("", [{ id: "c2", name: "edit", arguments: { path: "src/cli.ts", edits: [{ oldText: "a", newText: "b" }] } }]));
  ids.r2 = sm.appendMessage(toolResult("c2", "edit", "Applied 1 edit."));
  ids.a2b = sm.appendMessage(assistant(filler("Done: --json prints the todos as an array", size)));
  ids.u3 = sm.appendMessage(user("Now run the tests and fix what fails."));
  for (let i = 0; i < rounds; i++) {
    const callId = `t${i}`;
    ids[`a3_${i}`] = sm.appendMessage(assistant(filler(`round ${i}`, size / 2), [{ id: callId, name: "bash", arguments: { command: `npm test -- --grep case${i} > out${i}.log` } }]));
    ids[`r3_${i}`] = sm.appendMessage(toolResult(callId, "bash", i === 1 ? "Error: expected [] but got undefined\n at list.test.ts:12" : filler(`ok ${i}`, size / 2), i === 1));
  }
  ids.a3end = sm.appendMessage(assistant("All tests pass now."));
  return { path: sm.getSessionFile()!, ids };
}

/** A session with a branch: main line u1 a1 u2 a2, and from a1 a side branch s1 s2 (the file's last entries). */
export function branchedSession(dir: string): BuiltSession {
  const sm = writer(dir);
  const ids: Record<string, string> = {};
  ids.u1 = sm.appendMessage(user("Refactor the store module."));
  ids.a1 = sm.appendMessage(assistant("Plan: split store.ts into read and write parts."));
  ids.u2 = sm.appendMessage(user("Do it."));
  ids.a2 = sm.appendMessage(assistant("", [{ id: "w1", name: "write", arguments: { path: "src/store-read.ts", content: "x" } }]));
  ids.r2 = sm.appendMessage(toolResult("w1", "write", "Wrote src/store-read.ts"));
  ids.a2b = sm.appendMessage(assistant("Split done."));
  sm.branch(ids.a1);
  ids.s1 = sm.appendMessage(user("Actually, try an archive file instead."));
  ids.s2 = sm.appendMessage(assistant("", [{ id: "m1", name: "bash", arguments: { command: "mv src/store.ts src/archive.ts" } }]));
  ids.s3 = sm.appendMessage(toolResult("m1", "bash", ""));
  ids.s4 = sm.appendMessage(assistant("Moved store.ts to archive.ts."));
  return { path: sm.getSessionFile()!, ids };
}

export interface PiView {
  entries: Record<string, unknown>[];
  leafId: string | null;
  context: { messages: unknown[]; thinkingLevel: string; model: unknown };
  /** The copy pi opened (for its bytes). */
  copy: string;
}

/** pi's SessionManager.open on a copy: what pi sees when it resumes the file. */
export function piOpen(file: string, dir: string): PiView {
  const copy = join(dir, `pi-copy-${Math.random().toString(36).slice(2)}-${basename(file)}`);
  copyFileSync(file, copy);
  const sm = SessionManager.open(copy);
  return {
    entries: sm.getEntries() as unknown as Record<string, unknown>[],
    leafId: sm.getLeafId(),
    context: sm.buildSessionContext() as unknown as PiView["context"],
    copy,
  };
}

/** pi's context at an entry of the file (its own reading, on a copy). */
export function piContextAt(file: string, dir: string, leafId: string | null): PiView["context"] {
  const copy = join(dir, `pi-at-${Math.random().toString(36).slice(2)}-${basename(file)}`);
  copyFileSync(file, copy);
  const sm = SessionManager.open(copy);
  return buildSessionContext(sm.getEntries(), leafId) as unknown as PiView["context"];
}
