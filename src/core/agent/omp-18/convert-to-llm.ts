// omp 18.3.4's convertToLlm (coding-agent session/messages.ts convertOne +
// agent-core compaction/messages.ts convertMessageToLlm): what each message of
// the context becomes in the provider request. Summaries get omp's wrappers
// (a snapcompact archive: the lead-in and the archive blocks, unwrapped),
// custom messages become `developer`, `!cmd` runs `user`, pi 1.5's `system`
// and unknown roles are dropped.

import { formatOutputNotice } from "./output-notice.js";
import { formatPostRender, renderSummaryTemplate } from "./prompt-format.js";
import { BRANCH_SUMMARY_TEMPLATE, COMPACTION_SUMMARY_TEMPLATE, HANDOFF_SUMMARY_TEMPLATE } from "./templates.js";
import {
  COLLAB_PROMPT_MESSAGE_TYPE,
  INTERRUPTED_THINKING_MESSAGE_TYPE,
  isCustomMessageContent,
  isUserInterruptAbort,
  isUserInvokedSkillPrompt,
  stripDemotedThinking,
  type OmpMessage,
} from "./messages.js";

const USER_INTERJECTION_TEMPLATE =
  "<system-notice>\nUser interjection during work: priority; supersedes conflicting prior instructions. Re-read; ensure current work reflects user intent.\n</system-notice>\n{{message}}\n";

export function bashExecutionToText(msg: OmpMessage): string {
  let text = `Ran \`${msg.command}\`\n`;
  text += msg.output ? `\`\`\`\n${msg.output}\n\`\`\`` : "(no output)";
  if (msg.cancelled) text += "\n\n(command cancelled)";
  else if (msg.exitCode !== null && msg.exitCode !== undefined && msg.exitCode !== 0) text += `\n\nCommand exited with code ${msg.exitCode}`;
  return text + formatOutputNotice(msg.meta);
}

export function pythonExecutionToText(msg: OmpMessage): string {
  let text = `Ran Python:\n\`\`\`python\n${msg.code}\n\`\`\`\n`;
  text += msg.output ? `Output:\n\`\`\`\n${msg.output}\n\`\`\`` : "(no output)";
  if (msg.cancelled) text += "\n\n(execution cancelled)";
  else if (msg.exitCode !== null && msg.exitCode !== undefined && msg.exitCode !== 0) text += `\n\nExecution failed with code ${msg.exitCode}`;
  return text + formatOutputNotice(msg.meta);
}

function prunedToolResultContent(message: OmpMessage): OmpMessage[] {
  const content = message.content as OmpMessage[];
  if (message.prunedAt === undefined) return content;
  const text =
    content
      .filter((c) => c.type === "text")
      .map((b) => b.text)
      .join("") || "[Output truncated]";
  const firstTextIndex = content.findIndex((c) => c.type === "text");
  if (firstTextIndex < 0) return [{ type: "text", text }, ...content];
  const out: OmpMessage[] = [];
  for (let i = 0; i < content.length; i++) {
    const block = content[i]!;
    if (block.type !== "text") out.push(block);
    else if (i === firstTextIndex) out.push({ type: "text", text });
  }
  return out;
}

/** agent-core convertMessageToLlm: the core roles and the summaries; undefined drops the message. */
export function convertMessageToLlm(message: OmpMessage): OmpMessage | undefined {
  switch (message.role) {
    case "custom":
    case "hookMessage":
      return {
        role: "developer",
        content: typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content,
        attribution: message.attribution,
        timestamp: message.timestamp,
      };
    case "branchSummary":
      return {
        role: "user",
        content: [{ type: "text", text: renderSummaryTemplate(BRANCH_SUMMARY_TEMPLATE, message.summary) }],
        attribution: "agent",
        historyRewriteAt: message.timestamp,
        timestamp: message.timestamp,
      };
    case "compactionSummary":
      return {
        role: "user",
        content:
          message.blocks !== undefined
            ? [{ type: "text", text: message.summary }, ...message.blocks]
            : [
                {
                  type: "text",
                  text: renderSummaryTemplate(message.method === "handoff" ? HANDOFF_SUMMARY_TEMPLATE : COMPACTION_SUMMARY_TEMPLATE, message.summary),
                },
                ...(message.images ?? []),
              ],
        attribution: "agent",
        historyRewriteAt: message.historyRewriteAt ?? message.timestamp,
        providerPayload: message.providerPayload,
        timestamp: message.timestamp,
      };
    case "user":
      return { ...message, attribution: message.attribution ?? "user" };
    case "developer":
      return { ...message, attribution: message.attribution ?? "agent" };
    case "assistant":
      return message;
    case "toolResult":
      return { ...message, content: prunedToolResultContent(message), attribution: message.attribution ?? "agent" };
    default:
      return undefined;
  }
}

function isSteeringUserMessage(message: OmpMessage | undefined): boolean {
  if (message?.role === "user") return message.steering === true;
  return message?.role === "custom" && message.customType === COLLAB_PROMPT_MESSAGE_TYPE && message.attribution === "user";
}

