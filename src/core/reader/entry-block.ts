// One session entry → its ReaderBlock. Tolerant: a file may hold anything, so
// every field is checked; an entry we cannot make sense of becomes an
// "unknown" block with its JSON (kept and shown, never dropped).
import { toolCallPreview } from "../tree/preview";
import type { SessionEntry } from "../session/format/types";
import type { AssistantPart, ReaderBlock, ToolCallView } from "./reader-block";
import { imageRefusal, MAX_IMAGES_PER_BLOCK, type ReaderImage } from "./reader-image";
import { counted } from "../text/counted.js";
import { snapcompactFrameImages } from "./snapcompact-frames";

/** Longest text one block carries; the rest is cut with a note (a tool output can be megabytes). */
export const MAX_BLOCK_CHARS = 100_000;

type Rec = Record<string, unknown>;

const isRec = (x: unknown): x is Rec => typeof x === "object" && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === "string" ? x : undefined);
const num = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) ? x : undefined);

function cutAt(block: ReaderBlock, maxChars: number): ReaderBlock {
  if (block.text.length <= maxChars) return block;
  return { ...block, text: block.text.slice(0, maxChars), truncatedFrom: block.text.length };
}

/** Text of a content field (string or blocks), how many images it held, and those shown. */
export function contentText(content: unknown): { text: string; images: number; shown: ReaderImage[]; refusals: string[] } {
  if (typeof content === "string") return { text: content, images: 0, shown: [], refusals: [] };
  if (!Array.isArray(content)) return { text: "", images: 0, shown: [], refusals: [] };
  const texts: string[] = [];
  const shown: ReaderImage[] = [];
  const refusals: string[] = [];
  let images = 0;
  for (const part of content) {
    if (!isRec(part)) continue;
    if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else if (part.type === "image") {
      images++;
      const refusal = shown.length >= MAX_IMAGES_PER_BLOCK ? `more than ${MAX_IMAGES_PER_BLOCK} in one entry` : imageRefusal(part);
      if (refusal === undefined) shown.push({ mimeType: part.mimeType as ReaderImage["mimeType"], data: part.data as string });
      else refusals.push(refusal);
    }
  }
  return { text: texts.join("\n\n"), images, shown, refusals };
}

/** "2 images" and why any is not shown; the images to show. */
function imageFields(content: ReturnType<typeof contentText>): Pick<ReaderBlock, "detail" | "images"> {
  if (content.images === 0) return {};
  const count = counted(content.images, "image");
  const notShown = content.refusals.length === 0 ? "" : ` (${content.refusals.length} not shown: ${[...new Set(content.refusals)].join("; ")})`;
  return { detail: `${count}${notShown}`, ...(content.shown.length > 0 ? { images: content.shown } : {}) };
}

const COMMAND_KEYS = ["command", "cmd", "script"];
const PATH_KEYS = ["path", "file_path", "filePath", "file"];

export function toolCallView(part: Rec): ToolCallView {
  const args = isRec(part.arguments) ? part.arguments : {};
  const view: ToolCallView = { id: str(part.id) ?? "", name: str(part.name) ?? "tool", args: safeJson(part.arguments ?? {}) };
  const command = COMMAND_KEYS.map((k) => args[k]).find((v): v is string => typeof v === "string");
  const path = PATH_KEYS.map((k) => args[k]).find((v): v is string => typeof v === "string" && v.length > 0);
  if (command !== undefined) view.command = command;
  if (path !== undefined) view.path = path;
  return view;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "";
  } catch {
    return String(value);
  }
}

function assistantParts(content: unknown): AssistantPart[] {
  if (!Array.isArray(content)) return [];
  const parts: AssistantPart[] = [];
  for (const part of content) {
    if (!isRec(part)) continue;
    if (part.type === "text" && typeof part.text === "string") parts.push({ type: "text", text: part.text });
    else if (part.type === "thinking") parts.push({ type: "thinking", text: str(part.thinking) ?? (part.redacted ? "(redacted)" : "") });
    else if (part.type === "toolCall") parts.push({ type: "toolCall", call: toolCallView(part) });
  }
  return parts;
}

