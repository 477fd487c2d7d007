// Lines of a long linear session in turns of user, assistant, toolResult,
// assistant (the shape the Entries view folds into turns), and the node ids a
// test compares (an entry's id, or the node's kind).
import type { EntryNode } from "../../../src/extension/views/entries-model";

export const TURN_ROLES = ["user", "assistant", "toolResult", "assistant"];

export function turnLine(id: string, parentId: string | null, role: string, text: string): string {
  const content = role === "user" ? text : [{ type: "text", text }];
  const message =
    role === "toolResult"
      ? { role, toolCallId: `c-${id}`, toolName: "read", content, isError: false, timestamp: 1 }
      : role === "assistant"
        ? { role, content, provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 } }, stopReason: "stop", timestamp: 1 }
        : { role, content, timestamp: 1 };
  return JSON.stringify({ type: "message", id, parentId, timestamp: "2026-03-01T10:00:00.000Z", message }) + "\n";
}

export function nodeIds(nodes: EntryNode[]): string[] {
  return nodes.map((n) => (n.kind === "entry" ? n.entryId : n.kind));
}
