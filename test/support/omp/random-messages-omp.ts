// Random messages with the roles and fields omp 18.3.4 writes (spec §3.2), for
// the sessions random-session-omp.ts writes through omp's SessionManager.

import { makeText, randomUsage } from "../random-messages.js";
import type { SeededRandom } from "../seeded-random.js";

export { makeText, randomUsage } from "../random-messages.js";

/** PNGs (base64) for large images and snapcompact frames; omp moves payloads ≥ 1024 chars into its blob store. */
export interface Frames {
  pngs: string[];
  missingChance: number;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

const FILES = ["src/a.ts", "src/b.ts", "README.md", "/abs/c.js", "docs/x y.md", "src/deep/d.ts"];
const ASSISTANT_MODELS: [string, string, string][] = [
  ["anthropic", "claude-sonnet-4-5", "anthropic-messages"],
  ["openai", "gpt-5", "openai-responses"],
  ["fake", "fake-coder", "openai-completions"],
];

function image(rng: SeededRandom, frames: Frames): { type: "image"; data: string; mimeType: string } {
  if (frames.pngs.length && rng.chance(0.5)) return { type: "image", data: rng.pick(frames.pngs), mimeType: "image/png" };
  return { type: "image", data: "iVBORw0KGgo" + "A".repeat(rng.int(4, 40)), mimeType: rng.pick(["image/png", "image/jpeg"]) };
}

export function userMessage(rng: SeededRandom, timestamp: number, verbosity: number, frames: Frames): Record<string, unknown> {
  const roll = rng.next();
  let content: unknown;
  if (roll < 0.45) content = makeText(rng, 25 * verbosity);
  else if (roll < 0.85) content = [{ type: "text", text: makeText(rng, 25 * verbosity) }];
  else content = [{ type: "text", text: makeText(rng, 10) }, image(rng, frames), { type: "text", text: makeText(rng, 5) }];
  const message: Record<string, unknown> = { role: "user", content, timestamp };
  if (rng.chance(0.7)) message.attribution = rng.chance(0.85) ? "user" : "agent";
  return message;
}

export function toolCalls(rng: SeededRandom): ToolCall[] {
  return Array.from({ length: rng.int(1, 3) }, () => {
    const id = `call_${rng.int(0, 1e9).toString(36)}`;
    const kind = rng.int(0, 4);
    if (kind === 0) return { id, name: "read", arguments: { path: `${rng.pick(FILES)}${rng.chance(0.2) ? ":10-40" : ""}` } };
    if (kind === 1) return { id, name: "write", arguments: { path: rng.pick(FILES), content: makeText(rng, 10) } };
    if (kind === 2) return { id, name: "edit", arguments: { input: `*** Begin Patch\n[${rng.pick(FILES)}#AB12]\nPUT 3\n+${makeText(rng, 4)}\n*** End Patch` } };
    if (kind === 3) return { id, name: "edit", arguments: { path: rng.pick(FILES), old_string: "a", new_string: "b" } };
    return { id, name: "bash", arguments: { command: rng.pick(["ls -la", "npm test", "git status"]) } };
  });
}

export function assistantMessage(
  rng: SeededRandom,
  timestamp: number,
  verbosity: number,
  options: { calls?: ToolCall[]; stopReason?: string },
): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (rng.chance(0.35)) {
    const block: Record<string, unknown> = { type: "thinking", thinking: makeText(rng, 30 * verbosity) };
    if (rng.chance(0.6)) block.thinkingSignature = "sig".repeat(rng.int(1, 40));
    content.push(block);
  }
  if (rng.chance(0.05)) content.push({ type: "redactedThinking", data: "redacted".repeat(rng.int(1, 20)) });
  if (!options.calls || rng.chance(0.5)) content.push({ type: "text", text: makeText(rng, 40 * verbosity) });
  for (const call of options.calls ?? []) content.push({ type: "toolCall", ...call });
  const [provider, model, api] = rng.pick(ASSISTANT_MODELS);
  const stopReason = options.stopReason ?? (options.calls?.length ? "toolUse" : "stop");
  const message: Record<string, unknown> = { role: "assistant", content, api, provider, model, stopReason, timestamp };
  if (rng.chance(0.85)) {
    const usage = randomUsage(rng);
    if (rng.chance(0.1)) usage.contextTokens = rng.int(1000, 90000);
    message.usage = usage;
  }
  if (rng.chance(0.6)) message.contextSnapshot = { promptTokens: rng.int(1000, 90000), nonMessageTokens: rng.pick([6766, 7938]), compactionEpoch: rng.int(0, 3) };
  if (stopReason === "error") message.errorMessage = "529 overloaded";
  if (rng.chance(0.3)) Object.assign(message, { duration: rng.int(100, 9000), ttft: rng.int(10, 900), responseId: `resp_${rng.int(0, 1e6)}` });
  return message;
}

