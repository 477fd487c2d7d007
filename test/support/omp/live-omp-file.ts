// Random omp sessions as omp writes them live, for property tests of what is
// kept over appends: turns with tool calls answered late, early or never, error
// and aborted turns with and without an interrupted-thinking notice, retry
// recoveries, developer and custom messages, context notebook revisions,
// compactions of every method, `/clear`, branch summaries, model/thinking
// changes, labels, and switches to another leaf (`earlier`).

import fc from "fast-check";

export type Kind =
  | "user"
  | "user-image"
  | "assistant"
  | "assistant-thinking"
  | "assistant-calls"
  | "tool-result"
  | "error"
  | "error-empty"
  | "aborted"
  | "retry-recovery"
  | "interrupted-notice"
  | "custom-message"
  | "prewalk"
  | "developer"
  | "bash"
  | "notes"
  | "custom"
  | "compaction-soft"
  | "compaction-handoff"
  | "compaction-snapcompact"
  | "compaction-remote"
  | "compaction-rollover"
  | "clear"
  | "branch-summary"
  | "model-change"
  | "thinking"
  | "label";

export interface Step {
  kind: Kind;
  /** Sometimes the entry hangs below an earlier entry: a switch to another leaf. */
  earlier: boolean;
  pick: number;
  text: string;
  usage: number;
}

export const KINDS: Kind[] = [
  "user",
  "user",
  "user-image",
  "assistant",
  "assistant",
  "assistant-thinking",
  "assistant-calls",
  "assistant-calls",
  "tool-result",
  "tool-result",
  "tool-result",
  "error",
  "error",
  "error",
  "error-empty",
  "aborted",
  "aborted",
  "retry-recovery",
  "interrupted-notice",
  "interrupted-notice",
  "interrupted-notice",
  "custom-message",
  "prewalk",
  "developer",
  "bash",
  "notes",
  "custom",
  "compaction-soft",
  "compaction-handoff",
  "compaction-snapcompact",
  "compaction-remote",
  "compaction-rollover",
  "clear",
  "branch-summary",
  "model-change",
  "thinking",
  "label",
];

export const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(...KINDS),
  earlier: fc.nat({ max: 11 }).map((n) => n === 0),
  pick: fc.nat(),
  text: fc.string({ maxLength: 50 }),
  usage: fc.integer({ min: 1, max: 400 }),
});

/** Turns as omp writes them live: a user message, answers with tool calls, omp's tool_execution_start custom entries, the results. */
export const turnSteps: fc.Arbitrary<Step[]> = fc.array(
  fc.record({
    kind: fc.constantFrom<Kind>("user", "assistant", "assistant-calls", "custom", "tool-result", "tool-result"),
    earlier: fc.constant(false),
    pick: fc.nat(),
    text: fc.string({ maxLength: 50 }),
    usage: fc.integer({ min: 1, max: 400 }),
  }),
  { maxLength: 12 },
);

export class OmpFile {
  lines: string[] = [JSON.stringify({ type: "session", version: 3, id: "omp-live", timestamp: "2026-11-23T22:00:00.000Z", cwd: "/w" })];
  ids: string[] = [];
  /** Tool call ids issued so far, newest last. */
  calls: string[] = [];
  leaf: string | null = null;
  counter = 0;

