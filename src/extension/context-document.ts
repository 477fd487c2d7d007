// "Show Context": what the model sees from a leaf (pi's buildSessionContext +
// convertToLlm), as a markdown document. Pure (no vscode).
import { choosePiVersion, semanticsFor, type AgentSemantics } from "../core/agent";
import type { LoadedSession } from "../core/session/open/open-session";
import type { LlmMessage } from "../core/session/format/types";
import { counted } from "../core/text/counted";

function blockText(block: unknown): string {
  if (typeof block !== "object" || block === null) return "";
  const b = block as { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown; arguments?: unknown };
  if (b.type === "text" && typeof b.text === "string") return b.text;
  if (b.type === "thinking" && typeof b.thinking === "string") return `> (thinking) ${b.thinking.replace(/\n/g, "\n> ")}`;
  if (b.type === "toolCall") return `→ tool call \`${String(b.name)}\` ${JSON.stringify(b.arguments ?? {})}`;
  if (b.type === "image") return "[image]";
  return `[${String(b.type)}]`;
}

/** A pi 1.x system message: its text, each prompt section, the tools it adds and removes. */
function systemBody(message: { content?: unknown; sections?: unknown; toolsAdded?: unknown; toolsRemoved?: unknown }): string {
  const parts: string[] = [];
  const text = typeof message.content === "string" ? message.content : Array.isArray(message.content) ? message.content.map(blockText).join("\n\n") : "";
  if (text) parts.push(text);
  if (typeof message.sections === "object" && message.sections !== null) {
    for (const [name, value] of Object.entries(message.sections)) {
      parts.push(value === null ? `[section ${name} removed]` : `[section ${name}]\n${String(value)}`);
    }
  }
  const names = (list: unknown): string =>
    Array.isArray(list) ? list.map((t) => String((t as { name?: unknown } | null)?.name)).join(", ") : "";
  if (names(message.toolsAdded)) parts.push(`[tools added] ${names(message.toolsAdded)}`);
  if (names(message.toolsRemoved)) parts.push(`[tools removed] ${names(message.toolsRemoved)}`);
  return parts.join("\n\n");
}

function messageBody(message: LlmMessage): string {
  if (message.role === "system") return systemBody(message);
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(blockText).filter(Boolean).join("\n\n");
  return "";
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}text\n${text}\n${ticks}`;
}

/** `semantics`: the pi version's (default: chosen automatically for the session). */
export function contextDocument(
  session: LoadedSession,
  leafId: string | null,
  semantics: AgentSemantics = semanticsFor(choosePiVersion({ session }).version),
): string {
  const path = session.pathTo(leafId);
  const context = semantics.buildSessionContext(path);
  const messages = semantics.convertToLlm(context.messages);
  const usage = semantics.contextUsage(path);
  const how = { usage: "from the last answer's usage", estimate: "estimated", "estimate-after-compaction": "estimated: no answer since the last compaction" }[usage.source];
  const lines = [
    `# Context at ${leafId ?? "(empty)"}`,
    "",
    `What the model sees on the branch ending at this entry of \`${session.path ?? "session"}\`: ${counted(messages.length, "message")}, ~${usage.tokens.toLocaleString("en-US")} tokens (${how}); model ${context.model ? `${context.model.provider}/${context.model.modelId}` : "unknown"}, thinking ${context.thinkingLevel}; read as pi ${semantics.version}.`,
    "",
  ];
  // Per-message estimates only when convertToLlm kept one message per context message.
  const aligned = messages.length === context.messages.length;
  messages.forEach((message, i) => {
    const tokens = aligned ? ` (~${semantics.estimateTokens(context.messages[i]!)} tokens)` : "";
    lines.push(`## ${i + 1}. ${message.role}${tokens}`, "", fence(messageBody(message)), "");
  });
  return lines.join("\n");
}
