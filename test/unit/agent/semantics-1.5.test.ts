// pi 1.5.2 rules that the 14 fixtures do not pin down alone, each on a small
// hand-built branch; the expected values follow pi 1.5.2's code (quoted in
// shared/spec/pi-1.5-semantics.md §2, §3.2, §10), not our output.

import { describe, expect, it } from "vitest";
import { getCurrentSystemMessage, semanticsFor } from "../../../src/core/agent/index.js";
import { estimateTokens } from "../../../src/core/agent/pi-1.5/estimate-tokens.js";
import { sliceHead, truncateForSummary } from "../../../src/core/agent/pi-1.5/serialize-conversation.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";

const pi15 = semanticsFor("1.5");
let clock = Date.parse("2026-01-01T00:00:00Z");
let counter = 0;
function chain(...bodies: Record<string, unknown>[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (const body of bodies) {
    const id = (body.id as string | undefined) ?? `e${++counter}`;
    const parentId = "parentId" in body ? (body.parentId as string | null) : (out.at(-1)?.id ?? null);
    out.push({ timestamp: new Date((clock += 1000)).toISOString(), ...body, id, parentId } as unknown as SessionEntry);
  }
  return out;
}
const msg = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "message", message: { timestamp: clock, ...message }, ...extra });
const user = (text: string, extra: Record<string, unknown> = {}) => msg({ role: "user", content: [{ type: "text", text }] }, extra);
const assistant = (text: string, extra: Record<string, unknown> = {}, usage?: Record<string, number>) =>
  msg({ role: "assistant", content: [{ type: "text", text }], provider: "p", model: "m", stopReason: "stop", ...(usage ? { usage } : {}) }, extra);
const system = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => msg({ role: "system", content: "", ...fields }, extra);
const tool = (name: string) => ({ name, description: `${name} tool`, parameters: {} });
const roles = (messages: readonly unknown[]) => messages.map((m) => (m as { role: string }).role);
const texts = (messages: readonly unknown[]) => messages.map((m) => JSON.stringify((m as { content?: unknown }).content));

describe("getCurrentSystemMessage (pi-ai 1.5.2 replay)", () => {
  it("joins contents with a blank line, patches sections by name (null deletes), keeps the first timestamp", () => {
    const current = getCurrentSystemMessage([
      { role: "system", content: "A", sections: { preamble: "P1", cwd: "/x" }, timestamp: 10 },
      { role: "user", content: "hi", timestamp: 11 },
      { role: "system", content: [{ type: "text", text: "B" }, { type: "text", text: "C" }], sections: { preamble: "P2", cwd: null }, timestamp: 12 },
      { role: "system", content: "", timestamp: 13 },
    ] as never);
    expect(current).toEqual({ role: "system", content: "A\n\nB\nC", sections: { preamble: "P2" }, timestamp: 10 });
  });

  it("tools: removals then additions per message through a Map (removed and re-added moves last; re-added alone keeps its place)", () => {
    const current = getCurrentSystemMessage([
      { role: "system", content: "", toolsAdded: [tool("read"), tool("bash"), tool("edit")], timestamp: 1 },
      { role: "system", content: "", toolsRemoved: [{ name: "read" }], toolsAdded: [{ ...tool("read"), description: "v2" }], timestamp: 2 },
      { role: "system", content: "", toolsAdded: [{ ...tool("bash"), description: "v3" }], timestamp: 3 },
      { role: "system", content: "", toolsRemoved: [{ name: "edit" }], timestamp: 4 },
    ] as never);
    expect(current?.toolsAdded?.map((t) => [t.name, t.description])).toEqual([
      ["bash", "v3"],
      ["read", "v2"],
    ]);
    expect(current?.sections).toBeUndefined();
  });

  it("is undefined without system messages; 0.73 never has one", () => {
    const path = chain(user("hi"), assistant("yo"));
    expect(pi15.currentSystemMessage(path)).toBeUndefined();
    expect(semanticsFor("0.73").currentSystemMessage(chain(system({ sections: { a: "b" } }), user("x")))).toBeUndefined();
  });

  it("currentSystemMessage of a branch comes from its projection: after a compaction, the checkpoint and later deltas only", () => {
    const path = chain(
      system({ sections: { preamble: "old" }, toolsAdded: [tool("read")] }, { id: "s1" }),
      user("q1", { id: "u1" }),
      assistant("a1", { id: "a1" }),
      system({ sections: { rules: "kept-delta" } }, { id: "s2" }),
      { type: "compaction", id: "c1", summary: "S", firstKeptEntryId: "u1", tokensBefore: 9,
        systemMessage: { role: "system", content: "", sections: { preamble: "checkpoint" }, toolsAdded: [tool("bash")], timestamp: 5 } },
      system({ sections: { cwd: "/later" } }, { id: "s3" }),
    );
    const current = pi15.currentSystemMessage(path)!;
    expect(current.sections).toEqual({ preamble: "checkpoint", cwd: "/later" });
    expect(current.toolsAdded?.map((t) => t.name)).toEqual(["bash"]);
  });
});