export function toolResultMessage(rng: SeededRandom, timestamp: number, verbosity: number, call: ToolCall): Record<string, unknown> {
  const long = rng.chance(0.12);
  const path = typeof call.arguments.path === "string" ? call.arguments.path : undefined;
  const text = long ? "x".repeat(rng.int(2001, 6000)) + makeText(rng, 20) : `${path ? `[${path}#AB12]\n` : ""}${makeText(rng, 30 * verbosity)}`;
  const message: Record<string, unknown> = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text }],
    isError: rng.chance(0.1),
    timestamp,
  };
  if (path || rng.chance(0.3)) message.details = { resolvedPath: `/home/u/proj/${path ?? "src/a.ts"}`, wallTimeMs: rng.int(1, 900) };
  if (rng.chance(0.08)) message.useless = true;
  return message;
}

export function bashExecutionMessage(rng: SeededRandom, timestamp: number, verbosity: number): Record<string, unknown> {
  const cancelled = rng.chance(0.1);
  const message: Record<string, unknown> = {
    role: "bashExecution",
    command: rng.pick(["ls -la", "npm test", "git status", "cat src/a.ts | head"]),
    output: rng.chance(0.15) ? "" : makeText(rng, 30 * verbosity),
    exitCode: cancelled ? undefined : rng.pick([0, 0, 1, 2, null]),
    cancelled,
    truncated: rng.chance(0.1),
    timestamp,
  };
  if (rng.chance(0.2)) message.excludeFromContext = true;
  return message;
}

export function pythonExecutionMessage(rng: SeededRandom, timestamp: number, verbosity: number): Record<string, unknown> {
  const cancelled = rng.chance(0.1);
  const message: Record<string, unknown> = {
    role: "pythonExecution",
    code: rng.pick(["print(1)", "import os\nprint(os.getcwd())"]),
    output: rng.chance(0.2) ? "" : makeText(rng, 20 * verbosity),
    exitCode: cancelled ? undefined : rng.pick([0, 0, 1]),
    cancelled,
    truncated: false,
    timestamp,
  };
  if (rng.chance(0.2)) message.excludeFromContext = true;
  return message;
}

export function developerMessage(rng: SeededRandom, timestamp: number): Record<string, unknown> {
  return {
    role: "developer",
    content: rng.chance(0.5) ? makeText(rng, 15) : [{ type: "text", text: makeText(rng, 15) }],
    attribution: "agent",
    timestamp,
  };
}

export function fileMentionMessage(rng: SeededRandom, timestamp: number, frames: Frames): Record<string, unknown> {
  const files: Record<string, unknown>[] = [{ path: rng.pick(FILES), content: makeText(rng, 20) }];
  if (rng.chance(0.3)) files.push({ path: "shot.png", content: "", image: image(rng, frames) });
  if (rng.chance(0.2)) files.push({ path: rng.pick(FILES), content: "" });
  return { role: "fileMention", files, timestamp };
}

/** A `custom` or legacy `hookMessage` role message appended directly (omp converts both to `developer`). */
export function hookMessage(rng: SeededRandom, timestamp: number, role: "custom" | "hookMessage"): Record<string, unknown> {
  return {
    role,
    customType: rng.pick(["hook", "notice", "ext"]),
    content: rng.chance(0.5) ? makeText(rng, 15) : [{ type: "text", text: makeText(rng, 15) }],
    display: rng.chance(0.7),
    timestamp,
  };
}
