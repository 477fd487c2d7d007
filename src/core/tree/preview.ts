// One-line previews of entries, as a tree row or a CLI line shows them.
import type { SessionEntry } from "../session/format/types";

const DEFAULT_WIDTH = 80;

export function oneLine(text: string, width = DEFAULT_WIDTH): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  let images = 0;
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    const b = block as { type?: unknown; text?: unknown };
    if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b.type === "image") images++;
  }
  if (images > 0) parts.push(images === 1 ? "[image]" : `[${images} images]`);
  return parts.join(" ");
}

/** The most telling argument of a tool call: a path, a command, a pattern. */
export function toolCallPreview(name: string, args: unknown): string {
  const a = args && typeof args === "object" ? (args as Record<string, unknown>) : {};
  const pick = (...keys: string[]) => keys.map((k) => a[k]).find((v) => typeof v === "string") as string | undefined;
  const detail = pick("path", "file_path", "command", "cmd", "pattern", "query", "url");
  return detail ? `${name} ${oneLine(detail, 60)}` : name;
}

function assistantPreview(content: unknown): string {
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  const calls: string[] = [];
  let thinking = false;
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    const b = block as { type?: unknown; text?: unknown; name?: unknown; arguments?: unknown };
    if (b.type === "text" && typeof b.text === "string" && b.text.trim()) texts.push(b.text);
    else if (b.type === "toolCall" && typeof b.name === "string") calls.push(toolCallPreview(b.name, b.arguments));
    else if (b.type === "thinking") thinking = true;
  }
  const text = texts.join(" ");
  if (text && calls.length) return `${text} → ${calls.join("; ")}`;
  if (text) return text;
  if (calls.length) return `→ ${calls.join("; ")}`;
  return thinking ? "(thinking)" : "(empty)";
}

/** pi 1.x system message: the sections it sets (−name: removed) and the tools it adds / removes. */
export function systemPreview(m: Record<string, unknown>): string {
  const names = (list: unknown, sign: string): string[] =>
    Array.isArray(list) ? list.map((t) => `${sign}${String((t as { name?: unknown } | null)?.name)}`) : [];
  const sections =
    m.sections && typeof m.sections === "object"
      ? Object.entries(m.sections as Record<string, unknown>).map(([name, value]) => (value === null ? `−${name}` : name))
      : [];
  const tools = [...names(m.toolsRemoved, "−"), ...names(m.toolsAdded, "+")];
  const parts = ["system prompt"];
  const text = contentText(m.content);
  if (text) parts.push(text);
  if (sections.length > 0) parts.push(`sections ${sections.join(" ")}`);
  if (tools.length > 0) parts.push(`tools ${tools.join(" ")}`);
  return parts.join(" · ");
}

