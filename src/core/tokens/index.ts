export {
  calculateContextTokens,
  estimateContextTokens,
  getAssistantUsage,
  getLastAssistantUsage,
  type ContextTokenEstimate,
} from "./context-tokens.js";
export { estimateTokens, IMAGE_CHARS } from "./estimate-tokens.js";
export { shouldCompact } from "./should-compact.js";
export { contextUsage, type ContextTokenSource, type ContextUsage } from "./context-usage.js";
