// A pi 1.5 session file written step by step for the catalogue's context-edit
// property tests: random steps (answers, failed and zero-usage answers, tools,
// images, custom and bash messages, context edits aimed at recent, old, missing
// or next entries with every kind of replacement, compactions, system messages,
// branch switches, labels, model changes) and the file's lines so far.
import fc from "fast-check";

export const HEADER = JSON.stringify({ type: "session", version: 3, id: "sess", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" });
const IMAGE = { type: "image", data: "aGk=", mimeType: "image/png" };

export type Kind = "no-role" | "user" | "user-image" | "assistant" | "assistant-tool" | "assistant-error" | "assistant-zero" | "tool" | "tool-image" | "custom" | "bash" | "edit" | "compaction" | "system" | "switch" | "label" | "model";
export type Target = "newest" | "recent" | "previous-target" | "old" | "missing" | "next";
export type Replacement = "null" | "string" | "array" | "empty" | "junk";
export interface Step {
  kind: Kind;
  target: Target;
  replacement: Replacement;
  pick: number;
  text: string;
  usage: number;
}

const kinds: [Kind, number][] = [
  ["user", 3], ["user-image", 1], ["assistant", 4], ["assistant-tool", 2], ["assistant-error", 2], ["assistant-zero", 1], ["tool", 3], ["tool-image", 1],
  ["custom", 1], ["bash", 1], ["no-role", 1], ["edit", 6], ["compaction", 1], ["system", 1], ["switch", 1], ["label", 1], ["model", 1],
];
export const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.oneof(...kinds.map(([k, weight]) => ({ weight, arbitrary: fc.constant(k) }))),
  target: fc.oneof({ weight: 3, arbitrary: fc.constant<Target>("newest") }, { weight: 4, arbitrary: fc.constant<Target>("recent") }, { weight: 2, arbitrary: fc.constant<Target>("previous-target") }, { weight: 1, arbitrary: fc.constant<Target>("old") }, { weight: 1, arbitrary: fc.constant<Target>("missing") }, { weight: 1, arbitrary: fc.constant<Target>("next") }),
  replacement: fc.oneof({ weight: 4, arbitrary: fc.constant<Replacement>("null") }, { weight: 2, arbitrary: fc.constant<Replacement>("string") }, { weight: 2, arbitrary: fc.constant<Replacement>("array") }, { weight: 1, arbitrary: fc.constant<Replacement>("empty") }, { weight: 1, arbitrary: fc.constant<Replacement>("junk") }),
  pick: fc.nat(),
  text: fc.string({ maxLength: 30 }),
  usage: fc.integer({ min: 1, max: 150_000 }),
});

/** A pi 1.5 session file being written: the branch's ids, to aim edits and switches. */
export class Pi15File {
  lines: string[] = [HEADER];
  branch: string[] = [];
  private all: string[] = [];
  private lastTarget: string | undefined;
  private n = 0;

  constructor() {
    // pi 1.5 starts every session with its system message (the file's pi 1.x marker).
    this.lines.push(this.line({ kind: "system", target: "recent", replacement: "null", pick: 0, text: "You are pi.", usage: 1 }));
  }

