// pi 1.5.2's file tracking for summaries (compaction/utils.js
// extractFileOpsFromMessage): read / write / edit tool calls of assistant
// messages, as in 0.73.1, plus the calls a codemode script made, recorded on its
// tool result as `nestedCalls.calls`.

import { isObject, type ContextMessage } from "../../context/context-message.js";
import { extractFileOpsFromMessage as extractFromAssistant, type FileOperations } from "../../compaction/file-ops.js";

function addFileOp(toolName: unknown, args: unknown, fileOps: FileOperations): void {
  const path = isObject(args) && typeof args.path === "string" ? args.path : undefined;
  if (!path) return;
  if (toolName === "read") fileOps.read.add(path);
  else if (toolName === "write") fileOps.written.add(path);
  else if (toolName === "edit") fileOps.edited.add(path);
}

export function extractFileOpsFromMessage(message: ContextMessage, fileOps: FileOperations): void {
  if (!isObject(message)) return;
  if (message.role === "toolResult") {
    const nested = message.nestedCalls;
    const calls = isObject(nested) && Array.isArray(nested.calls) ? nested.calls : [];
    for (const call of calls) if (isObject(call)) addFileOp(call.name, call.arguments, fileOps);
    return;
  }
  extractFromAssistant(message, fileOps);
}
