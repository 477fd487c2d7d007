// A written summary stays under its budget whatever the session touched (pi
// bug #9945: a summary made of file paths compacts again at once, forever).
// The model's (or digest's) text comes first, then pi's <read-files> /
// <modified-files> lists and our files-touched block; when the whole is over
// the budget, the lists and the block fold by folder, one level at a time,
// before anything else; only when one row per list is still too much is the
// text itself cut, with a marker. The full lists stay in the entry's details.

import { formatFileOperations } from "../compaction/index.js";
import { appendManifest, foldKey, foldLevels, foldRows, formatFoldRow, isFolded, type FilesTouched, type FoldItem, type FoldLevel } from "../files-touched/index.js";

/** pi's default reserveTokens: the summary's budget when no setting says otherwise. */
export const DEFAULT_SUMMARY_BUDGET_TOKENS = 16384;
/** Room kept for the wrapper pi puts around a summary in the context. */
const WRAPPER_TOKENS = 64;
/** Never below this, whatever reserveTokens says (a 0 reserve must not cut every summary). */
const MIN_BUDGET_TOKENS = 1024;

/** pi's estimate for text: ⌈chars / 4⌉. */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The budget for a summary under a reserveTokens setting. */
export function summaryBudget(reserveTokens: number | undefined): number {
  const reserve = reserveTokens === undefined || !Number.isFinite(reserveTokens) ? DEFAULT_SUMMARY_BUDGET_TOKENS : reserveTokens;
  return Math.max(MIN_BUDGET_TOKENS, Math.floor(reserve)) - WRAPPER_TOKENS;
}

export interface BoundedSummaryInput {
  /** Everything before the file lists (preamble + model or digest text). */
  text: string;
  readFiles: readonly string[];
  modifiedFiles: readonly string[];
  /** The files-touched block's files; undefined: no block. */
  manifest?: Pick<FilesTouched, "files">;
  budgetTokens: number;
}

export interface BoundedSummary {
  summary: string;
  /** The lists or the block were folded by folder. */
  folded: boolean;
  /** The text itself had to be cut (only after folding everything). */
  textCut: boolean;
  tokens: number;
}

function foldedList(paths: readonly string[], level: FoldLevel, expanded?: ReadonlySet<string>): string[] {
  return foldRows(
    paths.map((p) => ({ displayPath: p, ops: "" })),
    level,
    expanded,
  ).map((row) => formatFoldRow(row, false));
}

function compose(input: BoundedSummaryInput, text: string, level: FoldLevel, expanded?: ReadonlySet<string>): string {
  let summary = text + formatFileOperations(foldedList(input.readFiles, level, expanded), foldedList(input.modifiedFiles, level, expanded));
  if (input.manifest) summary = appendManifest(summary, input.manifest, level, expanded);
  return summary;
}

/** Characters the rows of `items` take, per folder at `level`, folded and one level deeper. */
function rowCosts(items: readonly FoldItem[], level: number, withOps: boolean, costs: Map<string, { folded: number; expanded: number }>): void {
  const byKey = new Map<string, FoldItem[]>();
  for (const item of items) {
    const key = foldKey(item.displayPath, level);
    if (key === undefined) continue;
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(item);
  }
  for (const [key, list] of byKey) {
    const length = (level: number): number => foldRows(list, level).reduce((n, row) => n + formatFoldRow(row, withOps).length + 1, 0);
    const cost = costs.get(key) ?? { folded: 0, expanded: 0 };
    cost.folded += length(level);
    cost.expanded += length(level + 1);
    costs.set(key, cost);
  }
}

/**
 * Having found the uniform level that fits, shows as many of its folders one level deeper as
 * the budget still allows, cheapest first (a folder of three sub-folders before one of three
 * hundred), so a fold keeps all the detail the budget has room for.
 */
function refine(input: BoundedSummaryInput, level: number, summary: string): { summary: string; expanded: Set<string> } {
  const costs = new Map<string, { folded: number; expanded: number }>();
  const plain = (paths: readonly string[]): FoldItem[] => paths.map((p) => ({ displayPath: p, ops: "" }));
  rowCosts(plain(input.readFiles), level, false, costs);
  rowCosts(plain(input.modifiedFiles), level, false, costs);
  if (input.manifest) rowCosts(input.manifest.files, level, true, costs);
  let room = input.budgetTokens * 4 - summary.length - 64;
  const expanded = new Set<string>();
  const candidates = [...costs].map(([key, c]) => ({ key, delta: c.expanded - c.folded })).sort((a, b) => a.delta - b.delta);
  for (const { key, delta } of candidates) {
    if (delta > room) break;
    expanded.add(key);
    room -= delta;
  }
  if (expanded.size === 0) return { summary, expanded };
  const refined = compose(input, input.text, level, expanded);
  return textTokens(refined) <= input.budgetTokens ? { summary: refined, expanded } : { summary, expanded: new Set() };
}

function levelsFor(input: BoundedSummaryInput): FoldLevel[] {
  const items = [...input.readFiles, ...input.modifiedFiles, ...(input.manifest?.files.map((f) => f.displayPath) ?? [])].map((p) => ({ displayPath: p, ops: "" }));
  return foldLevels(items);
}

/** The summary as written: under `budgetTokens`, folding before cutting, saying so when it folds. */
export function boundSummary(input: BoundedSummaryInput): BoundedSummary {
  const levels = levelsFor(input);
  for (const level of levels) {
    let summary = compose(input, input.text, level);
    if (textTokens(summary) <= input.budgetTokens) {
      let expanded: ReadonlySet<string> | undefined;
      if (level !== levels[0] && level !== "all") ({ summary, expanded } = refine(input, level, summary));
      const folded = wasFolded(input, level, expanded);
      return { summary, folded, textCut: false, tokens: textTokens(summary) };
    }
  }
  // Even one row per list is too much: the text is what is long; cut it, and say so.
  const tail = compose(input, "", "all");
  const marker = "\n\n[pi-sessions: the summary text was cut here to keep the summary within its budget]";
  const room = Math.max(0, input.budgetTokens * 4 - tail.length - marker.length);
  const summary = compose(input, input.text.slice(0, room) + marker, "all");
  return { summary, folded: true, textCut: true, tokens: textTokens(summary) };
}

function wasFolded(input: BoundedSummaryInput, level: FoldLevel, expanded?: ReadonlySet<string>): boolean {
  const anyFolded = (paths: readonly string[]): boolean => isFolded(foldRows(paths.map((p) => ({ displayPath: p, ops: "" })), level, expanded));
  return anyFolded(input.readFiles) || anyFolded(input.modifiedFiles) || (input.manifest !== undefined && isFolded(foldRows(input.manifest.files, level, expanded)));
}

/** The rows of a <files-touched> prompt list, folded until they fit `budgetTokens`. */
export function boundedPromptRows(files: Pick<FilesTouched, "files">, budgetTokens: number): { rows: string[]; folded: boolean } {
  const levels = foldLevels(files.files);
  for (const level of levels) {
    const folded = foldRows(files.files, level);
    const rows = folded.map((row) => formatFoldRow(row, true));
    if (textTokens(rows.join("\n")) <= budgetTokens || level === "all") return { rows, folded: isFolded(folded) };
  }
  return { rows: [], folded: false };
}
