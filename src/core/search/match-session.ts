// Whether a session matches a parsed query, and its rank, as pi 1.5.2's
// matchSession / filterAndSortSessions (session-selector-search.js) decide.
// pi's fields: the session name (last session_info), the header's id and cwd,
// and allMessagesText: the text of every user/assistant message joined with
// " " (see message-text.ts). Each field is matched on its own, so a token
// never spans two fields; but it can span two messages, because pi matches
// the joined text (a phrase "end of one start of next" matches).
//
// pi, per word (matchFuzzyToken → matchLiteralToken):
//   if (name.includes(value))  return tierScore(TIER_NAME, fuzzyMatch(value, name).score);
//   if (session.id.toLowerCase().includes(value)) return tierScore(TIER_TEXT);
//   if (getMessageText(session).lower.includes(value)) return tierScore(TIER_TEXT);
//   if (session.cwd.toLowerCase().includes(value)) return tierScore(TIER_TEXT);
//   …else fuzzyMatch(value, field) over [name ?? "", cwd], best score, TIER_FUZZY.
// per phrase: the same order on normalizeWhitespaceLower(name / messages / cwd),
//   but the id only lowercased (not whitespace-normalized), and no fuzzy fallback.
// regex: regex.test(name) (when there is a name) → TIER_NAME; id, messages, cwd → TIER_TEXT.
import { fuzzyMatch } from "./fuzzy";
import { normalizeWhitespaceLower, type ParsedQuery } from "./query";

const TIER_NAME = 0;
const TIER_TEXT = 1;
const TIER_FUZZY = 2;
const TIER_WEIGHT = 1_000_000;

/** Which of a session's fields a query matched (for display; pi only ranks). */
export type MatchedField = "name" | "id" | "messages" | "cwd" | "fuzzy";

export interface SearchableSession {
  id: string;
  cwd: string;
  /** pi's session name (trimmed, non-empty) or undefined. */
  name: string | undefined;
  /** Whether the lowercased, whitespace-normalized message text contains `value` (itself lowercased, normalized). */
  messagesContain(value: string): boolean;
  /** Whether `regex` (flag "i", no "g") matches allMessagesText. */
  messagesTest(regex: RegExp): boolean;
}

export interface SessionMatch {
  score: number;
  fields: Set<MatchedField>;
}

function tierScore(tier: number, score = 0): number {
  return tier * TIER_WEIGHT + score;
}

function literal(session: SearchableSession, value: string, fields: Set<MatchedField>, phrase: boolean): number | undefined {
  const name = phrase ? normalizeWhitespaceLower(session.name ?? "") : (session.name?.toLowerCase() ?? "");
  if (name.includes(value)) {
    fields.add("name");
    return tierScore(TIER_NAME, fuzzyMatch(value, name).score);
  }
  if (session.id.toLowerCase().includes(value)) {
    fields.add("id");
    return tierScore(TIER_TEXT);
  }
  if (session.messagesContain(value)) {
    fields.add("messages");
    return tierScore(TIER_TEXT);
  }
  const cwd = phrase ? normalizeWhitespaceLower(session.cwd) : session.cwd.toLowerCase();
  if (cwd.includes(value)) {
    fields.add("cwd");
    return tierScore(TIER_TEXT);
  }
  return undefined;
}

function fuzzy(session: SearchableSession, value: string, fields: Set<MatchedField>): number | undefined {
  // A word never contains white space, so matching it in the normalized text equals pi's match in the lowercased text.
  const exact = literal(session, value.toLowerCase(), fields, false);
  if (exact !== undefined) return exact;
  let best: number | undefined;
  for (const field of [session.name ?? "", session.cwd]) {
    const m = fuzzyMatch(value, field);
    if (m.matches && (best === undefined || m.score < best)) best = m.score;
  }
  if (best === undefined) return undefined;
  fields.add("fuzzy");
  return tierScore(TIER_FUZZY, best);
}

/** The session's rank (lower is better) when it matches, else undefined. A regex query with an error matches nothing. */
export function matchSession(session: SearchableSession, parsed: ParsedQuery): SessionMatch | undefined {
  const fields = new Set<MatchedField>();
  if (parsed.mode === "regex") {
    const regex = parsed.regex;
    if (!regex) return undefined;
    if (session.name && regex.test(session.name)) return { score: tierScore(TIER_NAME), fields: new Set(["name"]) };
    if (regex.test(session.id)) return { score: tierScore(TIER_TEXT), fields: new Set(["id"]) };
    if (session.messagesTest(regex)) return { score: tierScore(TIER_TEXT), fields: new Set(["messages"]) };
    if (regex.test(session.cwd)) return { score: tierScore(TIER_TEXT), fields: new Set(["cwd"]) };
    return undefined;
  }
  let total = 0;
  for (const token of parsed.tokens) {
    let score: number | undefined;
    if (token.kind === "phrase") {
      const phrase = normalizeWhitespaceLower(token.value);
      if (!phrase) continue;
      score = literal(session, phrase, fields, true);
    } else {
      score = fuzzy(session, token.value, fields);
    }
    if (score === undefined) return undefined;
    total += score;
  }
  return { score: total, fields };
}

/** pi's relevance order: score ascending, then most recently modified; then path, so ties are stable. */
export function compareRanked(a: { score: number; modifiedMs: number; path: string }, b: { score: number; modifiedMs: number; path: string }): number {
  if (a.score !== b.score) return a.score - b.score;
  if (a.modifiedMs !== b.modifiedMs) return b.modifiedMs - a.modifiedMs;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The lowercased, normalized forms of the words and phrases, to find them in message text (for snippets). */
export function literalNeedles(parsed: ParsedQuery): string[] {
  if (parsed.mode !== "tokens") return [];
  const out = new Set<string>();
  for (const t of parsed.tokens) {
    const v = t.kind === "phrase" ? normalizeWhitespaceLower(t.value) : t.value.toLowerCase();
    if (v) out.add(v);
  }
  return [...out];
}
