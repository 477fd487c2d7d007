// Messages between the extension host and the Usage webview. Both sides import
// this module and validate every message on arrival: titles and paths come
// from session files, and a page can post anything. The host sends a report cut
// to what the page shows (never the catalogue); the page asks for other options
// and to open a session it was shown (the host opens only a path it sent).
import type { UsageTotals } from "../core/usage/usage-report";
import { isCount, isRecord, isString } from "./protocol-checks";

export const USAGE_LIMITS = {
  days: 20_000,
  stackKeys: 9,
  rows: 25,
  textChars: 4096,
  pathChars: 4096,
} as const;

export const USAGE_PERIODS = ["7d", "30d", "90d", "all"] as const;
export const USAGE_STACKS = ["model", "project", "kind"] as const;
export const USAGE_SCOPES = ["workspace", "all"] as const;

export interface UsageViewOptions {
  period: (typeof USAGE_PERIODS)[number];
  stack: (typeof USAGE_STACKS)[number];
  scope: (typeof USAGE_SCOPES)[number];
  /** Forks and subagent sessions counted in the session they came from. */
  rollUp: boolean;
}

/** A period's or a part's cost and tokens (the core's totals, as sent to the page). */
export type UsageNumbers = UsageTotals;

export interface UsageViewDay {
  day: string;
  cost: number;
  tokens: number;
  /** Cost and tokens per stack key, aligned with UsageView.stackKeys. */
  costs: number[];
  tokenCounts: number[];
}

export interface UsageViewSession {
  path: string;
  title: string;
  cwd: string;
  cost: number;
  tokens: number;
  rolledUp: number;
}

export interface UsageView {
  since: string | null;
  until: string | null;
  sessions: number;
  totals: UsageNumbers;
  compaction: UsageNumbers;
  branchSummary: UsageNumbers;
  /** Spend forks copied from sessions counted here (left out). */
  inheritedLeftOut: number;
  days: UsageViewDay[];
  /** The most costly stack keys, then "other" when more were folded in. */
  stackKeys: string[];
  models: { name: string; cost: number; tokens: number }[];
  projects: { name: string; cost: number; tokens: number; sessions: number }[];
  topSessions: UsageViewSession[];
}

export type UsageHostMessage =
  | { type: "report"; options: UsageViewOptions; view: UsageView }
  /** Reading the sessions (a first fill, a scope change): the numbers follow. */
  | { type: "loading"; options: UsageViewOptions };

export type UsageWebviewMessage =
  | { type: "ready" }
  | { type: "setOptions"; options: UsageViewOptions }
  | { type: "openSession"; path: string }
  /** The report of `until`-`since` with this many days is drawn (the host logs and measures it). */
  | { type: "shown"; days: number };

const isNumber = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0;
const isText = (x: unknown): x is string => isString(x, USAGE_LIMITS.textChars);
const isDay = (x: unknown): x is string => typeof x === "string" && /^\d{4}-\d{2}-\d{2}$/.test(x);
const oneOf = <T extends string>(values: readonly T[], x: unknown): x is T => typeof x === "string" && (values as readonly string[]).includes(x);

export function isUsageViewOptions(x: unknown): x is UsageViewOptions {
  return isRecord(x) && oneOf(USAGE_PERIODS, x.period) && oneOf(USAGE_STACKS, x.stack) && oneOf(USAGE_SCOPES, x.scope) && typeof x.rollUp === "boolean";
}

function isNumbers(x: unknown): x is UsageNumbers {
  return isRecord(x) && ["cost", "tokens", "input", "output", "cacheRead", "cacheWrite"].every((k) => isNumber(x[k]));
}

function isNumberList(x: unknown, length: number): x is number[] {
  return Array.isArray(x) && x.length === length && x.every(isNumber);
}

function isDayEntry(x: unknown, keys: number): x is UsageViewDay {
  return isRecord(x) && isDay(x.day) && isNumber(x.cost) && isNumber(x.tokens) && isNumberList(x.costs, keys) && isNumberList(x.tokenCounts, keys);
}

function isList<T>(x: unknown, max: number, item: (v: unknown) => v is T): x is T[] {
  return Array.isArray(x) && x.length <= max && x.every(item);
}

const isNamed = (x: unknown): x is { name: string; cost: number; tokens: number } => isRecord(x) && isText(x.name) && isNumber(x.cost) && isNumber(x.tokens);
const isProject = (x: unknown): x is UsageView["projects"][number] => isNamed(x) && isCount((x as { sessions?: unknown }).sessions);
const isSession = (x: unknown): x is UsageViewSession =>
  isRecord(x) && isString(x.path, USAGE_LIMITS.pathChars, false) && isText(x.title) && isText(x.cwd) && isNumber(x.cost) && isNumber(x.tokens) && isCount(x.rolledUp);

export function isUsageView(x: unknown): x is UsageView {
  if (!isRecord(x)) return false;
  if (!(x.since === null || isDay(x.since)) || !(x.until === null || isDay(x.until)) || !isCount(x.sessions)) return false;
  if (!isNumbers(x.totals) || !isNumbers(x.compaction) || !isNumbers(x.branchSummary) || !isNumber(x.inheritedLeftOut)) return false;
  if (!isList(x.stackKeys, USAGE_LIMITS.stackKeys, isText)) return false;
  const keys = x.stackKeys.length;
  return (
    isList(x.days, USAGE_LIMITS.days, (d): d is UsageViewDay => isDayEntry(d, keys)) &&
    isList(x.models, USAGE_LIMITS.rows, isNamed) &&
    isList(x.projects, USAGE_LIMITS.rows, isProject) &&
    isList(x.topSessions, USAGE_LIMITS.rows, isSession)
  );
}

export function isUsageHostMessage(x: unknown): x is UsageHostMessage {
  if (!isRecord(x) || !isUsageViewOptions(x.options)) return false;
  if (x.type === "loading") return Object.keys(x).length === 2;
  return x.type === "report" && isUsageView(x.view);
}

export function isUsageWebviewMessage(x: unknown): x is UsageWebviewMessage {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "ready":
      return Object.keys(x).length === 1;
    case "setOptions":
      return isUsageViewOptions(x.options);
    case "openSession":
      return isString(x.path, USAGE_LIMITS.pathChars, false);
    case "shown":
      return isCount(x.days);
    default:
      return false;
  }
}
