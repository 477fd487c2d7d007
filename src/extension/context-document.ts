// "Show Context": what the model sees from a leaf (pi's buildSessionContext +
// convertToLlm), as a markdown document. Pure (no vscode).
import { buildContextFromPath, convertToLlm } from "../core/context";
import type { LoadedSession } from "../core/session/open-session";
import type { LlmMessage } from "../core/session/types";
import { contextUsage, estimateTokens } from "../core/tokens";

function blockText(block: unknown): string {
  if (typeof block !== "object" || block === null) return "";
  const b = block as { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown; arguments?: unknown };
  if (b.type === "text" && typeof b.text === "string") return b.text;
  if (b.type === "thinking" && typeof b.thinking === "string") return `> (thinking) ${b.thinking.replace(/\n/g, "\n> ")}`;
  if (b.type === "toolCall") return `→ tool call \`${String(b.name)}\` ${JSON.stringify(b.arguments ?? {})}`;
  if (b.type === "image") return "[image]";
  return `[${String(b.type)}]`;
}

function messageBody(message: LlmMessage): string {
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

export function contextDocument(session: LoadedSession, leafId: string | null): string {
  const path = session.pathTo(leafId);
  const context = buildContextFromPath(path);
  const messages = convertToLlm(context.messages);
  const usage = contextUsage(path);
  const how = { usage: "from the last answer's usage", estimate: "estimated", "estimate-after-compaction": "estimated: no answer since the last compaction" }[usage.source];
  const lines = [
    `# Context at ${leafId ?? "(empty)"}`,
    "",
    `What the model sees on the branch ending at this entry of \`${session.path ?? "session"}\`: ${messages.length} messages, ~${usage.tokens.toLocaleString("en-US")} tokens (${how}); model ${context.model ? `${context.model.provider}/${context.model.modelId}` : "unknown"}, thinking ${context.thinkingLevel}.`,
    "",
  ];
  // Per-message estimates only when convertToLlm kept one message per context message.
  const aligned = messages.length === context.messages.length;
  messages.forEach((message, i) => {
    const tokens = aligned ? ` (~${estimateTokens(context.messages[i]!)} tokens)` : "";
    lines.push(`## ${i + 1}. ${message.role}${tokens}`, "", fence(messageBody(message)), "");
  });
  return lines.join("\n");
}
