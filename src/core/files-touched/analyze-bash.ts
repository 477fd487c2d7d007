// analyzeBashCommand: the file actions of one bash command string.

import type { Diagnostic } from "../diagnostics";
import type { FileAction } from "./actions";
import { parseBash } from "./bash-syntax";
import { BashWalker, type WalkerHost } from "./bash-walker";
import { normalizeAbsolute } from "./paths";
import type { ShellState } from "./shell-state";

export interface AnalyzeBashOptions {
  /** Directory the command starts in (absolute). */
  cwd: string;
  /** The session's cwd, for display paths and the `<cwd basename>/` prefix rule; default `cwd`. */
  sessionCwd?: string;
}

export interface BashAnalysis {
  actions: FileAction[];
  diagnostics: Diagnostic[];
}

function preview(command: string): string {
  const line = command.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** Pure and total: a command that does not parse yields no actions and a diagnostic. */
export function analyzeBashCommand(command: string, opts: AnalyzeBashOptions): BashAnalysis {
  const diagnostics: Diagnostic[] = [];
  const actions: FileAction[] = [];
  try {
    const parsed = parseBash(command);
    if (!parsed) {
      diagnostics.push({
        severity: "warning",
        code: "bash-parser-not-ready",
        message: "bash parser not initialised (call initFilesTouched() first); bash commands were not analysed",
      });
      return { actions, diagnostics };
    }
    if (parsed.hasError) {
      const where = parsed.errorAt ? ` at line ${parsed.errorAt.line}, column ${parsed.errorAt.column}` : "";
      diagnostics.push({
        severity: "warning",
        code: "bash-parse-error",
        message: `could not parse bash command${where}; its file operations are unknown: ${preview(command)}`,
      });
      return { actions, diagnostics };
    }
    const host: WalkerHost = {
      paths: { sessionCwd: opts.sessionCwd ?? opts.cwd },
      actions,
      knownDirectories: new Set(),
      walkScript(source, state, depth) {
        const inner = parseBash(source);
        if (!inner || inner.hasError) {
          diagnostics.push({
            severity: "info",
            code: "bash-parse-error",
            message: `could not parse nested script; its file operations are unknown: ${preview(source)}`,
          });
          return;
        }
        new BashWalker(host, depth).walk(inner.root, state);
      },
    };
    const state: ShellState = { base: normalizeAbsolute(opts.cwd), previous: undefined, stack: [], vars: new Map() };
    new BashWalker(host, 0).walk(parsed.root, state);
    return { actions, diagnostics };
  } catch (error) {
    diagnostics.push({
      severity: "warning",
      code: "bash-analysis-failed",
      message: `bash command not analysed (${error instanceof Error ? error.message : String(error)}): ${preview(command)}`,
    });
    return { actions: [], diagnostics };
  }
}