describe("context projection (buildSessionProjection)", () => {
  it("a compaction puts its systemMessage first, then the summary; kept system deltas are dropped", () => {
    const path = chain(
      system({ sections: { a: "1" } }, { id: "s1" }),
      user("q1", { id: "u1" }),
      system({ sections: { a: "2" } }, { id: "s2" }),
      assistant("a1"),
      { type: "compaction", id: "c1", summary: "S", firstKeptEntryId: "u1", tokensBefore: 9,
        systemMessage: { role: "system", content: "", sections: { a: "2" }, timestamp: 5 } },
      user("q2"),
    );
    expect(roles(pi15.buildSessionContext(path).messages)).toEqual(["system", "compactionSummary", "user", "assistant", "user"]);
    expect(roles(semanticsFor("0.73").buildSessionContext(path).messages)).toEqual(["compactionSummary", "user", "system", "assistant", "user"]);
  });

  it("retain-none: firstKeptEntryId is the compaction's own id, so nothing before it is kept", () => {
    const path = chain(user("q1"), assistant("a1"), { type: "compaction", id: "c1", summary: "S", firstKeptEntryId: "c1", tokensBefore: 9, fromHook: true }, user("q2"));
    expect(roles(pi15.buildSessionContext(path).messages)).toEqual(["compactionSummary", "user"]);
  });

  it("context edits: the latest edit wins; null omits; string replacements become a text block for assistant/toolResult only", () => {
    const path = chain(
      user("original user", { id: "u1" }),
      assistant("original assistant", { id: "a1" }),
      msg({ role: "toolResult", toolCallId: "t", toolName: "read", content: [{ type: "text", text: "big" }], isError: false }, { id: "r1" }),
      { type: "custom_message", id: "cm", customType: "x", content: "custom", display: true },
      { type: "context_edit", targetId: "u1", replacement: { content: "first edit" } },
      { type: "context_edit", targetId: "u1", replacement: { content: "user edit" } },
      { type: "context_edit", targetId: "a1", replacement: { content: "assistant edit" } },
      { type: "context_edit", targetId: "r1", replacement: { content: "tool edit" } },
      { type: "context_edit", targetId: "cm", replacement: { content: "custom edit" } },
      user("after"),
      assistant("x", { id: "gone" }),
      { type: "context_edit", targetId: "gone", replacement: null },
    );
    const messages = pi15.buildSessionContext(path).messages;
    expect(roles(messages)).toEqual(["user", "assistant", "toolResult", "custom", "user"]);
    expect(texts(messages)).toEqual([
      JSON.stringify("user edit"),
      JSON.stringify([{ type: "text", text: "assistant edit" }]),
      JSON.stringify([{ type: "text", text: "tool edit" }]),
      JSON.stringify("custom edit"),
      JSON.stringify([{ type: "text", text: "after" }]),
    ]);
  });

  it("context edits are branch-relative: an edit on another branch does not apply", () => {
    const base = chain(user("q", { id: "u1" }), assistant("a", { id: "a1" }));
    const [edit] = chain({ type: "context_edit", id: "ed", parentId: "a1", targetId: "u1", replacement: null });
    const other = chain(user("other", { parentId: "a1" }));
    expect(roles(pi15.buildSessionContext([...base, edit!]).messages)).toEqual(["assistant"]);
    expect(roles(pi15.buildSessionContext([...base, ...other]).messages)).toEqual(["user", "assistant", "user"]);
  });

  it("null content is normalised ('' for system, [] for user/assistant/toolResult); usage entries add nothing", () => {
    const path = chain(system({ content: null, sections: { a: "b" } }), msg({ role: "user", content: null }), { type: "usage", kind: "cache_warm", provider: "p", model: "m", usage: {} });
    const messages = pi15.buildSessionContext(path).messages as { content: unknown }[];
    expect(messages.map((m) => m.content)).toEqual(["", []]);
  });

  it("future entry types and message roles are skipped, never a crash", () => {
    const path = chain(user("q"), { type: "future_thing", data: 1 }, msg({ role: "hologram", content: 3 }), assistant("a"), { type: "context_edit", targetId: "x", replacement: 42 });
    const context = pi15.buildSessionContext(path);
    expect(roles(pi15.convertToLlm(context.messages))).toEqual(["user", "assistant"]);
    expect(() => pi15.planCompaction(path, { enabled: true, reserveTokens: 0, keepRecentTokens: 1 })).not.toThrow();
    expect(() => pi15.contextTokens(path)).not.toThrow();
  });
});

