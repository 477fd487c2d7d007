// Random session lines for live-update property tests: a model of a session
// file that can append entries of every kind (usage, zero usage, aborted
// answers, compactions, branch switches, dangling parents, reused ids, bad
// lines), so incremental readers can be compared with fresh reads.
import { appendFileSync, writeFileSync } from "node:fs";
import fc from "fast-check";

export const HEADER = JSON.stringify({ type: "session", version: 3, id: "sess", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" });

/** What to write next, decided by the property's random choices. */
export type Kind =
  | "user"
  | "assistant"
  | "assistant-zero"
  | "assistant-aborted"
  | "tool"
  | "custom_message"
  | "branch_summary"
  | "branch_summary-empty"
  | "compaction"
  | "model_change"
  | "thinking"
  | "label"
  | "session_info"
  | "unknown"
  | "bad-line"
  | "context_edit"
  | "system";
export type Parent = "leaf" | "earlier" | "null" | "dangling" | "duplicate-id";
export interface Step {
  kind: Kind;
  parent: Parent;
  pick: number;
  text: string;
  usage: number;
}

export const step = fc.record({
  kind: fc.constantFrom<Kind>(
    "user",
    "assistant",
    "assistant",
    "assistant-zero",
    "assistant-aborted",
    "tool",
    "custom_message",
    "branch_summary",
    "branch_summary-empty",
    "compaction",
    "model_change",
    "thinking",
    "label",
    "session_info",
    "unknown",
    "bad-line",
  ),
  parent: fc.constantFrom<Parent>("leaf", "leaf", "leaf", "leaf", "earlier", "null", "dangling", "duplicate-id"),
  pick: fc.nat(),
  text: fc.string({ maxLength: 40 }),
  usage: fc.integer({ min: 1, max: 200_000 }),
});

/** Steps that also write pi 1.x context edits (omitting or replacing an earlier entry, a later one, or one not in the file). */
export const stepWithEdits: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: step },
  { weight: 1, arbitrary: step.map((s) => ({ ...s, kind: "context_edit" as const })) },
  // pi 1.x system messages: the pure estimate counts the current one (content, sections, tools) once.
  { weight: 1, arbitrary: step.map((s) => ({ ...s, kind: "system" as const })) },
);

export type Op = { op: "append"; steps: Step[] } | { op: "truncate"; keep: number } | { op: "rewrite"; keep: number; steps: Step[] };
export function opOf(steps: fc.Arbitrary<Step>): fc.Arbitrary<Op> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant("append" as const), steps: fc.array(steps, { minLength: 1, maxLength: 6 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("truncate" as const), keep: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("rewrite" as const), keep: fc.nat(), steps: fc.array(steps, { minLength: 1, maxLength: 4 }) }) },
  );
}
export const op: fc.Arbitrary<Op> = opOf(step);

export class FileModel {
  lines: string[] = [HEADER];
  ids: string[] = [];
  /** Next id number (set it past the ids of a file read back). */
  counter = 0;

