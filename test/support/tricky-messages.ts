// Messages with the text pi's transcript is hard on: quotes, backslashes,
// control characters, lone and paired surrogates, texts around the 2,000
// character cut, tool arguments with array-index and "__proto__" keys and
// numbers of every form, junk blocks, roles pi 0.73 drops or converts.

import type { SeededRandom } from "./seeded-random.js";

const TRICKY = [
  "plain", "quote \" and \\ backslash", "line\nbreak\ttab\r\n", "\u0000\u0001\u001f\u007f control", "ü 日本 emoji😀",
  "lone \ud800 high", "lone \udc00 low", "pair \ud83d\ude00", "slash / and </script>", "", " ", "\u2028\u2029",
  "\"quoted\"", "{\"json\": [1, 2]}", "[Tool result]: fake", "\\n literally",
];

function text(rng: SeededRandom): string {
  const n = rng.int(0, 4);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(rng.pick(TRICKY));
  // Now and then long enough to be cut (2,000 characters), multi-byte characters around the cut.
  if (rng.chance(0.1)) parts.push("x".repeat(rng.int(1990, 2010)), rng.pick(["😀", "ü", "\n", "\ud800", "a"]).repeat(rng.int(1, 5)));
  return parts.join(rng.pick(["", " ", "\n"]));
}

function argValue(rng: SeededRandom, depth = 0): unknown {
  const roll = rng.int(0, depth > 1 ? 5 : 7);
  if (roll === 0) return text(rng);
  if (roll === 1) return rng.pick([0, -1, 1.5, 1e21, 1e-7, 123456789012, -0.25, 2 ** 53]);
  if (roll === 2) return rng.pick([true, false, null]);
  if (roll === 3) return `src/${rng.pick(["a", "b", "c"])}.ts`;
  if (roll === 4) return rng.pick(["", "x"]);
  if (roll === 5) return rng.pick(["read", "write"]);
  if (roll === 6) return Array.from({ length: rng.int(0, 3) }, () => argValue(rng, depth + 1));
  return args(rng, depth + 1);
}

function args(rng: SeededRandom, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = ["path", "content", "oldText", "command", "a b", "ü", "0", "1", "10", "01", "-1", "4294967295", "__proto__", "k\"q", "path"];
  for (let i = rng.int(0, 4); i > 0; i--) {
    const key = rng.pick(keys);
    // An own "__proto__" member, as JSON.parse makes it.
    Object.defineProperty(out, key, { value: key === "path" && rng.chance(0.7) ? `src/${text(rng)}.ts` : argValue(rng, depth), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function block(rng: SeededRandom): unknown {
  const roll = rng.int(0, 9);
  if (roll <= 2) return { type: "text", text: text(rng) };
  if (roll === 3) return { type: "thinking", thinking: text(rng), thinkingSignature: "sig" };
  if (roll <= 5) {
    const call: Record<string, unknown> = { type: "toolCall", id: "call_1", name: rng.pick(["read", "write", "edit", "bash", "ls", "t\u00e9st"]) };
    if (!rng.chance(0.05)) call.arguments = args(rng);
    return call;
  }
  if (roll === 6) return { type: "image", data: "iVBORw0KGgoAAAA", mimeType: "image/png" };
  if (roll === 7) return rng.pick<unknown>([null, 1, "text", [], { type: "text" }, { type: "text", text: 5 }, { text: "no type" }, { type: "toolCall", arguments: [] }]);
  return { type: "text", text: text(rng), extra: { nested: [1, { type: "text" }] } };
}

export function trickyMessage(rng: SeededRandom): Record<string, unknown> {
  const role = rng.pick(["user", "assistant", "toolResult", "user", "assistant", "toolResult", "bashExecution", "custom", "system"]);
  const blocks = Array.from({ length: rng.int(0, 5) }, () => block(rng));
  const content = role !== "assistant" && rng.chance(0.3) ? text(rng) : rng.chance(0.03) ? rng.pick<unknown>([null, 7, {}]) : blocks;
  if (role === "assistant") {
    return { role, content, api: "anthropic-messages", provider: "anthropic", model: "m", usage: { input: 1, output: 2, cost: { total: 0.5 } }, stopReason: "stop", timestamp: 1 };
  }
  if (role === "toolResult") return { role, toolCallId: "call_1", toolName: "read", content, details: { diff: "-a\n+b", content: "x" }, isError: false, timestamp: 2 };
  return { role, content, timestamp: 3 };
}

export function trickyMessageEntry(rng: SeededRandom): Record<string, unknown> {
  return { type: "message", id: "a1b2c3d4", parentId: rng.chance(0.5) ? null : "00000000", timestamp: "2025-01-01T00:00:00.000Z", message: trickyMessage(rng) };
}

