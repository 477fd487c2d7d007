// collectFilesTouched: the grounded manifest of a list of session entries
// (a whole branch root→leaf, or any sub-range such as a compaction span).
// Tool calls are paired with their results by id (pi's toolCall.id ↔
// toolResult.toolCallId; call_id / tool_use_id spellings are accepted too).

import type { Diagnostic } from "../diagnostics";
import type { SessionEntry } from "../session/format/types";
import type { FileAction } from "./actions";
import { analyzeBashCommand } from "./analyze-bash";
import { FilesLedger, opsString } from "./ledger";
import { displayPathOf, normalizeAbsolute, type PathContext } from "./paths";
import { toolCallActions, type ToolCallInfo, type ToolResultInfo } from "./tool-actions";

export interface FilesTouchedFile {
  /** Absolute path (or `~/…` under the home directory, `Root:rel` for an unknown RepoPrompt root). */
  path: string;
  /** Relative to the session cwd when inside it, else the absolute path. */
  displayPath: string;
  /** Letters from R W E M D, in that order. */
  ops: string;
}

export interface FilesTouched {
  cwd: string;
  /** Newest first. */
  files: FilesTouchedFile[];
  diagnostics: Diagnostic[];
}

export interface CollectFilesTouchedOptions {
  /** The session's working directory (the header's `cwd`). */
  cwd: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstString(obj: Json, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === "string" && v.length > 0) return v;
  }
  return undefined;
}

const CALL_ID_KEYS = ["id", "toolCallId", "call_id", "tool_use_id", "toolUseId", "callId"] as const;
const RESULT_ID_KEYS = ["toolCallId", "tool_call_id", "call_id", "tool_use_id", "toolUseId", "callId"] as const;
const TOOL_CALL_TYPES = new Set(["toolCall", "tool_use", "function_call", "tool_call", "custom_tool_call"]);

export function toolCallOf(block: unknown): (ToolCallInfo & { id?: string }) | undefined {
  if (!isObject(block) || typeof block.type !== "string" || !TOOL_CALL_TYPES.has(block.type)) return undefined;
  const name = block.name;
  if (typeof name !== "string" || name.length === 0) return undefined;
  let args: unknown = block.arguments ?? block.input;
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      args = isObject(parsed) ? parsed : { __raw: args };
    } catch {
      args = { __raw: args };
    }
  }
  const id = typeof block.id === "string" && block.id.length > 0 ? block.id : firstString(block, CALL_ID_KEYS);
  const call: ToolCallInfo & { id?: string } = { name, args: isObject(args) ? args : {} };
  if (id) call.id = id;
  return call;
}

export function messageOf(entry: SessionEntry): Json | undefined {
  if (entry.type !== "message") return undefined;
  const message: unknown = (entry as { message?: unknown }).message;
  return isObject(message) ? message : undefined;
}

/** The call id a tool result answers and whether it is an error; undefined for other entries. */
export function toolResultOf(entry: SessionEntry): { id: string; isError: boolean; resolvedPath?: string } | undefined {
  const message = messageOf(entry);
  if (!message || (message.role !== "toolResult" && message.role !== "tool")) return undefined;
  const id = firstString(message, RESULT_ID_KEYS);
  if (!id) return undefined;
  // omp's tools report the absolute path they touched.
  const details = message.details;
  const resolvedPath = isObject(details) && typeof details.resolvedPath === "string" && details.resolvedPath ? details.resolvedPath : undefined;
  return resolvedPath ? { id, isError: message.isError === true, resolvedPath } : { id, isError: message.isError === true };
}

function collectResults(entries: readonly SessionEntry[]): Map<string, ToolResultInfo> {
  const results = new Map<string, ToolResultInfo>();
  for (const entry of entries) {
    const result = toolResultOf(entry);
    if (result) results.set(result.id, result.resolvedPath ? { isError: result.isError, resolvedPath: result.resolvedPath } : { isError: result.isError });
  }
  return results;
}