  line(s: Step): string {
    const n = this.counter++;
    const id = `o${n.toString(16).padStart(6, "0")}`;
    const parentId = s.earlier && this.ids.length > 0 ? this.ids[s.pick % this.ids.length]! : this.leaf;
    const timestamp = new Date(Date.UTC(2026, 10, 23, 22) + n * 1000).toISOString();
    const earlierId = this.ids.length > 0 ? this.ids[(s.pick >> 4) % this.ids.length]! : "none";
    const text = `${s.text} ${"w".repeat(s.pick % 90)}`;
    const usage = { input: s.usage, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: s.usage + 10 };
    const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
      role: "assistant",
      content,
      provider: "fake",
      model: `m${s.pick % 3}`,
      usage,
      stopReason: "stop",
      timestamp: n,
      ...(s.pick % 5 === 0 ? { contextSnapshot: { nonMessageTokens: s.usage % 97 } } : {}),
      ...extra,
    });
    const newCalls = () => {
      const count = 1 + (s.pick % 2);
      const blocks = [];
      for (let i = 0; i < count; i++) {
        // A small pool of ids: some repeat, some are answered before they are called.
        const callId = s.pick % 7 === 0 ? `call${s.pick % 5}` : `call-${id}-${i}`;
        this.calls.push(callId);
        blocks.push({ type: "toolCall", id: callId, name: "bash", arguments: { command: text } });
      }
      return blocks;
    };
    const message = (m: Record<string, unknown>) => ({ type: "message", message: m });
    let value: Record<string, unknown>;
    switch (s.kind) {
      case "user":
        value = message({ role: "user", content: s.pick % 2 ? text : [{ type: "text", text }], timestamp: n });
        break;
      case "user-image":
        value = message({ role: "user", content: [{ type: "text", text }, { type: "image", data: "aGk=", mimeType: "image/png" }], timestamp: n });
        break;
      case "assistant":
        value = message(assistant([{ type: "text", text }]));
        break;
      case "assistant-thinking":
        value = message(assistant([{ type: "thinking", thinking: text, thinkingSignature: "sig".repeat(s.pick % 20) }, { type: "redactedThinking", data: "x".repeat(40) }, { type: "text", text }]));
        break;
      case "assistant-calls":
        value = message(assistant([...(s.pick % 3 ? [{ type: "text", text }] : []), ...(s.pick % 4 === 1 ? [{ type: "redactedThinking", data: "r".repeat(30) }] : []), ...newCalls()], { stopReason: "toolUse" }));
        break;
      case "tool-result": {
        const pool = this.calls.length > 0 ? this.calls : ["nowhere"];
        // Mostly the newest calls; sometimes an old one, or one not called yet.
        const callId = s.pick % 9 === 0 ? `call${s.pick % 5}` : pool[Math.max(0, pool.length - 1 - (s.pick % 3))]!;
        value = message({ role: "toolResult", toolCallId: callId, toolName: "bash", content: [{ type: "text", text: text.repeat(3) }], isError: false, timestamp: n, ...(s.pick % 11 === 0 ? { prunedAt: n } : {}) });
        break;
      }
      case "error":
        value = message(assistant([{ type: "text", text: `failed ${text}` }, ...(s.pick % 2 ? newCalls() : [])], { stopReason: "error", errorMessage: "boom" }));
        break;
      case "error-empty":
        value = message(assistant([], { stopReason: "error", errorMessage: "boom" }));
        break;
      case "aborted":
        value = message(assistant([{ type: "thinking", thinking: text }, ...(s.pick % 2 ? newCalls() : [])], { stopReason: "aborted" }));
        break;
      case "retry-recovery":
        value = message(assistant([{ type: "text", text }], { retryRecovery: true }));
        break;
      case "interrupted-notice":
        value = { type: "custom_message", customType: "interrupted-thinking", content: `Interrupted ${text}`, display: false };
        break;
      case "custom-message":
        value = { type: "custom_message", customType: "note", content: s.pick % 2 ? text : [{ type: "text", text }], display: true };
        break;
      case "prewalk":
        value = { type: "custom_message", customType: "prewalk-plan", content: text, display: false };
        break;
      case "developer":
        value = message({ role: "developer", content: [{ type: "text", text }], timestamp: n });
        break;
      case "bash":
        value = message({ role: "bashExecution", command: "ls", output: text, exitCode: s.pick % 3, cancelled: false, truncated: false, timestamp: n, ...(s.pick % 4 === 0 ? { excludeFromContext: true } : {}) });
        break;
      case "notes":
        value = { type: "custom", customType: "experimental_context_notes", data: { version: 1, text: `- notes ${text}` } };
        break;
      case "custom":
        value = { type: "custom", customType: "tool_execution_start", data: { toolCallId: this.calls[this.calls.length - 1] ?? "none", toolName: "bash" } };
        break;
      case "compaction-soft":
        value = { type: "compaction", summary: `soft ${text}`, shortSummary: "short", firstKeptEntryId: earlierId, tokensBefore: 900, method: "soft" };
        break;
      case "compaction-handoff":
        value = { type: "compaction", summary: `# Handoff\n\n${text}`, firstKeptEntryId: earlierId, tokensBefore: 900, method: "handoff" };
        break;
      case "compaction-snapcompact":
        value = {
          type: "compaction",
          summary: `archived ${text}`,
          shortSummary: "Archived",
          firstKeptEntryId: earlierId,
          tokensBefore: 900,
          method: "snapcompact",
          preserveData: { snapcompact: { frames: [], totalChars: 40, truncatedChars: 0, textHead: `head ${text}`, textTail: "tail" } },
        };
        break;
      case "compaction-remote":
        value = {
          type: "compaction",
          summary: "remote",
          firstKeptEntryId: earlierId,
          tokensBefore: 900,
          providerReplayThroughEntryId: this.ids.length > 0 ? this.ids[(s.pick >> 6) % this.ids.length] : undefined,
          preserveData: { openaiRemoteCompaction: { provider: "openai", replacementHistory: [{ type: "message", role: "user", content: text }] } },
        };
        break;
      case "compaction-rollover":
        value = { type: "compaction", summary: `rolled ${text}`, firstKeptEntryId: earlierId, tokensBefore: 900, details: { kind: "experimental-context-rollover" } };
        break;
      case "clear":
        value = { type: "reset_boundary" };
        break;
      case "branch-summary":
        value = { type: "branch_summary", fromId: earlierId, summary: s.pick % 4 === 0 ? "" : `branch ${text}` };
        break;
      case "model-change":
        value = { type: "model_change", model: `fake/m${s.pick % 4}`, ...(s.pick % 3 === 0 ? { role: "smol" } : {}) };
        break;
      case "thinking":
        value = { type: "thinking_level_change", thinkingLevel: s.pick % 2 ? "high" : null, configured: null };
        break;
      case "label":
        value = { type: "label", targetId: earlierId, label: s.pick % 2 ? `l${s.pick % 9}` : undefined };
        break;
    }
    this.ids.push(id);
    this.leaf = id;
    return JSON.stringify({ ...value, id, parentId, timestamp });
  }

  text(): string {
    return this.lines.map((l) => `${l}\n`).join("");
  }
}
