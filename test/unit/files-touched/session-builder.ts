// Builds session entries in pi's v3 shapes for the collector tests.
import type { SessionEntry } from "../../../src/core/session/format/types";

let counter = 0;

function base(): { id: string; parentId: string | null; timestamp: string } {
  counter++;
  return { id: `e${counter.toString(16).padStart(7, "0")}`, parentId: null, timestamp: new Date(counter * 1000).toISOString() };
}

export function call(name: string, args: Record<string, unknown>, id = `call_${counter + 1}`): SessionEntry {
  return {
    ...base(),
    type: "message",
    message: {
      role: "assistant",
      content: [{ type: "toolCall", id, name, arguments: args }],
      provider: "test",
      model: "test",
      timestamp: counter,
    },
  };
}

export function result(toolCallId: string, isError = false, toolName = "tool", text = "ok"): SessionEntry {
  return {
    ...base(),
    type: "message",
    message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError, timestamp: counter },
  };
}

/** A tool call with its result, as pi writes them: two entries. */
export function tool(name: string, args: Record<string, unknown>, isError = false): SessionEntry[] {
  const id = `call_${counter + 1}`;
  return [call(name, args, id), result(id, isError, name)];
}

export function userBash(command: string, exitCode = 0): SessionEntry {
  return {
    ...base(),
    type: "message",
    message: { role: "bashExecution", command, output: "", exitCode, cancelled: false, truncated: false, timestamp: counter },
  };
}

/** An assistant message in another agent's spelling (raw content blocks). */
export function rawAssistant(content: unknown[]): SessionEntry {
  return {
    ...base(),
    type: "message",
    message: { role: "assistant", content, provider: "test", model: "test", timestamp: counter } as never,
  };
}

export function rawResult(fields: Record<string, unknown>): SessionEntry {
  return { ...base(), type: "message", message: { role: "toolResult", content: [], timestamp: counter, ...fields } as never };
}
