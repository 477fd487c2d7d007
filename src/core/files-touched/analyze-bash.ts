// analyzeBashCommand: the file actions of one bash command string.

import type { Diagnostic } from "../diagnostics";
import type { FileAction } from "./actions";
import { parseBash } from "./bash-syntax";
import { BashWalker, type WalkerHost } from "./bash-walker";
import { normalizeAbsolute } from "./paths";
import type { ShellState } from "./shell-state";
import { commandNames } from "./commands/table";

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

// Sessions repeat commands (builds, test runs) and the manifest is recomputed
// at every compaction: results are memoised, bounded, least recently used
// dropped first, and kept on disk between runs (analysis-cache-file.ts).
const CACHE_LIMIT = 4096;
const cache = new Map<string, BashAnalysis>();
/** Analyses added since the cache was last loaded or saved. */
let added = 0;

let namePattern: RegExp | undefined;
/** What `.` in a regular expression does not match. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * True when the command cannot touch a file: no redirection character and no
 * command the analysis knows (looked for with quotes and backslashes removed,
 * so `r\m` and `'rm'` still count). Saves parsing most build and test commands.
 */
function cannotTouchFiles(command: string): boolean {
  if (/[<>]/.test(command)) return false;
  // An odd number of quotes (not counting backslash-escaped characters) is most
  // likely a syntax error: parse, so it is reported.
  let doubles = 0;
  let singles = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i);
    if (c === 0x5c /* \\ */ && i + 1 < command.length && !LINE_TERMINATOR.test(command[i + 1]!)) i++;
    else if (c === 0x22) doubles++;
    else if (c === 0x27) singles++;
  }
  if (doubles % 2 === 1 || singles % 2 === 1) return false;
  namePattern ??= new RegExp(
    `(?:^|[^A-Za-z0-9_.-])(?:${[...commandNames()].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![A-Za-z0-9_-])`,
  );
  return !namePattern.test(command.replace(/["'\\]/g, ""));
}

// V8 keeps a hidden class only while some object has it: at a full GC the
// classes of a walk's short-lived objects (syntax nodes, shell state, walker,
// command context) died with them and the code optimised for them was thrown
// away ("weak objects" in --trace-deopt), so the first manifest after every
// major GC ran about twice as slow. The last walk's objects are kept alive.
const kept: { lastWalk?: unknown } = {};

/** Forgets memoised analyses (for benchmarks measuring the uncached cost). */
export function clearBashAnalysisCache(): void {
  cache.clear();
  added = 0;
}

/** The memoised analyses, least recently used first, keyed as analyzeBashCommand keys them. */
export function bashAnalysisEntries(): IterableIterator<[string, BashAnalysis]> {
  return cache.entries();
}

/** Analyses computed since the last load or save (0: nothing new to write). */
export function bashAnalysesAdded(): number {
  return added;
}

export function markBashAnalysesSaved(): void {
  added = 0;
}

/** Adds a stored analysis (already validated) unless one is memoised for the key; never evicts a newer one. */
export function seedBashAnalysis(key: string, analysis: BashAnalysis): void {
  if (cache.has(key) || cache.size >= CACHE_LIMIT) return;
  cache.set(key, copy(analysis));
}

export function bashAnalysisKey(command: string, opts: AnalyzeBashOptions): string {
  return `${opts.cwd}\0${opts.sessionCwd ?? ""}\0${command}`;
}

function copy(analysis: BashAnalysis): BashAnalysis {
  return { actions: [...analysis.actions], diagnostics: [...analysis.diagnostics] };
}

/** Pure and total: a command that does not parse yields no actions and a diagnostic. */
export function analyzeBashCommand(command: string, opts: AnalyzeBashOptions): BashAnalysis {
  const key = bashAnalysisKey(command, opts);
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return copy(cached);
  }
  const result = analyzeUncached(command, opts);
  if (!result.diagnostics.some((d) => d.code === "bash-parser-not-ready")) {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, copy(result));
    added++;
  }
  return result;
}

function analyzeUncached(command: string, opts: AnalyzeBashOptions): BashAnalysis {
  const diagnostics: Diagnostic[] = [];
  const actions: FileAction[] = [];
  try {
    if (cannotTouchFiles(command)) return { actions, diagnostics };
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
    const walker = new BashWalker(host, 0);
    walker.walk(parsed.root, state);
    kept.lastWalk = [parsed, host, state, walker];
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
