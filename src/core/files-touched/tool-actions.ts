// File actions of one tool call, given its result (undefined when the session
// has none). Policy for failed calls:
// - read/write/edit, RepoPrompt and the editor tool: an error result means
//   nothing happened; no result at all (interrupted session) counts the call.
// - bash, exec_command, shell and the user's `!` commands: effects are kept
//   even when the command failed, since it may have written files first.
// - Codex apply_patch: only a result that is not an error confirms it.
// - grep names a file it reads when its path is a single file; find and ls
//   only list names: no letters.

import type { Diagnostic } from "../diagnostics";
import type { FileAction } from "./actions";
import { analyzeBashCommand } from "./analyze-bash";
import { parseApplyPatch } from "./apply-patch";
import { isHashlinePatch, parseHashlinePatch } from "./hashline-patch";
import { basename, looksLikeFile, normalizeAbsolute, resolvePath, type PathContext } from "./paths";
import { rpCallOperations, rpExecOperations, type RpOperation } from "./repoprompt";

export interface ToolCallInfo {
  name: string;
  args: Record<string, unknown>;
}

export interface ToolResultInfo {
  isError: boolean;
  /** The absolute path the tool reports it touched (omp's `details.resolvedPath`). */
  resolvedPath?: string;
}

export interface ToolActions {
  actions: FileAction[];
  diagnostics: Diagnostic[];
}

const NONE: ToolActions = { actions: [], diagnostics: [] };

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** A path as a tool wrote it: pi drops a leading `@`; `Root:rel` is RepoPrompt's root-relative form. */
export function resolveToolPath(raw: string, ctx: PathContext, base = ctx.sessionCwd): string | undefined {
  let path = raw.trim().replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ");
  if (path.startsWith("@")) path = path.slice(1);
  const rooted = /^([^/:\s\\]{2,}):(.+)$/.exec(path);
  if (rooted) {
    const [, root, rel] = rooted as unknown as [string, string, string];
    const cwd = normalizeAbsolute(ctx.sessionCwd);
    if (root === basename(cwd)) return resolvePath(rel.replace(/^\/+/, ""), cwd, ctx);
    return `${root}:${rel.replace(/^\/+/, "")}`;
  }
  return resolvePath(path, base, ctx);
}

function touch(op: "R" | "W" | "E" | "D", raw: unknown, ctx: PathContext): FileAction[] {
  const text = str(raw);
  const path = text === undefined ? undefined : resolveToolPath(text, ctx);
  return path === undefined ? [] : [{ kind: "touch", op, path }];
}

function fromRp(ops: readonly RpOperation[], ctx: PathContext): FileAction[] {
  return ops.flatMap((o): FileAction[] => {
    if (o.op !== "move") return touch(o.op, o.path, ctx);
    const from = resolveToolPath(o.from, ctx);
    const to = resolveToolPath(o.to, ctx);
    return from && to ? [{ kind: "move", from, to, into: false }] : [];
  });
}

function bash(command: unknown, ctx: PathContext, cwd = ctx.sessionCwd): ToolActions {
  const text = str(command);
  if (text === undefined) return NONE;
  return analyzeBashCommand(text, { cwd, sessionCwd: ctx.sessionCwd });
}

function patchActions(patch: unknown, ctx: PathContext, base: string): FileAction[] {
  const text = str(patch);
  if (text === undefined) return [];
  return parseApplyPatch(text).flatMap((o): FileAction[] => {
    if (o.op !== "move") {
      const path = resolveToolPath(o.path, ctx, base);
      return path ? [{ kind: "touch", op: o.op, path }] : [];
    }
    const from = resolveToolPath(o.from, ctx, base);
    const to = resolveToolPath(o.to, ctx, base);
    return from && to ? [{ kind: "move", from, to, into: false }] : [];
  });
}

function hashlineActions(input: string, ctx: PathContext): FileAction[] {
  return parseHashlinePatch(input).flatMap((o): FileAction[] => {
    if (o.op !== "move") return touch(o.op, o.path, ctx);
    const from = resolveToolPath(o.from, ctx);
    const to = resolveToolPath(o.to, ctx);
    return from && to ? [{ kind: "move", from, to, into: false }] : [];
  });
}

