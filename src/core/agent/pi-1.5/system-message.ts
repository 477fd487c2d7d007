// pi-ai 1.5.2's transcript replay (utils/transcript.js getCurrentTools,
// getCurrentSystemMessage): the system prompt and tools in force after all the
// system messages of a context. Contents are joined with a blank line, sections
// patched by name (null deletes), tools replayed through a Map: per message the
// removals first, then the additions (a tool removed and added again moves last).

import { isObject, type ContextMessage } from "../../context/context-message.js";
import type { SystemMessage } from "../../session/format/types.js";

type Tool = NonNullable<SystemMessage["toolsAdded"]>[number];

function isSystemMessage(message: ContextMessage): message is SystemMessage {
  return isObject(message) && message.role === "system";
}

/** pi-ai's contentText: a string as is, else the text blocks joined by `separator`. */
export function contentText(content: unknown, separator = "\n"): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is { type: "text"; text: unknown } => isObject(block) && block.type === "text")
    .map((block) => (block.text == null ? "" : String(block.text)))
    .join(separator);
}

function toolList(value: unknown): Tool[] {
  return Array.isArray(value) ? value.filter((tool): tool is Tool => isObject(tool)) : [];
}

export function getCurrentTools(messages: readonly ContextMessage[]): Tool[] {
  const tools = new Map<unknown, Tool>();
  for (const message of messages) {
    if (!isSystemMessage(message)) continue;
    for (const tool of toolList(message.toolsRemoved)) tools.delete(tool.name);
    for (const tool of toolList(message.toolsAdded)) tools.set(tool.name, tool);
  }
  return [...tools.values()];
}

export function getCurrentSystemMessage(messages: readonly ContextMessage[]): SystemMessage | undefined {
  const content: string[] = [];
  const sections = new Map<string, string>();
  let timestamp: number | undefined;
  for (const message of messages) {
    if (!isSystemMessage(message)) continue;
    timestamp ??= message.timestamp;
    const text = contentText(message.content);
    if (text.length > 0) content.push(text);
    const patch = isObject(message.sections) ? message.sections : {};
    for (const [name, value] of Object.entries(patch)) {
      if (value === null) sections.delete(name);
      else sections.set(name, value as string);
    }
  }
  const tools = getCurrentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  return {
    role: "system",
    content: content.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}
