// The digest: a summary built from the session itself, without a model, for
// when no model or key is available or the user asks for it. It uses the
// section layout of pi's summaries so pi and the model that continues read it
// like one, says in its first line that no model wrote it, and interprets
// nothing: requests are quoted verbatim, activity is counted, errors are
// quoted by their first line. Same input → byte-identical output.

import { BRANCH_SUMMARY_PREAMBLE } from "../branch/prompts.js";
import type { ContextMessage } from "../context/context-message.js";
import { isObject } from "../context/context-message.js";
import type { FilesTouchedFile } from "../files-touched/index.js";
import { stripManifest } from "../files-touched/index.js";
import { collectDigestFacts, type DigestFacts } from "./digest-facts.js";

export const DIGEST_FIRST_LINE = "> Digest (no model): built from the session itself by pi-sessions; not an LLM summary.";

export interface DigestLimits {
  /** Total characters of the later user requests quoted (newest kept). */
  userChars: number;
  /** Characters of the last assistant message quoted. */
  lastAssistantChars: number;
  /** Characters of the previous summary quoted. */
  previousSummaryChars: number;
  /** Distinct error lines listed. */
  errors: number;
  /** Files listed. */
  files: number;
}

export const DEFAULT_DIGEST_LIMITS: DigestLimits = {
  userChars: 8000,
  lastAssistantChars: 4000,
  previousSummaryChars: 6000,
  errors: 12,
  files: 60,
};

export interface DigestInput {
  /** The messages to digest, oldest first (a compaction span or an abandoned branch). */
  messages: readonly ContextMessage[];
  /** The summary this one continues (a previous compaction's), if any. */
  previousSummary?: string;
  /** What those messages did to files (files-touched manifest of the same entries). */
  files?: readonly Pick<FilesTouchedFile, "displayPath" | "ops">[];
  limits?: Partial<DigestLimits>;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

/** A list item whose later lines stay inside the item. */
function item(prefix: string, text: string): string {
  return `${prefix}${text.split("\n").join("\n  ")}`;
}

function firstLine(text: string, max = 300): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return cut(line.trim(), max);
}

/** The text under `## <heading>` in a summary, up to the next `## `. */
function section(summary: string, heading: string): string | undefined {
  const lines = summary.split("\n");
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  const body = lines.slice(start + 1, end < 0 ? undefined : end).join("\n").trim();
  return body === "" ? undefined : body;
}

/** Newest first until the budget is spent; the newest is cut when it alone is over. */
function newestWithin(texts: readonly string[], budget: number): { kept: string[]; omitted: number } {
  const kept: string[] = [];
  let used = 0;
  let i = texts.length - 1;
  for (; i >= 0; i--) {
    const text = texts[i]!;
    if (used + text.length > budget) break;
    kept.push(text);
    used += text.length;
  }
  if (kept.length === 0 && texts.length > 0) {
    kept.push(cut(texts[texts.length - 1]!, budget));
    i = texts.length - 2;
  }
  return { kept: kept.reverse(), omitted: i + 1 };
}

function countsLine(counts: ReadonlyMap<string, number>): string {
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, n]) => `${name} ×${n}`)
    .join(", ");
}

function goalSection(facts: DigestFacts, previousSummary: string | undefined): { goal: string; laterRequests: string[] } {
  const previousGoal = previousSummary ? section(previousSummary, "Goal") : undefined;
  if (previousGoal) return { goal: `${previousGoal}\n\n(From the previous summary.)`, laterRequests: facts.userRequests };
  const [first, ...rest] = facts.userRequests;
  return { goal: first ?? "(No user request in this part of the session.)", laterRequests: rest };
}

