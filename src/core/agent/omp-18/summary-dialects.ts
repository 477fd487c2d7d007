// pi-ai's transcript dialects as omp 18.3.4 renders a summarised conversation
// (dialect renderTranscript, no tool schemas): "xml" and "anthropic" (Human: /
// Assistant: turns, <invoke> calls), "minimax" (the same with its tool-call
// tag), "harmony" (OpenAI: channels), "qwen3" (ChatML, <tool_call> JSON),
// "glm" ([gMASK]<sop>, <arg_key>/<arg_value>), "kimi" (<|im_…|> turns, its
// tool-call sections), "deepseek" (its fullwidth-bar tokens), "gemini"
// (<start_of_turn>, tool_code blocks) and "gemma" (<|turn>, <|"|> strings).

import type { OmpMessage } from "./messages.js";
import type { OmpDialect } from "./model-dialect.js";
import { assistantParts, delimitedThinking, escapeAttribute, escapeText, jsonOf, plainContent, pyValue, toolResultRun, type ToolResultPart } from "./transcript-parts.js";

const invoke = (call: OmpMessage): string => {
  let s = `<invoke name="${escapeAttribute(String(call.name))}">`;
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  for (const key in args) s += `<parameter name="${escapeAttribute(key)}">${jsonOf(args[key])}</parameter>`;
  return `${s}</invoke>`;
};
const thinkingTags = (thinking: string): string => delimitedThinking("<thinking>", "</thinking>", thinking);
const functionResults = (results: ToolResultPart[]): string =>
  `<function_results>\n${results
    .map((r) => {
      const tag = r.isError ? "error" : "result";
      const stream = r.isError ? "stderr" : "stdout";
      return `<${tag}>\n<tool_name>${escapeText(r.name)}</tool_name>\n<${stream}>${r.text}</${stream}>\n</${tag}>`;
    })
    .join("\n")}\n</function_results>`;
const toolResponses = (results: ToolResultPart[]): string => results.map((r) => `<tool_response>\n${r.text}\n</tool_response>`).join("\n");

interface HumanAssistant {
  thinking(thinking: string): string;
  calls(calls: OmpMessage[]): string;
  results(results: ToolResultPart[]): string;
}

/** The "Human: / Assistant:" transcript (pi-ai renderHumanAssistantTranscript); developer text joins as is. */
function humanAssistant(messages: readonly OmpMessage[], r: HumanAssistant): string {
  let out = "";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const a = assistantParts(m);
      out = `${out}\n\nAssistant: ${r.thinking(a.thinking)}${a.text}${r.calls(a.calls)}`;
      i++;
      continue;
    }
    if (m.role === "toolResult") {
      const run = toolResultRun(messages, i);
      out = `${out}\n\nHuman: ${r.results(run.results)}`;
      i = run.next;
      continue;
    }
    const text = plainContent(m.content);
    if (m.role === "developer") out = text ? (out ? `${out}\n\n${text}` : text) : out;
    else out = `${out}\n\nHuman: ${text}`;
    i++;
  }
  return out;
}

const XML: HumanAssistant = { thinking: thinkingTags, calls: (calls) => calls.map(invoke).join("\n"), results: toolResponses };
const ANTHROPIC: HumanAssistant = {
  thinking: thinkingTags,
  calls: (calls) => (calls.length === 0 ? "" : `<function_calls>\n${calls.map(invoke).join("\n")}\n</function_calls>`),
  results: functionResults,
};
const MINIMAX: HumanAssistant = {
  thinking: thinkingTags,
  calls: (calls) => (calls.length === 0 ? "" : `<minimax:tool_call>\n${calls.map(invoke).join("\n")}\n</minimax:tool_call>`),
  results: functionResults,
};

const functionName = (name: string): string => (name.startsWith("functions.") ? name : `functions.${name}`);
const HARMONY_TOKENS = /<\|(start|end|message|channel|constrain|return|call)\|>/g;

function harmony(messages: readonly OmpMessage[]): string {
  let out = "";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const a = assistantParts(m);
      let any = false;
      if (a.thinking) {
        out += `<|start|>assistant<|channel|>analysis<|message|>${a.thinking}<|end|>`;
        any = true;
      }
      if (a.text) {
        out += `<|start|>assistant<|channel|>final<|message|>${a.text}<|end|>`;
        any = true;
      }
      for (const call of a.calls) {
        out += `<|start|>assistant<|channel|>commentary to=${functionName(String(call.name))}<|message|>${jsonOf(call.arguments)}<|call|>`;
        any = true;
      }
      if (!any) out += "<|start|>assistant<|channel|>final<|message|><|end|>";
      i++;
      continue;
    }
    if (m.role === "toolResult") {
      const run = toolResultRun(messages, i);
      for (const r of run.results) out += `<|start|>${functionName(r.name)} to=assistant<|channel|>commentary<|message|>${r.text}<|end|>`;
      i = run.next;
      continue;
    }
    out += `<|start|>${m.role}<|message|>${plainContent(m.content)}<|end|>`;
    i++;
  }
  // The transcript's own harmony tokens are escaped, so the summary model reads them as text.
  return out.replace(HARMONY_TOKENS, "<\\|$1\\|>");
}

