// pi's thinking levels (pi-coding-agent cli/args.js VALID_THINKING_LEVELS).

export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;

export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export function isThinkingLevel(value: unknown): value is ThinkingLevel {
  return typeof value === "string" && (THINKING_LEVELS as readonly string[]).includes(value);
}

/**
 * A session's thinking level as pi-ai 0.73.1 (our model layer) takes it: pi 1.5
 * adds "max" above "xhigh", which pi-ai 0.73.1 does not know; it becomes that
 * pi-ai's highest level. Anything unknown: undefined.
 */
export function piAiThinkingLevel(level: string | undefined): ThinkingLevel | undefined {
  if (level === "max") return "xhigh";
  return isThinkingLevel(level) ? level : undefined;
}
