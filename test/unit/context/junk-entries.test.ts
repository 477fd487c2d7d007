// Entries with junk fields never make the core throw. Where pi copes, we
// equal pi; where pi throws (asserted below, so the deviation is visible),
// the expected values are derived by hand from the rule in the source comment.

import { beforeAll, describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import type { ContextMessage } from "../../../src/core/context/context-message.js";
import { buildSessionContext } from "../../../src/core/context/build-session-context.js";
import { convertToLlm } from "../../../src/core/context/convert-to-llm.js";
import { estimateTokens } from "../../../src/core/tokens/estimate-tokens.js";
import { estimateContextTokens } from "../../../src/core/tokens/context-tokens.js";
import { serializeConversation } from "../../../src/core/compaction/serialize-conversation.js";
import { findCutPoint } from "../../../src/core/compaction/cut-points.js";
import { planCompaction } from "../../../src/core/compaction/prepare-compaction.js";
import { prepareBranchEntries } from "../../../src/core/branch/prepare-branch-entries.js";
import { loadPiOracle, type PiOracle } from "../../support/pi-oracle.js";

let pi: PiOracle;
beforeAll(async () => {
  pi = await loadPiOracle();
});

const ts = "2025-01-01T00:00:00.000Z";
const entry = (id: string, parentId: string | null, fields: Record<string, unknown>): SessionEntry =>
  ({ id, parentId, timestamp: ts, ...fields }) as unknown as SessionEntry;
const msg = (fields: Record<string, unknown>) => ({ timestamp: 5, ...fields }) as unknown as ContextMessage;

describe("junk where pi copes: equal to pi", () => {
  it("a user message without content is kept in the context and passed through", () => {
    const entries = [entry("a", null, { type: "message", message: { role: "user", timestamp: 1 } })];
    const ours = buildSessionContext(entries);
    expect(ours).toStrictEqual(pi.buildSessionContext(entries));
    expect(convertToLlm(ours.messages)).toStrictEqual(pi.convertToLlm(ours.messages as never));
  });

  it("a message with an unknown role is in the context but never reaches the model", () => {
    const entries = [entry("a", null, { type: "message", message: { role: "system", content: "x", timestamp: 1 } })];
    const ours = buildSessionContext(entries);
    expect(ours).toStrictEqual(pi.buildSessionContext(entries));
    expect(ours.messages).toHaveLength(1);
    expect(convertToLlm(ours.messages)).toEqual([]);
    expect(estimateTokens(ours.messages[0]!)).toBe(pi.estimateTokens(ours.messages[0] as never));
  });

  it("unknown entry types are skipped by context and cut points", () => {
    const entries = [
      entry("a", null, { type: "message", message: { role: "user", content: "hello there", timestamp: 1 } }),
      entry("b", "a", { type: "context_edit", targetId: "a", replacement: null }),
      entry("c", "b", { type: "message", message: { role: "user", content: "again", timestamp: 2 } }),
    ];
    expect(buildSessionContext(entries)).toStrictEqual(pi.buildSessionContext(entries));
    expect(findCutPoint(entries, 0, 3, 1)).toStrictEqual(pi.findCutPoint(entries, 0, 3, 1));
  });

  it("a bash run without output and a custom message without content", () => {
    const messages = [msg({ role: "bashExecution", command: "ls", cancelled: false, truncated: false }), msg({ role: "custom", customType: "x" })];
    expect(convertToLlm(messages)).toStrictEqual(pi.convertToLlm(messages as never));
  });
});

describe("junk where pi throws: no throw, values by rule", () => {
  it("a message entry without a message is skipped (pi throws reading .role)", () => {
    const entries = [
      entry("a", null, { type: "message" }),
      entry("b", "a", { type: "message", message: { role: "user", content: "hi", timestamp: 1 } }),
    ];
    expect(() => pi.buildSessionContext(entries)).toThrow();
    expect(buildSessionContext(entries).messages).toEqual([{ role: "user", content: "hi", timestamp: 1 }]);
    expect(findCutPoint(entries, 0, 2, 1)).toEqual({ firstKeptEntryIndex: 1, turnStartIndex: -1, isSplitTurn: false });
    expect(planCompaction(entries, { enabled: true, reserveTokens: 1, keepRecentTokens: 1 }).compactable).toBe(false);
  });

  it("assistant content that is not an array counts 0 chars and serialises to nothing", () => {
    // pi iterates a string's characters (no throw, 0 chars) but throws on anything not iterable.
    const text = msg({ role: "assistant", content: "plain", provider: "p", model: "m" });
    expect(estimateTokens(text)).toBe(pi.estimateTokens(text as never));
    expect(serializeConversation(convertToLlm([text]))).toBe(pi.serializeConversation([text] as never));
    const bad = msg({ role: "assistant", content: 42, provider: "p", model: "m", usage: 7 });
    expect(() => pi.estimateTokens(bad as never)).toThrow();
    expect(estimateTokens(bad)).toBe(0);
    expect(serializeConversation(convertToLlm([bad]))).toBe("");
    // usage that is not an object is no usage: the estimate falls back to the sum (0 here).
    expect(estimateContextTokens([bad])).toEqual({ tokens: 0, usageTokens: 0, trailingTokens: 0, lastUsageIndex: null });
  });

  it("a tool call without arguments counts its name and serialises as name()", () => {
    const bad = msg({ role: "assistant", content: [{ type: "toolCall", id: "1", name: "read" }, { type: "text" }, null], provider: "p", model: "m" });
    expect(() => pi.estimateTokens(bad as never)).toThrow();
    expect(estimateTokens(bad)).toBe(1); // "read" = 4 chars
    expect(serializeConversation(convertToLlm([bad]))).toBe("[Assistant]: \n\n[Assistant tool calls]: read()");
  });

  it("tool-result content as a string is counted and shown; missing content is empty", () => {
    const stringContent = msg({ role: "toolResult", toolCallId: "1", toolName: "bash", content: "output text", isError: false });
    const noContent = msg({ role: "toolResult", toolCallId: "1", toolName: "bash", isError: false });
    expect(() => pi.serializeConversation([stringContent] as never)).toThrow();
    expect(serializeConversation([stringContent] as never)).toBe("[Tool result]: output text");
    expect(estimateTokens(stringContent)).toBe(pi.estimateTokens(stringContent as never));
    expect(() => pi.estimateTokens(noContent as never)).toThrow();
    expect(estimateTokens(noContent)).toBe(0);
  });

  it("summaries without text count 0 and a null in a message list is skipped", () => {
    const summary = msg({ role: "compactionSummary", tokensBefore: 1 });
    expect(() => pi.estimateTokens(summary as never)).toThrow();
    expect(estimateTokens(summary)).toBe(0);
    expect(() => pi.convertToLlm([null] as never)).toThrow();
    expect(convertToLlm([null as unknown as ContextMessage])).toEqual([]);
  });

  it("branch preparation copes with every kind of junk above", () => {
    const entries = [
      entry("a", null, { type: "message" }),
      entry("b", "a", { type: "message", message: { role: "assistant", content: "x", provider: "p", model: "m", timestamp: 1 } }),
      entry("c", "b", { type: "branch_summary", fromId: "b", details: { readFiles: ["a.ts", 3], modifiedFiles: "nope" } }),
    ];
    const prepared = prepareBranchEntries(entries, 10);
    expect(prepared.fileOps).toEqual({ read: ["a.ts"], written: [], edited: [] });
    expect(prepared.messages.map((m) => m.role)).toEqual(["assistant", "branchSummary"]);
  });
});