// Codex shell tools take argv arrays: ["bash", "-lc", "script"], ["apply_patch", "patch"], or a plain argv.
function argvActions(argv: readonly unknown[], ctx: PathContext, cwd: string, confirmed: boolean): ToolActions {
  const words = argv.filter((w): w is string => typeof w === "string");
  if (words.length !== argv.length || words.length === 0) return NONE;
  if (words[0] === "apply_patch" || words[0] === "applypatch") {
    return { actions: confirmed ? patchActions(words[1], ctx, cwd) : [], diagnostics: [] };
  }
  const shell = /^(?:\/\S*\/)?(?:ba|z|da|k)?sh$/.test(words[0]!) ? words.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w)) : -1;
  if (shell > 0 && words[shell + 1] !== undefined) return bash(words[shell + 1], ctx, cwd);
  const quoted = words.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`));
  return bash(quoted.join(" "), ctx, cwd);
}

export function toolCallActions(call: ToolCallInfo, result: ToolResultInfo | undefined, ctx: PathContext): ToolActions {
  const name = call.name.toLowerCase();
  const args = call.args;
  const failed = result?.isError === true;
  const path = args.path ?? args.file_path ?? args.filePath;
  switch (name) {
    case "read":
      return failed ? NONE : { actions: touch("R", result?.resolvedPath ?? path, ctx), diagnostics: [] };
    case "write":
      return failed ? NONE : { actions: touch("W", result?.resolvedPath ?? path, ctx), diagnostics: [] };
    case "edit":
    case "multiedit": {
      if (failed) return NONE;
      // omp's hashline and apply_patch edit modes name their files inside `input`.
      const input = path === undefined ? str(args.input) : undefined;
      if (input !== undefined) return { actions: isHashlinePatch(input) ? hashlineActions(input, ctx) : patchActions(input, ctx, ctx.sessionCwd), diagnostics: [] };
      return { actions: touch("E", result?.resolvedPath ?? path, ctx), diagnostics: [] };
    }
    case "str_replace_based_edit_tool":
    case "str_replace_editor": {
      if (failed) return NONE;
      const command = str(args.command);
      const op = command === "view" ? "R" : command === "create" ? "W" : command ? "E" : undefined;
      return op ? { actions: touch(op, path, ctx), diagnostics: [] } : NONE;
    }
    case "grep": {
      const target = str(path);
      return !failed && target !== undefined && looksLikeFile(target) && !str(args.glob) ? { actions: touch("R", target, ctx), diagnostics: [] } : NONE;
    }
    case "bash":
      return bash(args.command ?? args.cmd, ctx);
    case "exec_command":
    case "shell":
    case "local_shell":
    case "container.exec": {
      const workdir = str(args.workdir) ?? str(args.cwd);
      const cwd = workdir ? (resolvePath(workdir, ctx.sessionCwd, ctx) ?? ctx.sessionCwd) : ctx.sessionCwd;
      const command = args.cmd ?? args.command;
      if (Array.isArray(command)) return argvActions(command, ctx, cwd, result !== undefined && !failed);
      return bash(command, ctx, cwd);
    }
    case "apply_patch": {
      if (!result || failed) return NONE;
      const workdir = str(args.workdir);
      const base = workdir ? (resolvePath(workdir, ctx.sessionCwd, ctx) ?? ctx.sessionCwd) : ctx.sessionCwd;
      return { actions: patchActions(args.input ?? args.patch ?? args.__raw, ctx, base), diagnostics: [] };
    }
    case "rp": {
      const rpCall = str(args.call);
      const rpArgs = args.args;
      if (failed || !rpCall || !rpArgs || typeof rpArgs !== "object" || Array.isArray(rpArgs)) return NONE;
      return { actions: fromRp(rpCallOperations(rpCall, rpArgs as Record<string, unknown>), ctx), diagnostics: [] };
    }
    case "rp_exec": {
      const cmd = str(args.cmd);
      return failed || !cmd ? NONE : { actions: fromRp(rpExecOperations(cmd), ctx), diagnostics: [] };
    }
    default:
      return NONE;
  }
}
