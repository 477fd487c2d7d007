// The model an answer's spend is counted under, read from the line's bytes in
// pi's layout, equals pi 1.5.2's key from the parsed message
// (`${provider}/${responseModel ?? model}`) whenever it answers; other layouts
// are declined (the caller parses).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistantModelFromLine, spendModelOfEntry } from "../../../src/core/catalogue/spend-model.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";

const piKey = (line: string) => spendModelOfEntry(JSON.parse(line) as SessionEntry);
const fromBytes = (line: string) => {
  const b = Buffer.from(`xx${line}yy`);
  return assistantModelFromLine(b, 2, b.length - 2);
};
const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.1 } };

function line(message: Record<string, unknown>): string {
  return JSON.stringify({ type: "message", id: "a", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message });
}

describe("assistantModelFromLine", () => {
  it("reads provider, model and responseModel in pi's layout, as pi keys them", () => {
    const base = { role: "assistant", content: [{ type: "toolCall", id: "t", name: "x", arguments: { model: "inner", provider: "inner" } }], api: "a", provider: "openrouter", model: "m/1" };
    for (const tail of [{}, { responseModel: "m/1-2026" }, { responseModel: null }, { errorMessage: '"responseModel":"no"' }]) {
      const l = line({ ...base, usage, stopReason: "stop", timestamp: 1, ...tail });
      expect(fromBytes(l)).toBe(piKey(l));
    }
    expect(fromBytes(line({ ...base, usage, stopReason: "stop", timestamp: 1, responseModel: "r" }))).toBe("openrouter/r");
  });

  it("declines other layouts and escaped values (the caller parses)", () => {
    expect(fromBytes(line({ role: "assistant", provider: "p", model: "m", content: [], usage, stopReason: "stop" }))).toBeUndefined();
    expect(fromBytes(line({ role: "assistant", content: [], api: "a", provider: "p", model: 'm"q', usage }))).toBeUndefined();
    expect(fromBytes(line({ role: "assistant", content: [], api: "a", provider: "p", model: "é", usage }))).toBeUndefined();
    expect(fromBytes(line({ role: "assistant", content: [], usage, model: "m", provider: "p" }))).toBeUndefined();
    expect(fromBytes(line({ role: "assistant", content: [], model: "m", usage }))).toBeUndefined();
    expect(fromBytes(line({ role: "assistant", content: [], api: "a", provider: "p", model: "m", usage, responseModel: 'r"x' }))).toBeUndefined();
  });

  it("equals pi's key or declines, on random answers", () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('"model":"x"', ',"usage":{', ',"responseModel":"z"', "\\"));
    const member = fc.option(fc.oneof(text, fc.constant(null), fc.integer()), { nil: undefined });
    fc.assert(
      fc.property(text, member, member, member, fc.boolean(), (body, provider, model, responseModel, modelFirst) => {
        const head = modelFirst ? { role: "assistant", provider, model } : { role: "assistant" };
        const message: Record<string, unknown> = { ...head, content: [{ type: "text", text: body }], api: "a" };
        if (!modelFirst) Object.assign(message, { provider, model });
        Object.assign(message, { usage, stopReason: "stop", timestamp: 1 });
        if (responseModel !== undefined) message.responseModel = responseModel;
        const l = line(message);
        const got = fromBytes(l);
        if (got !== undefined) expect(got).toBe(piKey(l));
      }),
      { numRuns: 2000 },
    );
  });
});