/** The system prompt of a pi 1.5 `role: "system"` message: content, then its named sections and tools. */
function systemText(message: Rec): string {
  const out: string[] = [];
  const content = contentText(message.content).text;
  if (content) out.push(content);
  if (isRec(message.sections)) {
    for (const [name, value] of Object.entries(message.sections)) {
      out.push(value === null ? `[${name}: removed]` : `[${name}]\n${String(value)}`);
    }
  }
  const added = Array.isArray(message.toolsAdded) ? message.toolsAdded.map((t) => (isRec(t) ? str(t.name) : undefined)).filter(Boolean) : [];
  const removed = Array.isArray(message.toolsRemoved) ? message.toolsRemoved.map((t) => (isRec(t) ? str(t.name) : undefined)).filter(Boolean) : [];
  if (added.length) out.push(`tools added: ${added.join(", ")}`);
  if (removed.length) out.push(`tools removed: ${removed.join(", ")}`);
  return out.join("\n\n");
}

function messageBlock(base: ReaderBlock, message: Rec): ReaderBlock {
  switch (message.role) {
    case "user": {
      const content = contentText(message.content);
      return { ...base, kind: "user", text: content.text, ...imageFields(content) };
    }
    case "assistant": {
      const parts = assistantParts(message.content);
      const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n\n");
      const usage = isRec(message.usage) ? num(message.usage.totalTokens) : undefined;
      const model = [str(message.provider), str(message.model)].filter(Boolean).join("/");
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      const detail = failed ? `${String(message.stopReason)}${str(message.errorMessage) ? `: ${str(message.errorMessage)}` : ""}` : undefined;
      return {
        ...base,
        kind: "assistant",
        text,
        parts,
        ...(model ? { title: model } : {}),
        ...(usage !== undefined ? { tokens: usage } : {}),
        ...(failed ? { isError: true } : {}),
        ...(detail ? { detail } : {}),
      };
    }
    case "toolResult": {
      const content = contentText(message.content);
      return { ...base, kind: "toolResult", text: content.text, title: str(message.toolName) ?? "tool", isError: message.isError === true, ...imageFields(content) };
    }
    case "bashExecution": {
      const exit = message.cancelled === true ? "cancelled" : message.exitCode !== undefined && message.exitCode !== null ? `exit ${String(message.exitCode)}` : undefined;
      const command = str(message.command) ?? "";
      return {
        ...base,
        kind: "bash",
        title: command,
        text: str(message.output) ?? "",
        ...(exit ? { detail: exit } : {}),
        ...(typeof message.exitCode === "number" && message.exitCode !== 0 ? { isError: true } : {}),
      };
    }
    case "system":
      return { ...base, kind: "system", text: systemText(message), title: "System prompt" };
    case "custom": {
      const content = contentText(message.content);
      return { ...base, kind: "custom", title: str(message.customType) ?? "custom", text: content.text, ...imageFields(content) };
    }
    case "compactionSummary":
      return { ...base, kind: "compaction", text: str(message.summary) ?? "", ...(num(message.tokensBefore) !== undefined ? { tokens: num(message.tokensBefore) } : {}) };
    case "branchSummary":
      return { ...base, kind: "branchSummary", text: str(message.summary) ?? "" };
    default:
      return { ...base, kind: "unknown", title: `message role ${JSON.stringify(message.role ?? null)}`, text: safeJson(message) };
  }
}