/** A short description of what an entry is, for tree rows and `tree` output. */
export function entryPreview(entry: SessionEntry | Record<string, unknown>, width = DEFAULT_WIDTH): string {
  const e = entry as Record<string, unknown>;
  switch (e.type) {
    case "message": {
      const m = (e.message ?? {}) as Record<string, unknown>;
      switch (m.role) {
        case "user":
          return oneLine(contentText(m.content) || "(empty)", width);
        case "assistant": {
          const base = assistantPreview(m.content);
          const failed = m.stopReason === "error" ? " [error]" : m.stopReason === "aborted" ? " [aborted]" : "";
          return oneLine(base + failed, width);
        }
        case "toolResult": {
          const status = m.isError ? "error" : "ok";
          const text = contentText(m.content);
          return oneLine(`${String(m.toolName ?? "tool")} ${status}${text ? `: ${text}` : ""}`, width);
        }
        case "bashExecution":
          return oneLine(`$ ${String(m.command ?? "")}${m.exitCode ? ` (exit ${String(m.exitCode)})` : ""}`, width);
        case "custom":
          return oneLine(`[${String(m.customType ?? "custom")}] ${contentText(m.content)}`, width);
        case "system":
          return oneLine(systemPreview(m), width);
        case "developer":
          return oneLine(`[developer] ${contentText(m.content)}`, width);
        case "hookMessage":
          return oneLine(`[${String(m.customType ?? "hook")}] ${contentText(m.content)}`, width);
        case "pythonExecution":
          return oneLine(`python ${String(m.code ?? "")}${m.exitCode ? ` (exit ${String(m.exitCode)})` : ""}`, width);
        case "fileMention": {
          const files = Array.isArray(m.files) ? m.files.map((f) => String((f as { path?: unknown } | null)?.path ?? "?")) : [];
          return oneLine(`@ ${files.join(" ")}`, width);
        }
        default:
          return oneLine(`(message role ${JSON.stringify(m.role ?? null)})`, width);
      }
    }
    case "compaction": {
      const keeps = e.firstKeptEntryId === e.id ? "keeps nothing before it" : `keeps from ${String(e.firstKeptEntryId ?? "?")}`;
      // omp's fields: the method, tokens after, snapcompact frames, the short summary.
      const method = typeof e.method === "string" ? ` (${e.method})` : "";
      const after = typeof e.tokensAfter === "number" ? ` → ${e.tokensAfter}` : "";
      const archive = (e.preserveData as { snapcompact?: { frames?: unknown } } | undefined)?.snapcompact;
      const frames = Array.isArray(archive?.frames) ? ` · ${archive.frames.length} snapcompact frame${archive.frames.length === 1 ? "" : "s"}` : "";
      const short = typeof e.shortSummary === "string" && e.shortSummary ? ` · ${e.shortSummary}` : "";
      return oneLine(`compaction${method} of ${String(e.tokensBefore ?? "?")}${after} tokens, ${keeps}${e.systemMessage ? " · system checkpoint" : ""}${frames}${short}`, width);
    }
    case "branch_summary":
      return oneLine(`branch summary (from ${String(e.fromId ?? "?")})`, width);
    case "model_change":
      // omp writes `model: "provider/id"` and an optional role; pi `provider` + `modelId`.
      if (typeof e.model === "string") return oneLine(`model ${e.model}${typeof e.role === "string" && e.role !== "default" ? ` (${e.role})` : ""}`, width);
      return `model ${String(e.provider ?? "?")}/${String(e.modelId ?? "?")}`;
    case "thinking_level_change":
      // omp: null is off; `configured` "auto" lets omp pick per turn.
      if (e.thinkingLevel === null) return `thinking off${typeof e.configured === "string" ? ` (configured ${e.configured})` : ""}`;
      return `thinking ${String(e.thinkingLevel ?? "?")}${typeof e.configured === "string" && e.configured !== e.thinkingLevel ? ` (configured ${e.configured})` : ""}`;
    case "label":
      return e.label ? oneLine(`label ${String(e.targetId)} = "${String(e.label)}"`, width) : `label ${String(e.targetId)} cleared`;
    case "session_info":
      return oneLine(`name "${String(e.name ?? "")}"`, width);
    case "custom": {
      const data = (e.data ?? {}) as Record<string, unknown>;
      if (e.customType === "session_exit") return oneLine(`session exit (${String(data.kind ?? "?")}${data.reason ? `: ${String(data.reason)}` : ""})`, width);
      if (e.customType === "tool_execution_start") return oneLine(`tool ${String(data.toolName ?? "?")} started`, width);
      return oneLine(`custom ${String(e.customType ?? "")}`, width);
    }
    case "reset_boundary":
      return "── /clear ── everything above is out of omp's context";
    case "title_change":
      return oneLine(`title "${String(e.title ?? "")}" (${String(e.source ?? "?")})`, width);
    case "model_usage":
      return oneLine(`side call ${String(e.purpose ?? "?")} ${String(e.provider ?? "?")}/${String(e.model ?? "?")}`, width);
    case "service_tier_change":
      return oneLine(`service tier ${e.serviceTier === null ? "default" : JSON.stringify(e.serviceTier)}`, width);
    case "ttsr_injection":
      return oneLine(`rules injected: ${Array.isArray(e.injectedRules) ? e.injectedRules.join(", ") : ""}`, width);
    case "credential_pin":
      return oneLine(`credential pinned for ${String(e.provider ?? "?")}`, width);
    case "session_init":
      return oneLine(`subagent session: ${String(e.task ?? "")}`, width);
    case "mode_change":
      return oneLine(`mode ${String(e.mode ?? "?")}`, width);
    case "custom_message":
      return oneLine(`[${String(e.customType ?? "custom")}] ${contentText(e.content)}`, width);
    case "context_edit": {
      const replacement = e.replacement as { content?: unknown } | null | undefined;
      if (replacement === null) return oneLine(`context edit: ${String(e.targetId ?? "?")} omitted`, width);
      return oneLine(`context edit: ${String(e.targetId ?? "?")} replaced by "${contentText(replacement?.content)}"`, width);
    }
    case "usage": {
      const usage = (e.usage ?? {}) as { totalTokens?: unknown; cost?: { total?: unknown } };
      const cost = typeof usage.cost?.total === "number" ? ` $${usage.cost.total.toFixed(4)}` : "";
      const tokens = typeof usage.totalTokens === "number" ? ` ${usage.totalTokens} tokens` : "";
      return oneLine(`usage ${String(e.kind ?? "?")} ${String(e.provider ?? "?")}/${String(e.model ?? "?")}${tokens}${cost}${e.note ? ` (${String(e.note)})` : ""}`, width);
    }
    default:
      return oneLine(`(unknown entry type ${JSON.stringify(e.type ?? null)})`, width);
  }
}

/** The kind shown next to the id: `message:user`, `compaction`, … */
export function entryKind(entry: { type: string; role?: string }): string {
  return entry.type === "message" && entry.role ? `message:${entry.role}` : entry.type;
}