describe("token estimates", () => {
  it("system: content + non-null sections + JSON of toolsAdded (removals free); user images count 4800 chars", () => {
    const tools = [tool("read")];
    const chars = 3 + "abcd".length + JSON.stringify(tools).length;
    expect(estimateTokens({ role: "system", content: "xyz", sections: { a: "abcd", b: null }, toolsAdded: tools, toolsRemoved: [{ name: "zzzzzzzz" }], timestamp: 0 } as never)).toBe(Math.ceil(chars / 4));
    expect(estimateTokens({ role: "user", content: [{ type: "text", text: "abcd" }, { type: "image", data: "", mimeType: "image/png" }], timestamp: 0 } as never)).toBe(Math.ceil(4804 / 4));
  });

  it("all-zero usage is no usage; usage before the latest context_edit or compaction is not trusted", () => {
    const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
    const big = { input: 50000, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 50000 };
    const q = "q".repeat(400);
    expect(pi15.contextTokens(chain(user(q), assistant("a", {}, zero))).tokens).toBe(100 + 1);
    expect(pi15.contextTokens(chain(user(q), assistant("a", {}, big))).tokens).toBe(50000);
    const edited = chain(user(q, { id: "uq" }), assistant("a", {}, big), { type: "context_edit", targetId: "uq", replacement: { content: "short" } });
    expect(pi15.contextTokens(edited).tokens).toBe(Math.ceil(5 / 4) + 1);
  });
});

describe("serialisation", () => {
  it("leaves thinking out", () => {
    const text = pi15.serializeConversation([
      { role: "assistant", content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "A" }, { type: "text", text: "B" }], provider: "p", model: "m", timestamp: 0 },
    ] as never);
    expect(text).toBe("[Assistant]: A\nB");
  });

  it("cuts a long tool result without splitting a surrogate pair", () => {
    const text = `${"x".repeat(1999)}😀tail`;
    expect(sliceHead(text, 2000)).toBe("x".repeat(1999));
    expect(truncateForSummary(text, 2000)).toBe(`${"x".repeat(1999)}\n\n[... ${text.length - 2000} more characters truncated]`);
  });
});

describe("prepareCompaction (1.5)", () => {
  const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

  it("nothing to compact when only the system message lies before the cut", () => {
    const path = chain(system({ sections: { preamble: "p".repeat(400) } }), user("hi"), assistant("yo"));
    const plan = pi15.planCompaction(path, settings);
    expect(plan.compactable).toBe(false);
    expect(semanticsFor("0.73").planCompaction(path, settings).compactable).toBe(true);
  });

  it("file operations include a codemode tool result's nestedCalls", () => {
    const path = chain(
      user("q".repeat(400)),
      msg({ role: "toolResult", toolCallId: "t", toolName: "code", content: [{ type: "text", text: "ok" }], isError: false,
        nestedCalls: { complete: true, calls: [{ id: "1", name: "read", arguments: { path: "a.ts" }, status: "ok" }, { id: "2", name: "write", arguments: { path: "b.ts" }, status: "ok" }] } }),
      user("next ".repeat(100)),
      assistant("done ".repeat(100)),
    );
    const plan = pi15.planCompaction(path, { ...settings, keepRecentTokens: 100 });
    expect(plan.compactable).toBe(true);
    const described = pi15.describePreparation(plan);
    expect(described).toMatchObject({ readFiles: ["a.ts"], modifiedFiles: ["b.ts"] });
  });
});