/** A small mark's text for entries that change settings or metadata. */
function markText(e: Rec): { title: string; text: string } | undefined {
  switch (e.type) {
    case "model_change":
      return { title: "model", text: `model ${String(e.provider ?? "?")}/${String(e.modelId ?? "?")}` };
    case "thinking_level_change":
      return { title: "thinking", text: `thinking ${String(e.thinkingLevel ?? "?")}` };
    case "label":
      return { title: "label", text: e.label ? `label "${String(e.label)}" on ${String(e.targetId)}` : `label cleared on ${String(e.targetId)}` };
    case "session_info":
      return { title: "name", text: `named "${String(e.name ?? "")}"` };
    case "custom":
      if (e.customType === "session_exit") {
        const data = isRec(e.data) ? e.data : {};
        return { title: "session exit", text: `omp exited (${String(data.kind ?? "?")}${data.reason ? `: ${String(data.reason)}` : ""})` };
      }
      return { title: "custom", text: `custom ${String(e.customType ?? "")}` };
    case "reset_boundary":
      return { title: "/clear", text: "── /clear ── everything above is out of the model's context" };
    case "title_change":
      return { title: "title", text: `titled "${String(e.title ?? "")}"${typeof e.previousTitle === "string" ? ` (was "${e.previousTitle}")` : ""}` };
    case "usage": {
      const usage = isRec(e.usage) ? num(e.usage.totalTokens) : undefined;
      return { title: "usage", text: `usage ${String(e.kind ?? "")} ${String(e.provider ?? "?")}/${String(e.model ?? "?")}${usage !== undefined ? ` · ${usage} tokens` : ""}${e.note ? ` · ${String(e.note)}` : ""}` };
    }
    case "context_edit":
      return { title: "context edit", text: `context edit: ${e.replacement === null || e.replacement === undefined ? "omits" : "replaces"} ${String(e.targetId)}` };
    default:
      return undefined;
  }
}

/** `maxChars`: the longest text kept (exports pass Infinity); `blobsDir`: omp's blob store, for snapcompact frames. */
export function entryBlock(entry: SessionEntry | Rec, maxChars = MAX_BLOCK_CHARS, options: { blobsDir?: string } = {}): ReaderBlock {
  const cut = (block: ReaderBlock): ReaderBlock => cutAt(block, maxChars);
  const e = entry as Rec;
  const base: ReaderBlock = { id: str(e.id) ?? "", kind: "unknown", timestamp: str(e.timestamp) ?? "", text: "" };
  switch (e.type) {
    case "message":
      return cut(isRec(e.message) ? messageBlock(base, e.message) : { ...base, title: "message", text: safeJson(e) });
    case "compaction": {
      // omp: the method, tokens after, the short summary; a snapcompact archive's frames as images.
      const facts = [
        str(e.method) ? `${str(e.method)}` : undefined,
        str(e.firstKeptEntryId) ? `keeps from ${str(e.firstKeptEntryId)}` : undefined,
        num(e.tokensAfter) !== undefined ? `→ ${num(e.tokensAfter)} tokens after` : undefined,
      ].filter((f): f is string => f !== undefined);
      const frames = snapcompactFrameImages(e, options.blobsDir);
      if (frames) {
        const notShown = frames.refusals.length > 0 ? ` (${frames.refusals.length} not shown: ${[...new Set(frames.refusals)].join("; ")})` : "";
        facts.push(`${frames.count} snapcompact frame${frames.count === 1 ? "" : "s"}${notShown}`);
      }
      const short = str(e.shortSummary);
      return cut({
        ...base,
        kind: "compaction",
        text: short ? `${short}\n\n${str(e.summary) ?? ""}` : (str(e.summary) ?? ""),
        ...(num(e.tokensBefore) !== undefined ? { tokens: num(e.tokensBefore) } : {}),
        ...(facts.length > 0 ? { detail: facts.join(" · ") } : {}),
        ...(frames && frames.shown.length > 0 ? { images: frames.shown } : {}),
      });
    }
    case "branch_summary":
      return cut({ ...base, kind: "branchSummary", text: str(e.summary) ?? "", ...(str(e.fromId) ? { detail: `from ${str(e.fromId)}` } : {}) });
    case "custom_message": {
      const content = contentText(e.content);
      return cut({ ...base, kind: "custom", title: str(e.customType) ?? "custom", text: content.text, ...imageFields(content) });
    }
  }
  const mark = markText(e);
  if (mark) return { ...base, kind: "mark", ...mark };
  return cut({ ...base, kind: "unknown", title: `entry type ${JSON.stringify(e.type ?? null)}`, text: safeJson(e) });
}

/** The replacement text of a context edit (pi 1.5: `replacement: null | { content }`). */
export function replacementText(replacement: unknown): string | undefined {
  if (!isRec(replacement)) return undefined;
  return contentText(replacement.content).text;
}

export { toolCallPreview };