  line(s: Step): string {
    const id = s.parent === "duplicate-id" && this.ids.length > 0 ? this.ids[s.pick % this.ids.length]! : `e${(this.counter++).toString(16).padStart(6, "0")}`;
    const leaf = this.ids[this.ids.length - 1] ?? null;
    const parentId =
      s.parent === "leaf" || s.parent === "duplicate-id"
        ? leaf
        : s.parent === "earlier"
          ? (this.ids[s.pick % Math.max(1, this.ids.length)] ?? null)
          : s.parent === "null"
            ? null
            : "missing-parent";
    const timestamp = new Date(Date.UTC(2025, 0, 1) + this.counter * 1000).toISOString();
    const base = { id, parentId, timestamp };
    const usage = (n: number) => ({ input: n, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: n + 10 });
    const assistant = (stopReason: string, u: ReturnType<typeof usage>) => ({
      type: "message",
      ...base,
      message: { role: "assistant", content: [{ type: "text", text: s.text }], provider: "p", model: `m${s.pick % 3}`, usage: u, stopReason, timestamp: 2 },
    });
    let value: Record<string, unknown>;
    switch (s.kind) {
      case "user":
        value = { type: "message", ...base, message: { role: "user", content: s.text, timestamp: 1000 + this.counter } };
        break;
      case "assistant":
        value = assistant("stop", usage(s.usage));
        break;
      case "assistant-zero":
        value = assistant("stop", { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 });
        break;
      case "assistant-aborted":
        value = assistant("aborted", usage(s.usage));
        break;
      case "tool":
        value = { type: "message", ...base, message: { role: "toolResult", toolCallId: "t", toolName: "bash", content: [{ type: "text", text: s.text.repeat(5) }], isError: false, timestamp: 3 } };
        break;
      case "custom_message":
        value = { type: "custom_message", ...base, customType: "x", content: s.text, display: true };
        break;
      case "branch_summary":
        value = { type: "branch_summary", ...base, fromId: "f", summary: `summary ${s.text}` };
        break;
      case "branch_summary-empty":
        value = { type: "branch_summary", ...base, fromId: "f", summary: "" };
        break;
      case "compaction":
        value = { type: "compaction", ...base, summary: `compacted ${s.text}`, firstKeptEntryId: this.ids[s.pick % Math.max(1, this.ids.length)] ?? "none", tokensBefore: 5 };
        break;
      case "model_change":
        value = { type: "model_change", ...base, provider: "q", modelId: `n${s.pick % 3}` };
        break;
      case "thinking":
        value = { type: "thinking_level_change", ...base, thinkingLevel: ["off", "low", "high"][s.pick % 3] };
        break;
      case "label":
        value = { type: "label", ...base, targetId: this.ids[s.pick % Math.max(1, this.ids.length)] ?? "x", label: s.pick % 4 === 0 ? undefined : `L${s.pick % 5}` };
        break;
      case "session_info":
        value = { type: "session_info", ...base, name: s.text };
        break;
      case "unknown":
        value = { type: "usage", ...base, usage: usage(s.usage) };
        break;
      case "bad-line":
        return `{"type":"message","id":"${id}",`;
      case "system": {
        const sections = [{ a: s.text }, { a: null, b: "bee" }, undefined][s.pick % 3];
        const toolsAdded = s.pick % 2 ? [{ name: `t${s.pick % 3}`, description: s.text, parameters: {} }] : undefined;
        const toolsRemoved = s.pick % 5 === 0 ? [{ name: "t1" }] : undefined;
        value = { type: "message", ...base, message: { role: "system", content: s.text, sections, toolsAdded, toolsRemoved, timestamp: 5 } };
        break;
      }
      case "context_edit": {
        // Some targets no entry has yet: one of the next few entries takes that id (pi applies the edit to it).
        const ahead = `e${(this.counter + ((s.pick >> 3) % 3)).toString(16).padStart(6, "0")}`;
        const targetId = s.pick % 7 === 0 ? "not-in-file" : s.pick % 7 === 1 ? ahead : (this.ids[(s.pick >> 3) % Math.max(1, this.ids.length)] ?? "none");
        value = { type: "context_edit", ...base, targetId, replacement: s.pick % 2 === 0 ? null : { content: `edited ${s.text}` } };
        break;
      }
    }
    this.ids.push(id);
    return JSON.stringify(value);
  }

  text(): string {
    return this.lines.map((l) => `${l}\n`).join("");
  }

  /**
   * Applies an op to the model and to the file at `path`: an append appends; a
   * truncation or rewrite writes the file again, always with a different last
   * line (`run` in it), so the change is seen even at the same size and mtime.
   */
  applyTo(path: string, o: Op, run: number): void {
    if (o.op === "append") {
      const added = o.steps.map((s) => this.line(s));
      this.lines.push(...added);
      appendFileSync(path, added.map((l) => `${l}\n`).join(""));
      return;
    }
    this.lines = this.lines.slice(0, 1 + (o.keep % this.lines.length));
    if (o.op === "rewrite") for (const s of o.steps) this.lines.push(this.line(s));
    this.lines.push(this.line({ kind: "custom_message", parent: "leaf", pick: 0, text: `r${run}`, usage: 1 }));
    writeFileSync(path, this.text());
  }
}

