// What the loopback model server writes: the streamed wire formats pi-ai's
// providers parse (pi-ai 0.73.1 dist/providers/openai-completions.js reads
// chat.completion.chunk objects with choices[0].delta.content /
// reasoning_content, finish_reason and usage; anthropic.js reads the SSE
// events message_start (message.usage required), content_block_start/delta/
// stop, message_delta (delta.stop_reason, usage required) and message_stop,
// and fails a stream that ends without message_stop).

export type Protocol = "openai" | "anthropic";

export interface StreamPlan {
  /** SSE frames before the text deltas. */
  preamble: string[];
  /** One frame per text delta. */
  deltas: string[];
  /** Frames after the text. */
  ending: string[];
}

export interface StreamContent {
  text: string;
  chunks: number;
  stop: "stop" | "length";
  thinking?: string;
  usage: { input: number; output: number };
  model: string;
  /** OpenAI only: a tool call after the text. */
  toolCall?: { name: string; arguments: Record<string, unknown> };
}

export function splitText(text: string, chunks: number): string[] {
  if (text === "") return [];
  const n = Math.max(1, Math.min(chunks, text.length));
  const size = Math.ceil(text.length / n);
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

const openaiFrame = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
const anthropicFrame = (event: string, payload: unknown): string => `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;

export function openaiStream(content: StreamContent): StreamPlan {
  const base = { id: "chatcmpl-loopback", object: "chat.completion.chunk", created: 0, model: content.model };
  const choice = (delta: Record<string, unknown>, finish: string | null): unknown => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const preamble = [openaiFrame(choice({ role: "assistant", content: "" }, null))];
  if (content.thinking) preamble.push(openaiFrame(choice({ reasoning_content: content.thinking }, null)));
  return {
    preamble,
    deltas: splitText(content.text, content.chunks).map((part) => openaiFrame(choice({ content: part }, null))),
    ending: [
      ...(content.toolCall
        ? [openaiFrame(choice({ tool_calls: [{ index: 0, id: "call_loopback", type: "function", function: { name: content.toolCall.name, arguments: JSON.stringify(content.toolCall.arguments) } }] }, null))]
        : []),
      openaiFrame(choice({}, content.stop === "length" ? "length" : content.toolCall ? "tool_calls" : "stop")),
      openaiFrame({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: content.usage.input,
          completion_tokens: content.usage.output,
          total_tokens: content.usage.input + content.usage.output,
        },
      }),
      "data: [DONE]\n\n",
    ],
  };
}

export function anthropicStream(content: StreamContent): StreamPlan {
  const preamble = [
    anthropicFrame("message_start", {
      type: "message_start",
      message: {
        id: "msg_loopback",
        type: "message",
        role: "assistant",
        content: [],
        model: content.model,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: content.usage.input, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (content.thinking) {
    preamble.push(
      anthropicFrame("content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "" } }),
      anthropicFrame("content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: content.thinking } }),
      anthropicFrame("content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature: "sig" } }),
      anthropicFrame("content_block_stop", { type: "content_block_stop", index }),
    );
    index++;
  }
  const parts = splitText(content.text, content.chunks);
  const textIndex = index;
  if (parts.length > 0) {
    preamble.push(anthropicFrame("content_block_start", { type: "content_block_start", index: textIndex, content_block: { type: "text", text: "" } }));
  }
  const ending: string[] = [];
  if (parts.length > 0) ending.push(anthropicFrame("content_block_stop", { type: "content_block_stop", index: textIndex }));
  ending.push(
    anthropicFrame("message_delta", {
      type: "message_delta",
      delta: { stop_reason: content.stop === "length" ? "max_tokens" : "end_turn", stop_sequence: null },
      usage: { output_tokens: content.usage.output },
    }),
    anthropicFrame("message_stop", { type: "message_stop" }),
  );
  return {
    preamble,
    deltas: parts.map((part) =>
      anthropicFrame("content_block_delta", { type: "content_block_delta", index: textIndex, delta: { type: "text_delta", text: part } }),
    ),
    ending,
  };
}

export function errorBody(protocol: Protocol, status: number, message: string): unknown {
  if (protocol === "anthropic") {
    const type =
      status === 401 ? "authentication_error" : status === 403 ? "permission_error" : status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error";
    return { type: "error", error: { type, message } };
  }
  const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type, code: status === 401 ? "invalid_api_key" : null } };
}

/** All text a request carries (system prompt + message text), for choosing a scenario by prompt. */
export function promptTextOf(body: unknown): string {
  if (typeof body !== "object" || body === null) return "";
  const record = body as Record<string, unknown>;
  const parts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") parts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === "object" && value !== null) {
      const v = value as Record<string, unknown>;
      if (typeof v.text === "string") parts.push(v.text);
      if (v.content !== undefined) collect(v.content);
    }
  };
  collect(record.system);
  collect(record.messages);
  return parts.join("\n");
}
