import { oneLine, systemPreview } from "../../core/tree/preview";
import type { LlmMessage } from "../../core/session/format/types";
import type { Command } from "../command";
import { printJson, printLines } from "../output";
import { loadSession, requireFileArg, resolveLeaf } from "../session-input";
import { sessionSemantics } from "../session-semantics";
import { sessionBranchReader } from "../../core/context/branch-reader";
import { formatAgentVersion } from "../../core/agent";
import { counted } from "../../core/text/counted";

function messageText(message: LlmMessage): string {
  if (message.role === "system") return systemPreview(message as unknown as Record<string, unknown>);
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: { type?: string; text?: string; thinking?: string; name?: string }) =>
      b.type === "text" ? b.text : b.type === "toolCall" ? `→ ${b.name}` : b.type === "image" ? "[image]" : "",
    )
    .filter(Boolean)
    .join(" ");
}

export const contextCommand: Command = {
  name: "context",
  usage: "context FILE [--leaf ID] [--agent pi|omp] [--pi-version 0.73|1.5] [--json]",
  summary: "What the model sees on the branch ending at the leaf (pi's buildSessionContext + convertToLlm).",
  flags: { leaf: { value: true } },
  async run(ctx) {
    const session = await loadSession(ctx, requireFileArg(ctx));
    const leafId = resolveLeaf(ctx, session);
    const { semantics, tags } = sessionSemantics(ctx, session);
    // Only the bodies the context reads are parsed where the agent can tell which (omp: after its latest boundary).
    const path = semantics.contextPath ? semantics.contextPath(sessionBranchReader(session, leafId)) : session.pathTo(leafId);
    const context = semantics.buildSessionContext(path);
    const messages = semantics.convertToLlm(context.messages);
    if (ctx.json) {
      printJson(ctx, { ...tags, leafId, thinkingLevel: context.thinkingLevel, model: context.model, messages });
      return 0;
    }
    const usage = semantics.contextUsage(path);
    const how = { usage: "from the last usage", estimate: "estimated", "estimate-after-compaction": "estimated: no answer since the last compaction" }[usage.source];
    const lines = [
      `leaf ${leafId ?? "none"} · ${counted(messages.length, "message")} · ~${usage.tokens} tokens (${how})` +
        ` · model ${context.model ? `${context.model.provider}/${context.model.modelId}` : "unknown"} · thinking ${context.thinkingLevel}` +
        ` · ${formatAgentVersion(semantics.agent)} semantics`,
    ];
    context.messages.forEach((m, i) => {
      // One at a time: convertToLlm may drop a message (0.73: system messages), which would shift the rows.
      const llm = semantics.convertToLlm([m])[0];
      const text = llm ? oneLine(messageText(llm), 90) : "";
      lines.push(`${String(i + 1).padStart(5)}  ${m.role.padEnd(17)} ${String(semantics.estimateTokens(m)).padStart(6)} tok  ${text}`);
    });
    printLines(ctx, lines);
    return 0;
  },
};