function progressLines(facts: DigestFacts, files: DigestInput["files"], limits: DigestLimits): string[] {
  const done: string[] = [];
  if (facts.toolCalls > 0) {
    const failed = facts.failedToolResults > 0 ? `; ${facts.failedToolResults} failed` : "";
    done.push(`- [x] ${facts.toolCalls} tool call${facts.toolCalls === 1 ? "" : "s"}: ${countsLine(facts.toolCounts)}${failed}`);
  }
  if (facts.bashCommands > 0) {
    const failed = facts.failedBashCommands > 0 ? ` (${facts.failedBashCommands} failed)` : "";
    done.push(`- [x] ${facts.bashCommands} shell command${facts.bashCommands === 1 ? "" : "s"} run${failed}`);
  }
  const changed = (files ?? []).filter((f) => /[WEMD]/.test(f.ops));
  if (changed.length > 0) {
    const shown = changed.slice(0, limits.files).map((f) => `${f.displayPath} (${f.ops})`);
    const more = changed.length > shown.length ? `, … and ${changed.length - shown.length} more` : "";
    done.push(`- [x] Files changed: ${shown.join(", ")}${more}`);
  }
  if (done.length === 0) done.push("- [x] (No tool activity in this part of the session.)");

  const last = facts.userRequests[facts.userRequests.length - 1];
  const inProgress = last !== undefined ? [`- [ ] Last request: ${firstLine(last)}`] : ["- [ ] (No request recorded.)"];

  const errors = facts.errors.slice(0, limits.errors).map((e) => `- ${e}`);
  if (facts.errors.length > limits.errors) errors.push(`- … and ${facts.errors.length - limits.errors} more distinct errors`);
  const blocked = errors.length > 0 ? errors : ["- (No errors seen.)"];

  return ["## Progress", "### Done", ...done, "", "### In Progress", ...inProgress, "", "### Blocked", ...blocked];
}

function criticalContext(facts: DigestFacts, input: DigestInput, limits: DigestLimits): string[] {
  const lines = ["## Critical Context"];
  if (facts.lastAssistantText !== undefined) {
    lines.push("- Current state (the last assistant message, verbatim):", "", ...quote(cut(facts.lastAssistantText, limits.lastAssistantChars)), "");
  } else {
    lines.push("- (No assistant answer in this part of the session.)");
  }
  for (const summary of facts.branchSummaries) lines.push(`- A branch was summarised here: ${branchSummaryGist(summary)}`);
  const touched = input.files ?? [];
  if (touched.length > 0) {
    const shown = touched.slice(0, limits.files).map((f) => `${f.ops.padEnd(2, " ")} ${f.displayPath}`);
    if (touched.length > shown.length) shown.push(`… and ${touched.length - shown.length} more`);
    lines.push("- Files touched in this part (R read, W write, E edit, M moved here, D deleted), newest first:", "", "```text", ...shown, "```");
  }
  if (input.previousSummary) {
    const previous = stripManifest(input.previousSummary).replace(`${DIGEST_FIRST_LINE}\n\n`, "").trim();
    lines.push("", "- The previous summary, which this one continues (verbatim):", "", ...quote(cut(previous, limits.previousSummaryChars)));
  }
  return lines;
}

/** A branch summary's goal (or first line of text), without pi's preamble. */
function branchSummaryGist(summary: string): string {
  const body = summary.startsWith(BRANCH_SUMMARY_PREAMBLE) ? summary.slice(BRANCH_SUMMARY_PREAMBLE.length) : summary;
  const goal = section(body, "Goal");
  return firstLine(goal ?? body.split("\n").filter((l) => !l.startsWith("#")).join("\n"));
}

function quote(text: string): string[] {
  return text.split("\n").map((l) => (l === "" ? ">" : `> ${l}`));
}

export function buildDigest(input: DigestInput): string {
  const limits: DigestLimits = { ...DEFAULT_DIGEST_LIMITS, ...input.limits };
  const facts = collectDigestFacts(input.messages.filter(isObject) as ContextMessage[]);
  const { goal, laterRequests } = goalSection(facts, input.previousSummary);
  const { kept, omitted } = newestWithin(laterRequests, limits.userChars);
  const requests = kept.map((r) => item("- ", r));
  if (omitted > 0) requests.unshift(`- (${omitted} earlier request${omitted === 1 ? "" : "s"} left out to keep this digest short.)`);

  const out = [
    DIGEST_FIRST_LINE,
    "",
    "## Goal",
    goal,
    "",
    "## Constraints & Preferences",
    ...(requests.length > 0 ? ["The user's later messages, verbatim:", ...requests] : ["- (none)"]),
    "",
    ...progressLines(facts, input.files, limits),
    "",
    "## Key Decisions",
    "- (Not inferred: a digest does not interpret the conversation. See the requests above and the state below.)",
    "",
    "## Next Steps",
    facts.userRequests.length > 0
      ? "1. Continue from the current state below, answering the last request."
      : "1. Continue from the current state below.",
    "",
    ...criticalContext(facts, input, limits),
  ];
  // One blank line between blocks; text inside an element (verbatim messages) is left alone.
  const tidy = out.filter((line, i) => !(line === "" && (i === 0 || out[i - 1] === "")));
  return tidy.join("\n").trimEnd();
}