/** wrapSteeringUserMessage for a collab prompt (a `custom` message). */
function wrapSteeringCustomMessage(message: OmpMessage): OmpMessage {
  const userMessage: OmpMessage = { role: "user", content: message.content, attribution: "user", timestamp: message.timestamp };
  const render = (text: string) => formatPostRender(USER_INTERJECTION_TEMPLATE.split("{{message}}").join(text));
  if (typeof message.content === "string") {
    if (message.content.length === 0) return userMessage;
    return { ...userMessage, content: render(message.content) };
  }
  const blocks = message.content as OmpMessage[];
  const texts = blocks.filter((b) => b.type === "text").map((b) => b.text as string);
  const text = texts.length === 0 ? "" : texts.join("\n");
  if (text.length === 0) return userMessage;
  return { ...userMessage, content: [{ type: "text", text: render(text) }, ...blocks.filter((b) => b.type === "image")] };
}

function convertImageBearingCustomMessage(message: OmpMessage): OmpMessage[] | undefined {
  if (!isCustomMessageContent(message.content) || typeof message.content === "string") return undefined;
  const blocks = message.content as OmpMessage[];
  const textBlocks = blocks.filter((c) => c.type === "text");
  const imageBlocks = blocks.filter((c) => c.type === "image");
  if (imageBlocks.length === 0) return undefined;
  const converted: OmpMessage[] = [];
  if (textBlocks.length > 0) converted.push({ role: "developer", content: textBlocks, attribution: message.attribution, timestamp: message.timestamp });
  converted.push({
    role: "user",
    content: [{ type: "text", text: `Images attached to ${message.customType}.` }, ...imageBlocks],
    attribution: message.attribution,
    timestamp: message.timestamp,
  });
  return converted;
}

function one(converted: OmpMessage | undefined): OmpMessage[] {
  return converted ? [converted] : [];
}

function convertOne(m: OmpMessage, interruptedNext: boolean): OmpMessage[] {
  switch (m.role) {
    case "bashExecution":
      if (m.excludeFromContext) return [];
      return [{ role: "user", content: [{ type: "text", text: bashExecutionToText(m) }, ...(m.images ?? [])], attribution: "user", timestamp: m.timestamp }];
    case "pythonExecution":
      if (m.excludeFromContext) return [];
      return [{ role: "user", content: [{ type: "text", text: pythonExecutionToText(m) }], attribution: "user", timestamp: m.timestamp }];
    case "fileMention": {
      const wrap = (file: OmpMessage): string => `<file path="${file.path}">${file.content ? `\n${file.content}\n` : "\n"}</file>`;
      const files = m.files as OmpMessage[];
      const textFiles = files.filter((f) => !f.image);
      const imageFiles = files.filter((f) => f.image);
      const out: OmpMessage[] = [];
      if (textFiles.length > 0) out.push({ role: "developer", content: [{ type: "text", text: textFiles.map(wrap).join("\n") }], attribution: "user", timestamp: m.timestamp });
      if (imageFiles.length > 0) {
        const content: OmpMessage[] = [{ type: "text", text: imageFiles.map(wrap).join("\n") }];
        for (const file of imageFiles) if (file.image) content.push(file.image);
        out.push({ role: "user", content, attribution: "user", timestamp: m.timestamp });
      }
      return out;
    }
    case "custom": {
      if (!isCustomMessageContent(m.content)) return [];
      if (isSteeringUserMessage(m)) return one(convertMessageToLlm(wrapSteeringCustomMessage(m)));
      if (isUserInvokedSkillPrompt(m)) {
        return [{ role: "user", content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content, attribution: "user", timestamp: m.timestamp }];
      }
      return convertImageBearingCustomMessage(m) ?? one(convertMessageToLlm(m));
    }
    case "hookMessage":
      if (!isCustomMessageContent(m.content)) return [];
      return convertImageBearingCustomMessage(m) ?? one(convertMessageToLlm(m));
    case "assistant": {
      const userInterrupted = m.stopReason === "aborted" && isUserInterruptAbort(m);
      const source = interruptedNext || userInterrupted ? stripDemotedThinking(m) : m;
      if (userInterrupted && !interruptedNext && source.content.length === 0 && m.requestControls === undefined) return [];
      return one(convertMessageToLlm(source));
    }
    case "branchSummary":
    case "compactionSummary":
    case "user":
    case "developer":
    case "toolResult":
      return one(convertMessageToLlm(m));
    default:
      return [];
  }
}

/** What one message of a list becomes (`next`: the message after it in that list; an interrupted-thinking notice strips its thinking). */
export function ompConvertMessage(m: OmpMessage, next: OmpMessage | undefined): OmpMessage[] {
  const interruptedNext = m.role === "assistant" && next !== undefined && next.role === "custom" && next.customType === INTERRUPTED_THINKING_MESSAGE_TYPE;
  return convertOne(m, interruptedNext);
}

/** omp's convertToLlm over the context's messages. */
export function ompConvertToLlm(messages: readonly OmpMessage[]): OmpMessage[] {
  const out: OmpMessage[] = [];
  for (let i = 0; i < messages.length; i++) for (const msg of ompConvertMessage(messages[i]!, messages[i + 1])) out.push(msg);
  return out;
}
