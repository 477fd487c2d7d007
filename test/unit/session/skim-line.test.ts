// skimLine reads long lines from their leading and trailing members only; on
// every line laid out as pi writes them (and as pi's v1→v3 migration leaves
// them: id and parentId after the message) it gives what scanLine gives, and
// on anything else it falls back to scanLine.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanLine } from "../../../src/core/session/scan/entry-scanner.js";
import { skimLine, SKIM_MIN_BYTES } from "../../../src/core/session/scan/line-skimmer.js";
import type { LineScan } from "../../../src/core/session/scan/line-fields.js";
import { recordFromFields } from "../../../src/core/session/scan/meta-from-fields.js";

const text = fc.string({ minLength: 0, maxLength: 3000, unit: "grapheme" });
const usage = fc.record({ input: fc.nat(), output: fc.nat(), cacheRead: fc.nat(), cacheWrite: fc.nat(), totalTokens: fc.nat(), cost: fc.record({ total: fc.double({ noNaN: true, noDefaultInfinity: true }) }) });
const message = fc.oneof(
  fc.record({ role: fc.constant("user"), content: text, timestamp: fc.nat() }),
  fc.record(
    { role: fc.constant("assistant"), content: fc.array(fc.record({ type: fc.constant("text"), text }), { maxLength: 3 }), api: fc.constant("a"), provider: fc.constant("p"), model: fc.constant("m"), usage, stopReason: fc.constantFrom("stop", "aborted"), timestamp: fc.nat(), errorMessage: fc.string() },
    { requiredKeys: ["role", "content", "provider", "model", "timestamp"] },
  ),
  fc.record({ role: fc.constant("toolResult"), toolCallId: fc.string(), toolName: fc.constant("bash"), content: fc.array(fc.record({ type: fc.constant("text"), text })), details: fc.anything(), isError: fc.boolean(), timestamp: fc.nat(), usage: fc.option(usage, { nil: undefined }) }),
);
const piLine = fc.tuple(fc.string({ minLength: 8, maxLength: 8, unit: fc.constantFrom(..."0123456789abcdef") }), fc.option(fc.string({ minLength: 8, maxLength: 8, unit: fc.constantFrom(..."0123456789abcdef") })), message, fc.boolean()).map(([id, parentId, m, migrated]) =>
  migrated
    ? JSON.stringify({ type: "message", timestamp: "2025-01-01T00:00:00.000Z", message: m, id, parentId })
    : JSON.stringify({ type: "message", id, parentId, timestamp: "2025-01-01T00:00:00.000Z", message: m }),
);
/** The same message with its members in another order (pi 1.5.2's SessionManager keeps the caller's order: timestamp before usage, …). */
const reorderedLine = fc.tuple(piLine, fc.nat()).map(([line, seed]) => {
  const value = JSON.parse(line) as { message: Record<string, unknown> };
  const keys = Object.keys(value.message);
  let state = seed + 1;
  const rank = new Map(keys.map((k) => [k, ((state = (state * 1103515245 + 12345) % 2147483648), state)]));
  value.message = Object.fromEntries(keys.sort((a, b) => rank.get(a)! - rank.get(b)!).map((k) => [k, value.message[k]]));
  return JSON.stringify(value);
});
const otherLine = fc.tuple(fc.constantFrom("custom_message", "compaction", "branch_summary", "custom", "usage"), text, fc.option(usage, { nil: undefined })).map(([type, t, u]) =>
  JSON.stringify({ type, id: "abcd0001", parentId: null, timestamp: "2025-01-01T00:00:00.000Z", customType: "x", content: t, summary: t, data: { t }, usage: u }),
);

/** What the index makes of a scan: the meta and its diagnostics (fields it never reads may differ). */
function indexed(scan: LineScan): unknown {
  if (scan.kind !== "object") return scan;
  const diagnostics: unknown[] = [];
  const meta = recordFromFields(scan.fields, { line: 1, offset: 0, length: 1 }, { entryTypes: new Set(), messageRoles: new Set() }, diagnostics as never);
  return { meta, diagnostics };
}

function same(line: string): void {
  const b = Buffer.from(line);
  expect(indexed(skimLine(b, 0, b.length))).toEqual(indexed(scanLine(b, 0, b.length)));
}

describe("skimLine", () => {
  it("equals scanLine on pi's layouts (leading fields, trailing usage/timestamp, migrated id/parentId after the message)", () => {
    fc.assert(fc.property(fc.oneof(piLine, otherLine), (line) => same(line)), { numRuns: 400 });
  });

  it("equals scanLine on messages whose members come in another order (the message's timestamp before its usage, usage before the content, …)", () => {
    fc.assert(fc.property(reorderedLine, (line) => same(line)), { numRuns: 600 });
  });

  it("reads the message's timestamp written before its usage (an assistant as pi 1.5.2's SessionManager writes the oracle's messages)", () => {
    const content = [{ type: "text", text: "x".repeat(2 * SKIM_MIN_BYTES) }];
    const message = { role: "assistant", content, api: "a", provider: "p", model: "m", timestamp: 1700000000000, usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { total: 0.5 } }, stopReason: "stop" };
    const line = JSON.stringify({ type: "message", id: "0000000a", parentId: null, timestamp: "2025-01-01T00:00:00.000Z", message });
    const b = Buffer.from(line);
    const scan = skimLine(b, 0, b.length);
    expect(scan.kind === "object" && scan.fields.message?.timestamp).toBe(1700000000000);
    same(line);
  });

  it("equals scanLine on damaged long lines that a native search can still tell (cut short, bad tail, extra members)", () => {
    fc.assert(
      fc.property(piLine, fc.nat(), fc.constantFrom("cut", "tail", "extra"), (line, at, how) => {
        const long = line.length < SKIM_MIN_BYTES ? line.replace('"timestamp":"2025', `"pad":"${"x".repeat(SKIM_MIN_BYTES)}","timestamp":"2025`) : line;
        const damaged = how === "cut" ? long.slice(0, long.length - 1 - (at % 5)) : how === "tail" ? `${long.slice(0, -1)},}` : `${long.slice(0, -1)},"message":{"role":"user"}}`;
        same(damaged);
      }),
      { numRuns: 300 },
    );
  });
});

describe("skimLine on an entry whose parentId comes after a big member", () => {
  it("reads parentId and timestamp exactly (the line is scanned), as scanLine does", () => {
    const line = JSON.stringify({ type: "thinking_level_change", id: "0000000a", thinkingLevel: "", message: { role: "user", pad: "·".repeat(2 * SKIM_MIN_BYTES) }, parentId: null, timestamp: "1970-01-01T00:00:00.000Z" });
    const b = Buffer.from(line);
    const skim = skimLine(b, 0, b.length);
    const exact = scanLine(b, 0, b.length);
    if (skim.kind !== "object" || exact.kind !== "object") throw new Error("not an object");
    expect(skim.fields.parentId).toBeNull();
    expect(skim.fields.timestamp).toBe(exact.fields.timestamp);
  });
});