/** Where a group of file actions came from: one tool call, or one `!` command the user ran. */
export interface ActionSource {
  entryId: string;
  /** The tool's name as the session wrote it; `bashExecution` for the user's `!` commands. */
  tool: string;
  /** The shell command, for bash-like tools and `!` commands. */
  command?: string;
  /** The tool call's arguments (pi's read/write/edit keep path, content, edits here). */
  args?: Record<string, unknown>;
  /** The call's id, when it has one. */
  toolCallId?: string;
}

export function commandOf(args: Record<string, unknown>): string | undefined {
  const command = args.command ?? args.cmd;
  if (typeof command === "string") return command;
  if (Array.isArray(command) && command.every((w) => typeof w === "string")) return command.join(" ");
  return undefined;
}

/** Every tool call and `!` command of `entries`, in order, with the file actions it took. */
export function forEachFileActionSource(
  entries: readonly SessionEntry[],
  opts: CollectFilesTouchedOptions,
  visit: (found: { actions: FileAction[]; diagnostics: Diagnostic[] }, source: ActionSource) => void,
): void {
  const ctx: PathContext = { sessionCwd: normalizeAbsolute(opts.cwd) };
  const results = collectResults(entries);
  for (const entry of entries) {
    const message = messageOf(entry);
    if (!message) continue;
    if (message.role === "assistant" && Array.isArray(message.content)) {
      for (const block of message.content) {
        const call = toolCallOf(block);
        if (!call) continue;
        const source: ActionSource = { entryId: entry.id, tool: call.name, args: call.args };
        const command = commandOf(call.args);
        if (command !== undefined) source.command = command;
        if (call.id) source.toolCallId = call.id;
        visit(toolCallActions(call, call.id ? results.get(call.id) : undefined, ctx), source);
      }
    } else if (message.role === "bashExecution" && typeof message.command === "string") {
      visit(analyzeBashCommand(message.command, { cwd: ctx.sessionCwd }), { entryId: entry.id, tool: "bashExecution", command: message.command });
    }
  }
}

/** The actions of every entry in order; exported for the bench and for per-span use. */
export function collectFileActions(entries: readonly SessionEntry[], opts: CollectFilesTouchedOptions): { actions: FileAction[]; diagnostics: Diagnostic[] } {
  const actions: FileAction[] = [];
  const diagnostics: Diagnostic[] = [];
  forEachFileActionSource(entries, opts, (found, source) => {
    actions.push(...found.actions);
    for (const d of found.diagnostics) diagnostics.push({ ...d, entryId: source.entryId });
  });
  return { actions, diagnostics };
}

/** Folds actions (in order) into the manifest's file list, newest first. */
export function filesFromActions(actions: readonly FileAction[], cwd: string): FilesTouchedFile[] {
  const ctx: PathContext = { sessionCwd: normalizeAbsolute(cwd) };
  const ledger = new FilesLedger();
  for (const action of actions) ledger.apply(action);
  return ledger.records().map((rec) => ({ path: rec.path, displayPath: displayPathOf(rec.path, ctx), ops: opsString(rec.ops) }));
}

export function collectFilesTouched(pathEntries: readonly SessionEntry[], opts: CollectFilesTouchedOptions): FilesTouched {
  const { actions, diagnostics } = collectFileActions(pathEntries, opts);
  return { cwd: opts.cwd, files: filesFromActions(actions, opts.cwd), diagnostics };
}

/** The manifest of a single bash command run in `cwd` (the corpus and the CLI use it). */
export function bashCommandFilesTouched(command: string, opts: CollectFilesTouchedOptions): FilesTouched {
  const { actions, diagnostics } = analyzeBashCommand(command, { cwd: opts.cwd });
  return { cwd: opts.cwd, files: filesFromActions(actions, opts.cwd), diagnostics };
}
