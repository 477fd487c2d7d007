// Random pi messages (roles as pi 0.73.1 writes them) for generated sessions.

import type { SeededRandom } from "./seeded-random.js";

const WORDS = [
  "the", "parser", "fails", "on", "empty", "input", "fix", "src/a.ts", "function", "returns", "undefined",
  "test", "passes", "now", "ü", "日本", "emoji😀", "`code`", "{json}", "line\nbreak", "tab\there",
];

export interface GeneratedToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Roughly `words` words of text with unicode, newlines and markdown bits. */
export function makeText(rng: SeededRandom, words: number): string {
  const out: string[] = [];
  const count = Math.max(1, rng.int(Math.ceil(words / 2), words));
  for (let i = 0; i < count; i++) out.push(rng.pick(WORDS));
  return out.join(" ");
}

export function imageBlock(rng: SeededRandom): { type: "image"; data: string; mimeType: string } {
  return { type: "image", data: "iVBORw0KGgo" + "A".repeat(rng.int(4, 40)), mimeType: rng.pick(["image/png", "image/jpeg"]) };
}

export function randomUsage(rng: SeededRandom): Record<string, unknown> {
  const input = rng.int(0, 60000);
  const output = rng.int(0, 4000);
  const cacheRead = rng.int(0, 50000);
  const cacheWrite = rng.int(0, 5000);
  // Some providers leave totalTokens 0: pi then sums the parts.
  const totalTokens = rng.chance(0.2) ? 0 : input + output + cacheRead + cacheWrite;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens,
    cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 },
  };
}

export function userMessage(rng: SeededRandom, timestamp: number, verbosity: number): Record<string, unknown> {
  const roll = rng.next();
  let content: unknown;
  if (roll < 0.5) content = makeText(rng, 25 * verbosity);
  else if (roll < 0.85) content = [{ type: "text", text: makeText(rng, 25 * verbosity) }];
  else content = [{ type: "text", text: makeText(rng, 10) }, imageBlock(rng), { type: "text", text: makeText(rng, 5) }];
  return { role: "user", content, timestamp };
}

export function assistantMessage(
  rng: SeededRandom,
  timestamp: number,
  verbosity: number,
  options: { calls?: GeneratedToolCall[]; stopReason?: string; usage?: Record<string, unknown> },
): Record<string, unknown> {
  const content: unknown[] = [];
  if (rng.chance(0.4)) {
    content.push({ type: "thinking", thinking: makeText(rng, 30 * verbosity), thinkingSignature: "sig" });
  }
  if (!options.calls || rng.chance(0.5)) content.push({ type: "text", text: makeText(rng, 40 * verbosity) });
  for (const call of options.calls ?? []) content.push({ type: "toolCall", ...call });
  const [provider, model] = rng.pick([
    ["anthropic", "claude-sonnet-4-5"],
    ["openai", "gpt-5.1-codex"],
  ]);
  const stopReason = options.stopReason ?? (options.calls?.length ? "toolUse" : "stop");
  const message: Record<string, unknown> = {
    role: "assistant",
    content,
    api: provider === "anthropic" ? "anthropic-messages" : "openai-responses",
    provider,
    model,
    stopReason,
    timestamp,
  };
  // Aborted and failed answers sometimes still carry usage: pi must skip it.
  if (options.usage ?? rng.chance(0.85)) message.usage = options.usage ?? randomUsage(rng);
  if (stopReason === "error") message.errorMessage = "529 overloaded";
  return message;
}

export function toolResultMessage(
  rng: SeededRandom,
  timestamp: number,
  verbosity: number,
  call: GeneratedToolCall,
): Record<string, unknown> {
  const long = rng.chance(0.15);
  const text = long ? "x".repeat(rng.int(2001, 6000)) + makeText(rng, 20) : makeText(rng, 30 * verbosity);
  const content: unknown[] = [{ type: "text", text }];
  if (rng.chance(0.1)) content.push(imageBlock(rng));
  if (rng.chance(0.05)) content.push({ type: "text", text: "" });
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content,
    details: rng.chance(0.3) ? { diff: "-a\n+b" } : undefined,
    isError: rng.chance(0.12),
    timestamp,
  };
}

export function bashExecutionMessage(rng: SeededRandom, timestamp: number, verbosity: number): Record<string, unknown> {
  const cancelled = rng.chance(0.1);
  const truncated = rng.chance(0.15);
  const message: Record<string, unknown> = {
    role: "bashExecution",
    command: rng.pick(["ls -la", "npm test", "git status", "cat src/a.ts | head"]),
    output: rng.chance(0.15) ? "" : makeText(rng, 30 * verbosity),
    exitCode: cancelled ? undefined : rng.pick([0, 0, 1, 2, null]),
    cancelled,
    truncated,
    timestamp,
  };
  if (truncated && rng.chance(0.7)) message.fullOutputPath = "/tmp/pi-bash-out.txt";
  if (rng.chance(0.25)) message.excludeFromContext = true;
  return message;
}

/** A `message` entry with role "custom" (what pi's v2→v3 migration makes of hookMessage). */
export function customRoleMessage(rng: SeededRandom, timestamp: number): Record<string, unknown> {
  return {
    role: "custom",
    customType: "hook",
    content: rng.chance(0.5) ? makeText(rng, 15) : [{ type: "text", text: makeText(rng, 15) }],
    display: true,
    timestamp,
  };
}
