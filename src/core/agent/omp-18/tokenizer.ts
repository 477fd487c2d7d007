// omp 18.3.4's token estimate (agent-core tokenizer.ts): ceil(UTF-8 bytes / 4)
// summed per fragment of a message, 1200 per image, 5024 per snapcompact frame.
// omp counts with a native tokenizer instead for catalog models of a tokenizer
// family (Claude, Qwen 3, DeepSeek V3, Kimi K2, GLM 5): for those this is an
// estimate (`nativeTokenizerFamily`).

import { FRAME_TOKEN_ESTIMATE } from "./snapcompact-archive.js";
import NATIVE_TOKENIZER_MODELS from "./native-tokenizer-models.json";
import type { OmpMessage } from "./messages.js";

const IMAGE_TOKEN_ESTIMATE = 1200;

function byteEstimate(text: string): number {
  return (Buffer.byteLength(text, "utf-8") + 3) >> 2;
}

function stringifyJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item));
  }
}

export interface CountOptions {
  /** Leave out thinking signatures, redacted thinking and server-tool blobs (the compaction floor). */
  excludeEncryptedReasoning?: boolean;
}

function textFragments(content: unknown, fragments: string[]): number {
  let extra = 0;
  if (typeof content === "string") {
    fragments.push(content);
    return 0;
  }
  if (!Array.isArray(content)) return 0;
  for (const block of content as OmpMessage[]) {
    if (block.type === "text" && block.text) fragments.push(block.text);
    else if (block.type === "image") extra += IMAGE_TOKEN_ESTIMATE;
  }
  return extra;
}

/** Tokenizer#countMessage with omp's byte estimate. */
export function countMessageTokens(message: OmpMessage, options: CountOptions = {}): number {
  const exclude = options.excludeEncryptedReasoning === true;
  const fragments: string[] = [];
  let extra = 0;
  const role: unknown = message.role;
  if (role === "bashExecution") {
    if (typeof message.command === "string") fragments.push(message.command);
    if (typeof message.output === "string") fragments.push(message.output);
    return fragments.reduce((sum, t) => sum + byteEstimate(t), 0);
  }
  switch (role) {
    case "user":
    case "developer":
      extra += textFragments(message.content, fragments);
      break;
    case "assistant":
      for (const block of message.content as OmpMessage[]) {
        if (block.type === "text") fragments.push(block.text);
        else if (block.type === "thinking") {
          fragments.push(block.thinking);
          if (block.thinkingSignature && !exclude) fragments.push(block.thinkingSignature);
        } else if (block.type === "toolCall") {
          fragments.push(block.name);
          fragments.push(stringifyJson(block.arguments) ?? "null");
        } else if (block.type === "redactedThinking") {
          if (!exclude) fragments.push(block.data);
        } else if (block.type === "anthropicServerTool") {
          if (!exclude) fragments.push(stringifyJson(block.block) ?? "null");
        }
      }
      break;
    case "custom":
    case "hookMessage":
    case "toolResult":
      if (typeof message.content === "string") fragments.push(message.content);
      else extra += textFragments(message.content, fragments);
      break;
    case "branchSummary":
    case "compactionSummary":
      fragments.push(message.summary);
      if (role === "compactionSummary") {
        if (message.blocks) {
          for (const block of message.blocks as OmpMessage[]) {
            if (block.type === "text") fragments.push(block.text);
            else extra += FRAME_TOKEN_ESTIMATE;
          }
        } else if (message.images) {
          extra += (message.images as unknown[]).length * FRAME_TOKEN_ESTIMATE;
        }
      }
      break;
    default:
      return 0;
  }
  if (fragments.length === 0) return extra;
  // byteEstimate of a fragment that is not a string throws in omp (Buffer.byteLength); it is 0 here.
  return extra + fragments.reduce((sum, t) => sum + (typeof t === "string" ? byteEstimate(t) : 0), 0);
}

export function countMessagesTokens(messages: readonly OmpMessage[], options: CountOptions = {}): number {
  let total = 0;
  for (const message of messages) total += countMessageTokens(message, options);
  return total;
}

/** Tokenizer families omp 18.3.4's catalog gives native tokenizers (pi-catalog ModelTokenizer). */
export type NativeTokenizerFamily = "claude-v3" | "claude-v47" | "claude-v5" | "claude-v5-sonnet" | "qwen3" | "deepseek-v3" | "kimi-k2" | "glm5";

const FAMILIES = NATIVE_TOKENIZER_MODELS as Record<string, Partial<Record<NativeTokenizerFamily, string[]>>>;
let byModel: Map<string, NativeTokenizerFamily> | undefined;

/**
 * The tokenizer family omp counts `provider/modelId` with (its bundled catalog,
 * native-tokenizer-models.json), or undefined: then omp counts with the byte
 * estimate, as we do (custom `models.yml` models, and e.g. openai/gpt-5).
 */
export function nativeTokenizerFamily(model: { provider: string; modelId: string } | null | undefined): NativeTokenizerFamily | undefined {
  if (!model) return undefined;
  if (!byModel) {
    byModel = new Map();
    for (const [provider, families] of Object.entries(FAMILIES)) {
      for (const [family, ids] of Object.entries(families)) for (const id of ids ?? []) byModel.set(`${provider}/${id}`, family as NativeTokenizerFamily);
    }
  }
  return byModel.get(`${model.provider}/${model.modelId}`);
}

/** Whether omp would count this model's tokens with a native tokenizer, so that our byte estimate differs from omp's count. */
export function hasNativeTokenizer(model: { provider: string; modelId: string } | null | undefined): boolean {
  return nativeTokenizerFamily(model) !== undefined;
}
