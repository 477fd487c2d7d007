// TranscriptBuilder writes escaped messages (escaped-message.ts) into blocks
// and escapes texts that come among them into the same blocks: whatever the
// mix, sizes and block edges, its pieces read back as the messages' texts
// joined by "\n\n", and written as `prepare --json` writes them
// (printJsonWithTextPieces) they are the bytes JSON.stringify writes.

import { describe, expect, it } from "vitest";
import { printJsonWithTextPieces } from "../../../src/cli/output";
import type { CommandContext } from "../../../src/cli/command";
import { TranscriptBuilder, transcriptString } from "../../../src/core/compaction/transcript-builder.js";
import { serializeConversation } from "../../../src/core/compaction/serialize-conversation.js";
import { convertToLlm } from "../../../src/core/context/convert-to-llm.js";
import { createSeededRandom, type SeededRandom } from "../../support/seeded-random.js";

const PIECES = ["a", "plain text ", 'quote " and \\ backslash', "line\nbreak\ttab", "\u0001\u001f", "ü 日本 😀", "lone \ud800", "\udc00 low", "\u2028"];

function text(rng: SeededRandom): string {
  const parts: string[] = [];
  for (let i = rng.int(0, 6); i > 0; i--) parts.push(rng.pick(PIECES));
  // Now and then longer than a block (256 KiB), or long enough to fill one in a few messages.
  if (rng.chance(0.03)) parts.push("x".repeat(rng.int(300_000, 400_000)));
  else if (rng.chance(0.1)) parts.push(rng.pick(PIECES).repeat(rng.int(1_000, 20_000)));
  return parts.join("");
}

/** `text` escaped as inside a JSON string, cut into segments of random sizes (short and long). */
function segments(rng: SeededRandom, value: string): Buffer[] {
  const bytes = Buffer.from(JSON.stringify(value).slice(1, -1), "utf8");
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = Math.min(bytes.length - at, rng.chance(0.5) ? rng.int(1, 47) : rng.int(48, 5000));
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

function capture(): { ctx: CommandContext; bytes: () => Buffer } {
  const written: Buffer[] = [];
  const io = { stdout: (t: string) => written.push(Buffer.from(t, "utf8")), stdoutBytes: (b: Uint8Array) => written.push(Buffer.from(b)), stderr: () => {} };
  return { ctx: { io, json: true } as unknown as CommandContext, bytes: () => Buffer.concat(written) };
}

describe("TranscriptBuilder", () => {
  it("gives the messages' texts joined by \\n\\n, and JSON.stringify's bytes when written out, for any mix (40 runs)", () => {
    const transcript = { convertToLlm, serializeConversation };
    for (let seed = 1; seed <= 40; seed++) {
      const rng = createSeededRandom(seed);
      const builder = new TranscriptBuilder(transcript);
      const texts: string[] = [];
      const count = rng.int(0, 120);
      for (let i = 0; i < count; i++) {
        const value = rng.chance(0.1) ? "" : text(rng);
        const roll = rng.int(0, 2);
        if (roll === 0) builder.addDirect({ escaped: segments(rng, value) });
        else if (roll === 1) builder.addDirect({ text: value });
        else builder.add({ role: "user", content: value, timestamp: 1 });
        const expected = roll === 2 ? (value ? `[User]: ${value}` : "") : value;
        if (expected) texts.push(expected);
      }
      expect(builder.count).toBe(count);
      const built = builder.text();
      const joined = texts.join("\n\n");
      expect(transcriptString(built) === joined, `seed ${seed}`).toBe(true);
      expect(built.length).toBe(joined.length);
      const out = capture();
      printJsonWithTextPieces(out.ctx, { before: 1, history: "", after: 2 }, "history", built.pieces);
      const expected = Buffer.from(`${JSON.stringify({ before: 1, history: joined, after: 2 }, null, 2)}\n`, "utf8");
      expect(out.bytes().equals(expected), `seed ${seed}`).toBe(true);
    }
  });
});
