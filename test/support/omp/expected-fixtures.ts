// The five session files omp 18.3.4 wrote itself (test/fixtures/omp-18) and omp's
// answers on them (expected/), with the summaries expected/<file>.json is made
// of, so the oracle's proof and our core's fixture tests read them the same way.

import { readFileSync } from "node:fs";
import { join } from "node:path";

export const OMP_FIXTURES_DIR = join(__dirname, "../../fixtures/omp-18");
export const OMP_FIXTURE_BLOBS = join(OMP_FIXTURES_DIR, "blobs");
export const OMP_FIXTURES = [
  "omp-simple",
  "omp-snapcompact",
  "omp-soft-compaction-branch-summary",
  "omp-soft-handoff-reset",
  "pi073-digest-compaction-resumed-by-omp",
] as const;

type Json = Record<string, any>;

export interface ExpectedOmpPreparation {
  firstKeptEntryId: string;
  firstKeptKind: string;
  isSplitTurn: boolean;
  tokensBefore: number;
  messagesToSummarize: number;
  messagesToSummarizeRoles: string[];
  turnPrefixMessages: number;
  turnPrefixRoles: string[];
  recentMessages: number;
  previousSummary: string | null;
  readFiles: string[];
  modifiedFiles: string[];
  serializedHistoryChars: number;
  serializedTurnPrefixChars: number;
}

/** expected/<name>.json */
export function readOmpExpected(name: string): Json {
  return JSON.parse(readFileSync(join(OMP_FIXTURES_DIR, "expected", `${name}.json`), "utf8")) as Json;
}

/** expected/<name>.llm-messages.json: the full convertToLlm output, images digested. */
export function readOmpExpectedLlm(name: string): Json[] {
  return JSON.parse(readFileSync(join(OMP_FIXTURES_DIR, "expected", `${name}.llm-messages.json`), "utf8")) as Json[];
}

/** `s` cut to `n` characters with the count of the rest, as expected/ records long strings. */
export function prefix(s: string, n = 160): string {
  return s.length > n ? `${s.slice(0, n)}…[+${s.length - n}]` : s;
}

function blockSummary(b: Json): Json {
  if (b.type === "text") return { type: "text", chars: b.text.length, prefix: prefix(b.text) };
  if (b.type === "image") {
    const ref = typeof b.data === "string" && b.data.startsWith("blob:sha256:");
    const digested = typeof b.data === "string" && b.data.startsWith("sha256:");
    return {
      type: "image",
      mimeType: b.mimeType,
      ...(b.detail ? { detail: b.detail } : {}),
      ...(ref ? { unresolvedRef: b.data } : { sha256: digested ? b.data.slice("sha256:".length) : undefined, base64Chars: b.base64Chars }),
    };
  }
  if (b.type === "toolCall") return { type: "toolCall", id: b.id, name: b.name, arguments: b.arguments };
  if (b.type === "thinking") return { type: "thinking", chars: b.thinking.length, prefix: prefix(b.thinking, 80), signed: !!b.thinkingSignature };
  return { type: b.type };
}

function contentSummary(c: unknown): Json[] {
  if (typeof c === "string") return [{ type: "string", chars: c.length, prefix: prefix(c) }];
  if (!Array.isArray(c)) return c === undefined ? [] : [{ type: typeof c }];
  return c.map(blockSummary);
}

/** A context (agent) message as expected/<name>.json `context.messages` summarises it (images already digested). */
export function agentMessageSummary(m: Json): Json {
  const o: Json = { role: m.role };
  if (m.role === "compactionSummary") {
    Object.assign(o, {
      method: m.method,
      tokensBefore: m.tokensBefore,
      tokensAfter: m.tokensAfter,
      summaryChars: m.summary.length,
      summaryPrefix: prefix(m.summary),
      blocks: m.blocks ? m.blocks.map(blockSummary) : undefined,
      images: m.images ? m.images.length : undefined,
      shortSummary: m.shortSummary,
    });
  } else if (m.role === "branchSummary") {
    Object.assign(o, { fromId: m.fromId, summaryChars: m.summary.length, summaryPrefix: prefix(m.summary) });
  } else if (m.role === "custom") {
    Object.assign(o, { customType: m.customType, display: m.display, content: contentSummary(m.content) });
  } else {
    if (m.role === "assistant") Object.assign(o, { provider: m.provider, model: m.model, stopReason: m.stopReason });
    if (m.role === "toolResult") Object.assign(o, { toolName: m.toolName, toolCallId: m.toolCallId });
    o.content = contentSummary(m.content);
  }
  return JSON.parse(JSON.stringify(o)) as Json;
}

/** An LLM message as expected/<name>.json `llm.messages` summarises it. */
export function llmMessageSummary(m: Json): Json {
  const o: Json = { role: m.role };
  if (m.attribution) o.attribution = m.attribution;
  if (m.role === "assistant") Object.assign(o, { provider: m.provider, model: m.model });
  if (m.role === "toolResult") Object.assign(o, { toolName: m.toolName, toolCallId: m.toolCallId });
  o.content = contentSummary(m.content);
  return JSON.parse(JSON.stringify(o)) as Json;
}

/** The kind expected/ names an entry by: `message:<role>`, `custom:<customType>`, else its type. */
export function entryKind(e: Json): string {
  return e.type === "message" ? `message:${e.message.role}` : e.type === "custom" ? `custom:${e.customType}` : e.type;
}