/** `<think>` … `</think>` on their own lines, as given ("" for none). */
const think = (thinking: string): string => (thinking ? `<think>\n${thinking}\n</think>` : "");

const imTurn = (role: string, body: string): string => `<|im_start|>${role}\n${body}<|im_end|>\n`;

/** Qwen 3 (ChatML turns; tool results as a user turn of <tool_response> blocks). */
function qwen3(messages: readonly OmpMessage[]): string {
  if (messages.length === 0) return "";
  let out = "";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const a = assistantParts(m);
      const calls = a.calls.map((c) => `<tool_call>\n${jsonOf({ name: c.name, arguments: c.arguments })}\n</tool_call>`).join("\n");
      out += imTurn("assistant", `${think(a.thinking)}${a.text}${calls}`);
      i++;
      continue;
    }
    if (m.role === "toolResult") {
      const run = toolResultRun(messages, i);
      out += imTurn("user", toolResponses(run.results));
      i = run.next;
      continue;
    }
    out += imTurn(m.role === "developer" ? "system" : m.role, plainContent(m.content));
    i++;
  }
  return out;
}

function glm(messages: readonly OmpMessage[]): string {
  if (messages.length === 0) return "";
  let out = "[gMASK]<sop>";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const a = assistantParts(m);
      const thinking = a.thinking ? `\n${think(a.thinking)}` : "";
      const calls = a.calls
        .map((c) => {
          let s = `<tool_call>${c.name}`;
          const args = (c.arguments ?? {}) as Record<string, unknown>;
          for (const key in args) s += `\n<arg_key>${key}</arg_key>\n<arg_value>${jsonOf(args[key])}</arg_value>`;
          return `${s}\n</tool_call>`;
        })
        .join("\n");
      out += `<|assistant|>\n${thinking}${a.text}${calls}`;
      i++;
      continue;
    }
    if (m.role === "toolResult") {
      const run = toolResultRun(messages, i);
      out += `<|observation|>\n${toolResponses(run.results)}`;
      i = run.next;
      continue;
    }
    out += `<|${m.role === "developer" ? "system" : m.role}|>\n${plainContent(m.content)}`;
    i++;
  }
  return out;
}

const kimiTurn = (role: string, name: string, body: string): string => `<|im_${role}|>${name}<|im_middle|>${body}<|im_end|>`;
const kimiCallId = (name: string, id: string, index: number): string => {
  const trimmed = String(id ?? "").trim();
  return trimmed.startsWith("functions.") ? trimmed : `functions.${name}:${index}`;
};

function kimi(messages: readonly OmpMessage[]): string {
  let out = "";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const a = assistantParts(m);
      const calls =
        a.calls.length === 0
          ? ""
          : `<|tool_calls_section_begin|>${a.calls
              .map((c, index) => `<|tool_call_begin|>${kimiCallId(String(c.name), c.id, index)}<|tool_call_argument_begin|>${jsonOf(c.arguments)}<|tool_call_end|>`)
              .join("")}<|tool_calls_section_end|>`;
      out += kimiTurn("assistant", "assistant", `${think(a.thinking)}${a.text}${calls}`);
      i++;
      continue;
    }
    if (m.role === "toolResult") {
      const run = toolResultRun(messages, i);
      out += run.results.map((r) => kimiTurn("system", r.name, `## Return of ${kimiCallId(r.name, r.id, r.index)}\n${r.text}`)).join("");
      i = run.next;
      continue;
    }
    const role = m.role === "developer" ? "system" : m.role;
    out += kimiTurn(role, role, plainContent(m.content));
    i++;
  }
  return out;
}

function deepseek(messages: readonly OmpMessage[]): string {
  if (messages.length === 0) return "";
  let out = "<｜begin▁of▁sentence｜>";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const a = assistantParts(m);
      const calls =
        a.calls.length === 0 ? "" : `<｜tool▁calls▁begin｜>${a.calls.map((c) => `<｜tool▁call▁begin｜>${c.name}<｜tool▁sep｜>${jsonOf(c.arguments)}<｜tool▁call▁end｜>`).join("")}<｜tool▁calls▁end｜>`;
      out += `<｜Assistant｜>${think(a.thinking)}${a.text}${calls}<｜end▁of▁sentence｜>`;
      i++;
      continue;
    }
    if (m.role === "toolResult") {
      const run = toolResultRun(messages, i);
      out += run.results.map((r) => `<｜tool▁output▁begin｜>${r.text}<｜tool▁output▁end｜>`).join("\n");
      i = run.next;
      continue;
    }
    out += m.role === "developer" ? plainContent(m.content) : `<｜User｜>${plainContent(m.content)}`;
    i++;
  }
  return out;
}