  line(s: Step): string {
    const id = `e${(this.n++).toString(16).padStart(5, "0")}`;
    let parentId = this.branch[this.branch.length - 1] ?? null;
    if (s.kind === "switch" && this.branch.length > 1) {
      const at = s.pick % (this.branch.length - 1);
      parentId = this.branch[at]!;
      this.branch = this.branch.slice(0, at + 1);
    }
    const base = { id, parentId, timestamp: new Date(Date.UTC(2026, 0, 1) + this.n * 1000).toISOString() };
    const usage = (n: number) => ({ input: n, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: n + 10, cost: { total: 0.25 } /* exact in binary: the appended sum groups additions differently (float rounding) */ });
    const assistant = (content: unknown[], stopReason: string, u: ReturnType<typeof usage>) => ({ type: "message", ...base, message: { role: "assistant", content, provider: "p", model: "m", usage: u, stopReason, timestamp: 2 } });
    let value: Record<string, unknown>;
    switch (s.kind) {
      case "user":
      case "switch":
        value = { type: "message", ...base, message: { role: "user", content: `ask ${s.text}`, timestamp: 1 } };
        break;
      case "no-role":
        // A message pi still projects (as is), without a role: counts as a message of 0 tokens.
        value = { type: "message", ...base, message: { content: s.text, timestamp: 1 } };
        break;
      case "user-image":
        value = { type: "message", ...base, message: { role: "user", content: [{ type: "text", text: s.text }, IMAGE], timestamp: 1 } };
        break;
      case "assistant":
        value = assistant([{ type: "text", text: `answer ${s.text}` }], "stop", usage(s.usage));
        break;
      case "assistant-tool":
        value = assistant([{ type: "thinking", thinking: "hmm" }, { type: "toolCall", id: "t", name: "read", arguments: { path: s.text } }], "toolUse", usage(s.usage));
        break;
      case "assistant-error":
        value = assistant([], "error", usage(0));
        break;
      case "assistant-zero":
        value = assistant([{ type: "text", text: s.text }], "stop", usage(0));
        break;
      case "tool":
        value = { type: "message", ...base, message: { role: "toolResult", toolCallId: "t", toolName: "read", content: [{ type: "text", text: s.text.repeat(4) }], isError: false, timestamp: 3 } };
        break;
      case "tool-image":
        value = { type: "message", ...base, message: { role: "toolResult", toolCallId: "t", toolName: "read", content: [IMAGE, { type: "text", text: s.text }], isError: false, timestamp: 3 } };
        break;
      case "custom":
        value = { type: "custom_message", ...base, customType: "x", content: s.pick % 2 ? s.text : [{ type: "text", text: s.text }, IMAGE], display: true };
        break;
      case "bash":
        value = { type: "message", ...base, message: { role: "bashExecution", command: "ls", output: s.text, exitCode: 0, cancelled: false, truncated: false, timestamp: 4 } };
        break;
      case "edit": {
        const recent = this.branch.slice(-6);
        const recentId = s.target === "newest" ? recent[recent.length - 1] : recent[s.pick % Math.max(1, recent.length)];
        const targetId = {
          missing: "not-in-file",
          // The id the next line takes: pi applies the edit to that entry when it comes.
          next: `e${this.n.toString(16).padStart(5, "0")}`,
          old: this.all[s.pick % Math.max(1, this.all.length)] ?? "none",
          "previous-target": this.lastTarget ?? recentId ?? "none",
          newest: recentId ?? "none",
          recent: recentId ?? "none",
        }[s.target];
        this.lastTarget = targetId;
        const replacement = { null: null, string: { content: `short ${s.text}` }, array: { content: [{ type: "text", text: s.text }, IMAGE] }, empty: {}, junk: "junk" }[s.replacement];
        value = { type: "context_edit", ...base, targetId, replacement };
        break;
      }
      case "compaction":
        value = { type: "compaction", ...base, summary: `compacted ${s.text}`, firstKeptEntryId: this.branch[s.pick % Math.max(1, this.branch.length)] ?? "none", tokensBefore: 5 };
        break;
      case "system":
        value = { type: "message", ...base, message: { role: "system", content: s.text || "sys", sections: s.pick % 2 ? { a: s.text } : undefined, timestamp: 5 } };
        break;
      case "label":
        value = { type: "label", ...base, targetId: this.branch[0] ?? "x", label: `L${s.pick % 3}` };
        break;
      case "model":
        value = { type: "model_change", ...base, provider: "q", modelId: `n${s.pick % 3}` };
        break;
    }
    this.branch.push(id);
    this.all.push(id);
    return JSON.stringify(value);
  }

  text(): string {
    return this.lines.map((l) => `${l}\n`).join("");
  }
}

/** A step with every field but those given at its plainest. */
export const s0 = (kind: Kind, fields: Partial<Step> = {}): Step => ({ kind, target: "recent", replacement: "null", pick: 0, text: "", usage: 1, ...fields });
