// directMessage (a message line serialised from its bytes, escaped as
// `prepare --json` writes it) equals pi 0.73's route through the parsed line —
// JSON.stringify(serializeConversation(convertToLlm([message]))) and
// extractFileOpsFromMessage — on every line it accepts: lines JSON.stringify
// writes (which it must accept) and the same values written otherwise
// (hostile-json.ts: white space, escapes and numbers JSON.stringify never
// writes, keys twice, bytes that are not UTF-8), which it must refuse or get right.

import { describe, expect, it } from "vitest";
import { directMessage } from "../../../src/core/compaction/escaped-message.js";
import { createFileOps, extractFileOpsFromMessage, addToolFileOp } from "../../../src/core/compaction/file-ops.js";
import { serializeConversation } from "../../../src/core/compaction/serialize-conversation.js";
import { convertToLlm } from "../../../src/core/context/convert-to-llm.js";
import type { ContextMessage } from "../../../src/core/context/context-message.js";
import { hostileWriter } from "../../support/hostile-json.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { trickyMessageEntry as entry } from "../../support/tricky-messages.js";

/** pi 0.73's route: the line parsed, its message serialised and escaped (as UTF-8 bytes, hex), and its file operations. */
function throughParse(line: Buffer): { escaped: string; fileOps: ReturnType<typeof createFileOps> } {
  const message = (JSON.parse(line.toString("utf8")) as { message: ContextMessage }).message;
  const fileOps = createFileOps();
  extractFileOpsFromMessage(message, fileOps);
  return { escaped: Buffer.from(JSON.stringify(serializeConversation(convertToLlm([message]))).slice(1, -1)).toString("hex"), fileOps };
}

/** directMessage's bytes (hex: compared as bytes, not as decoded text), or undefined when it refuses the line. */
function direct(line: Buffer): { escaped: string; fileOps: ReturnType<typeof createFileOps> } | undefined {
  const found = directMessage(line);
  if (!found) return undefined;
  const fileOps = createFileOps();
  for (const [name, path] of found.fileOps) addToolFileOp(name, path, fileOps);
  const escaped = "escaped" in found.text ? Buffer.concat(found.text.escaped) : Buffer.from(JSON.stringify(found.text.text).slice(1, -1));
  return { escaped: escaped.toString("hex"), fileOps };
}

describe("directMessage", () => {
  it("gives pi's serialised text and file operations for 6,000 lines as JSON.stringify writes them, and takes most of them", () => {
    const rng = createSeededRandom(7);
    const writer = hostileWriter(rng, 0);
    let taken = 0;
    let handledRoles = 0;
    for (let i = 0; i < 6000; i++) {
      const value = entry(rng);
      const line = writer.line(value);
      expect(line.equals(Buffer.from(JSON.stringify(value)))).toBe(true);
      const got = direct(line);
      const role = (value.message as { role: string }).role;
      if (["user", "assistant", "toolResult"].includes(role)) handledRoles++;
      if (!got) continue;
      taken++;
      expect(got).toStrictEqual(throughParse(line));
    }
    // Refused: other roles, content of another shape, junk blocks (text 5, arguments [], a call without a name).
    expect(taken).toBeGreaterThan(handledRoles * 0.6);
  });

  it("refuses or gets right 20,000 lines written otherwise (white space, escapes, numbers, keys twice, bytes not UTF-8)", () => {
    const rng = createSeededRandom(11);
    let taken = 0;
    let refused = 0;
    for (let i = 0; i < 20000; i++) {
      const writer = rng.chance(0.2) ? hostileWriter(rng, 0, 0.05) : hostileWriter(rng, rng.pick([0.01, 0.03, 0.1]));
      const line = writer.line(entry(rng));
      const got = direct(line);
      if (!got) {
        refused++;
        continue;
      }
      taken++;
      expect(got, line.toString("hex")).toStrictEqual(throughParse(line));
    }
    // Both sides are exercised.
    expect(taken).toBeGreaterThan(1500);
    expect(refused).toBeGreaterThan(2000);
  });

  it("follows JSON.parse where a key is written twice: the later member wins", () => {
    const lines = [
      `{"type":"message","id":"x","message":{"role":"user","content":"first"},"message":{"role":"user","content":"second"}}`,
      `{"type":"message","id":"x","message":{"role":"user","content":"a","content":"b"}}`,
      `{"type":"message","id":"x","message":{"role":"bashExecution","role":"user","content":"a"}}`,
      `{"type":"message","id":"x","message":{"role":"user","content":"a","role":"assistant"}}`,
      `{"type":"message","id":"x","message":{"role":"user","content":"a","content":[]}}`,
      `{"type":"message","id":"x","message":{"role":"assistant","content":[{"type":"toolCall","name":"read","arguments":{"path":"a"}}],"content":[]}}`,
      `{"type":"message","id":"x","message":{"role":"assistant","content":[{"type":"text","text":"a","type":"thinking"}]}}`,
      `{"type":"message","id":"x","message":{"role":"assistant","content":[{"type":"toolCall","name":"read","arguments":{"path":"a","path":"b"}}]}}`,
      `{"type":"message","id":"x","message":{"role":"assistant","content":[{"type":"toolCall","name":"read","arguments":{"b":1,"2":2,"path":"p"}}]}}`,
      `{"type":"message","id":"x","message":{"role":"assistant","content":[{"type":"toolCall","name":"read","arguments":{"path":"p","n":1.0}}]}}`,
      `{"type":"message","id":"x","message":{"role":"user","content":"caf\\u00e9"}}`,
      `{"type":"message","id":"x","message":{"role":"user","content":"\\ud83d\\ude00"}}`,
      `{"type":"message","id":"x","m\\u0065ssage":{"role":"user","content":"escaped key"},"message":{"role":"user","content":"plain"}}`,
    ].map((l) => Buffer.from(l));
    for (const line of lines) {
      const got = direct(line);
      if (got) expect(got, line.toString()).toStrictEqual(throughParse(line));
    }
    // The plain ones are taken, not parsed.
    expect(direct(Buffer.from(`{"type":"message","id":"x","message":{"role":"user","content":"plain \\"q\\" \\n"}}`))).toStrictEqual(
      throughParse(Buffer.from(`{"type":"message","id":"x","message":{"role":"user","content":"plain \\"q\\" \\n"}}`)),
    );
  });
});