const joinLines = (a: string, b: string): string => (!a ? b : !b ? a : `${a}\n${b}`);
const geminiTurn = (role: string, body: string): string => `<start_of_turn>${role}\n${body}<end_of_turn>\n`;

function gemini(messages: readonly OmpMessage[]): string {
  if (messages.length === 0) return "";
  let out = "<bos>";
  let pending = "";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "developer") {
      pending = joinLines(pending, plainContent(m.content));
      i++;
      continue;
    }
    if (m.role === "user") {
      out += geminiTurn("user", joinLines(pending, plainContent(m.content)));
      pending = "";
      i++;
      continue;
    }
    if (pending) {
      out += geminiTurn("user", pending);
      pending = "";
    }
    if (m.role === "assistant") {
      const a = assistantParts(m);
      const thinking = a.thinking ? `\`\`\`thinking\n${a.thinking}\n\`\`\`\n` : "";
      const call = (c: OmpMessage): string => {
        let s = "";
        const args = (c.arguments ?? {}) as Record<string, unknown>;
        for (const key in args) s += `${s ? ", " : ""}${key}=${pyValue(args[key])}`;
        return `default_api.${c.name}(${s})`;
      };
      const calls = a.calls.length === 1 ? call(a.calls[0]!) : `[${a.calls.map(call).join(", ")}]`;
      out += geminiTurn("model", `${thinking}${a.text}\`\`\`tool_code\n${calls}\n\`\`\``);
      i++;
      continue;
    }
    const run = toolResultRun(messages, i);
    out += geminiTurn("user", run.results.map((r) => `\`\`\`tool_outputs\n${r.text}\n\`\`\``).join("\n"));
    i = run.next;
  }
  if (pending) out += geminiTurn("user", pending);
  return out;
}

const GEMMA_QUOTE = '<|"|>';
function gemmaValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `${GEMMA_QUOTE}${value}${GEMMA_QUOTE}`;
  if (Array.isArray(value)) return `[${value.map(gemmaValue).join(",")}]`;
  if (typeof value === "object") return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}:${gemmaValue(v)}`).join(",")}}`;
  return `${GEMMA_QUOTE}${String(value)}${GEMMA_QUOTE}`;
}
const parsedOrText = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};
const gemmaTurn = (role: string, body: string): string => `<|turn>${role}\n${body}<turn|>`;
const gemmaResults = (results: ToolResultPart[]): string => results.map((r) => `<|tool_response>response:${r.name}{output:${gemmaValue(parsedOrText(r.text))}}<tool_response|>`).join("");

function gemma(messages: readonly OmpMessage[]): string {
  if (messages.length === 0) return "";
  let out = "<bos>";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const a = assistantParts(m);
      const thinking = a.thinking ? `<|channel>thought\n${a.thinking}<channel|>` : "";
      const calls = a.calls
        .map((c) => `<|tool_call>call:${c.name}{${Object.entries((c.arguments ?? {}) as Record<string, unknown>).map(([k, v]) => `${k}:${gemmaValue(v)}`).join(",")}}<tool_call|>`)
        .join("");
      let body = `${thinking}${a.text}${calls}`;
      let next = i + 1;
      if (next < messages.length && messages[next]!.role === "toolResult") {
        const run = toolResultRun(messages, next);
        body += gemmaResults(run.results);
        next = run.next;
      }
      out += gemmaTurn("model", body);
      i = next;
      continue;
    }
    if (m.role === "toolResult") {
      const run = toolResultRun(messages, i);
      out += gemmaTurn("model", gemmaResults(run.results));
      i = run.next;
      continue;
    }
    out += gemmaTurn(m.role === "developer" ? "system" : m.role, plainContent(m.content));
    i++;
  }
  return out;
}

/** A dialect's renderTranscript over LLM messages. */
export function renderDialectTranscript(messages: readonly OmpMessage[], dialect: OmpDialect): string {
  switch (dialect) {
    case "xml":
      return humanAssistant(messages, XML);
    case "anthropic":
      return humanAssistant(messages, ANTHROPIC);
    case "minimax":
      return humanAssistant(messages, MINIMAX);
    case "harmony":
      return harmony(messages);
    case "qwen3":
      return qwen3(messages);
    case "glm":
      return glm(messages);
    case "kimi":
      return kimi(messages);
    case "deepseek":
      return deepseek(messages);
    case "gemini":
      return gemini(messages);
    case "gemma":
      return gemma(messages);
  }
}
