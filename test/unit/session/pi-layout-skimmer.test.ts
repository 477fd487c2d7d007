// skimPiLayout (the skim of a message line in pi's layout, straight from its
// bytes) must give the index exactly what skimLine gives — on pi's own lines
// and on anything near them: junk values, escapes in ids and timestamps,
// unicode, reordered keys, whitespace, cut-short and damaged bytes. Either it
// declines (the line goes through skimLine) or its entry is skimLine's.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanLine } from "../../../src/core/session/scan/entry-scanner.js";
import { JsonlReader } from "../../../src/core/session/bytes/jsonl-reader.js";
import { skimLine, SKIM_MIN_BYTES, TAIL_WINDOW } from "../../../src/core/session/scan/line-skimmer.js";
import { recordFromFields } from "../../../src/core/session/scan/meta-from-fields.js";
import { recordOfSkimmed, SkimmedEntry, skimPiLayout } from "../../../src/core/session/skim/pi-layout-skimmer.js";
import type { SliceableBuffer } from "../../../src/core/session/scan/scanned-values.js";
import { borrowSearchChunk, returnSearchChunk, SEARCH_CHUNK_BYTES, skimInMemory } from "../../../src/core/session/skim/search-memory.js";
import { SessionBuilder } from "../../../src/core/session/index/session-builder.js";
import { SessionIndex } from "../../../src/core/session/index/session-index.js";
import { mutate } from "../../support/junk-mutation.js";
import { createSeededRandom } from "../../support/seeded-random.js";

const hex = (n: number) => fc.string({ minLength: n, maxLength: n, unit: fc.constantFrom(..."0123456789abcdef") });
/** Ids as pi writes them (8 hex digits), some sharing a few values so parents resolve, and odd ones. */
const id = fc.oneof({ weight: 6, arbitrary: fc.constantFrom("0000000a", "0000000b", "0000000c", "0000000d") }, { weight: 3, arbitrary: hex(8) }, { weight: 1, arbitrary: fc.constantFrom("", "é1", "a\"b", "a\\b", "tab\there", "\u2028", "x".repeat(40)) });
const pad = (n: number, width: number) => String(n).padStart(width, "0");
/** toISOString's shape with fields in and just out of range (month 0 and 13, day 0 and 29–32 of every month, hour 24, leap and non-leap years). */
const isoShaped = fc
  .record({
    year: fc.constantFrom(999, 1000, 1600, 1900, 2000, 2023, 2024, 2100, 2400, 9999),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.oneof(fc.constantFrom(0, 1, 28, 29, 30, 31, 32), fc.integer({ min: 1, max: 28 })),
    hour: fc.constantFrom(0, 9, 23, 24),
    minute: fc.constantFrom(0, 59, 60),
    second: fc.constantFrom(0, 59, 60),
    ms: fc.integer({ min: 0, max: 999 }),
  })
  .map((t) => `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}.${pad(t.ms, 3)}Z`);
const timestamp = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }).map((t) => new Date(t).toISOString()) },
  { weight: 2, arbitrary: isoShaped },
  { weight: 1, arbitrary: fc.constantFrom("2025-01-01T00:00:00Z", "2025-02-30T00:00:00.000Z", "2025-01-01T24:00:00.000Z", "0999-01-01T00:00:00.000Z", "2025-01-01T00:00:00.000z", "", "2025-01-01T00:00:00.000Z ") },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null)) },
);
const text = fc.string({ maxLength: 600, unit: "grapheme" });
const number = fc.oneof(
  { weight: 4, arbitrary: fc.nat() },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0.1, 1e21, 123456789012345, 1234567890123456, -0, 5e-324, 0.000123) },
);
const cost = fc.record({ input: number, output: number, cacheRead: number, cacheWrite: number, total: number }, { requiredKeys: [] });
const usage = fc.oneof(
  { weight: 4, arbitrary: fc.record({ input: number, output: number, cacheRead: number, cacheWrite: number, totalTokens: number, cost }) },
  { weight: 2, arbitrary: fc.record({ input: number, output: number, cacheRead: number, cacheWrite: number, cost }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ cost: fc.oneof(cost, fc.constant(null), fc.constant([1])), input: fc.oneof(number, fc.constant("7")), output: number }) },
);
const message = fc.oneof(
  fc.record({ role: fc.constant("user"), content: fc.oneof(text, fc.array(fc.record({ type: fc.constant("text"), text }), { maxLength: 3 })), timestamp: number }, { requiredKeys: ["role", "content"] }),
  fc.record(
    {
      role: fc.constant("assistant"),
      content: fc.array(fc.record({ type: fc.constant("text"), text }), { maxLength: 3 }),
      api: fc.constant("anthropic-messages"),
      provider: fc.constant("anthropic"),
      model: fc.constant("claude-sonnet-4-5"),
      usage,
      stopReason: fc.constantFrom("stop", "toolUse", "aborted"),
      timestamp: fc.oneof(number, fc.constant("1700000000000")),
      errorMessage: fc.string({ unit: "grapheme" }),
    },
    { requiredKeys: ["role", "content", "timestamp"] },
  ),
  fc.record(
    { role: fc.constant("toolResult"), toolCallId: fc.string(), toolName: fc.constantFrom("bash", "read"), content: fc.array(fc.record({ type: fc.constant("text"), text })), details: fc.anything({ maxDepth: 2 }), isError: fc.boolean(), timestamp: number, usage },
    { requiredKeys: ["role", "toolCallId", "content", "timestamp"] },
  ),
  fc.record({ role: fc.constantFrom("bashExecution", "custom", "weird"), content: text, timestamp: number }),
);
/** A message entry as pi writes it, or as pi's migration leaves it (id, parentId after the message). */
const messageEntry = fc.record({ id, parentId: fc.option(id), timestamp, message, migrated: fc.boolean() }).map(({ id, parentId, timestamp, message, migrated }) =>
  migrated ? { type: "message", timestamp, message, id, parentId } : { type: "message", id, parentId, timestamp, message },
);
/** Other entries: the plain types (read whole when short), and types the index reads more of. */
const otherEntry = fc
  .record({
    type: fc.constantFrom("thinking_level_change", "model_change", "custom", "custom_message", "label", "session_info", "compaction", "usage", "branch_summary", "context_edit", "message_x"),
    id,
    parentId: fc.option(id),
    timestamp,
    more: fc.dictionary(fc.constantFrom("thinkingLevel", "provider", "modelId", "customType", "data", "display", "content", "label", "targetId", "name", "usage", "message", "role", "type", "id", "timestamp"), fc.oneof(fc.string(), fc.nat(), fc.constant(null), fc.record({ role: fc.constant("user") })), { maxKeys: 3 }),
    migrated: fc.boolean(),
  })
  .map(({ type, id, parentId, timestamp, more, migrated }) => (migrated ? { type, timestamp, ...more, id, parentId } : { type, id, parentId, timestamp, ...more }));
const entry = fc.oneof({ weight: 3, arbitrary: messageEntry }, { weight: 1, arbitrary: otherEntry });

/** Long enough to be skimmed (a short line is always scanned exactly). */
function long(value: Record<string, unknown>): Record<string, unknown> {
  const m = value.message as Record<string, unknown> | undefined;
  if (typeof m !== "object" || m === null || Array.isArray(m) || JSON.stringify(value).length >= SKIM_MIN_BYTES) return value;
  const padded: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) padded[k] = k === "content" && typeof v === "string" ? v.padEnd(SKIM_MIN_BYTES, "·") : v;
  if (typeof padded.content !== "string") padded.pad = "·".repeat(SKIM_MIN_BYTES);
  return { ...value, message: padded };
}

/** Keys of the entry and of its message in another order. */
function reorder(value: Record<string, unknown>, seed: number): Record<string, unknown> {
  const rng = createSeededRandom(seed);
  const shuffle = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(() => rng.next() - 0.5));
  const m = value.message;
  const top = shuffle(value);
  if (typeof m === "object" && m !== null && !Array.isArray(m)) top.message = shuffle(m as Record<string, unknown>);
  return top;
}

type Variant = "pi" | "short" | "junk" | "reordered" | "spaced" | "escaped" | "cut" | "byte" | "tail";
const variants: Variant[] = ["pi", "pi", "pi", "short", "short", "junk", "reordered", "spaced", "escaped", "cut", "byte", "tail"];

/** A line's bytes: pi's layout (long, or short and so read whole), or one of the ways away from it. */
function lineBytes(value: Record<string, unknown>, variant: Variant, seed: number): Buffer {
  const rng = createSeededRandom(seed);
  // Short lines (scanned whole) keep their length; damaged ones are sometimes short too.
  let v = variant === "junk" ? (mutate(value, rng, 0) as Record<string, unknown>) : value;
  if (variant !== "short" && (seed % 4 !== 0 || variant === "pi")) v = long(v);
  if (variant === "reordered") v = reorder(v, seed);
  let line = JSON.stringify(v);
  if (variant === "spaced") {
    // JSON whitespace between tokens (no newline inside a line).
    line = JSON.stringify(v, null, rng.pick([1, "\t", " \r "])).replace(/\n/g, rng.pick([" ", "", "\t"]));
  } else if (variant === "escaped") {
    // The same values written with escapes: \u in ids, timestamps, roles or keys.
    const targets = [/"id":"(.)/, /"parentId":"(.)/, /"timestamp":"(.)/, /"role":"(.)/, /"(u)sage":/, /"(c)ontent":/, /"(t)ype":/];
    const target = rng.pick(targets);
    line = line.replace(target, (whole, ch: string) => whole.replace(ch, `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`));
  } else if (variant === "cut") {
    line = line.slice(0, rng.int(0, line.length - 1));
  } else if (variant === "tail") {
    // Damage near the end, where the tail members are read.
    const at = rng.int(Math.max(0, line.length - 300), line.length - 1);
    line = line.slice(0, at) + rng.pick(['"', "\\", "}", ",", "{", "\u0001", " ", "x", '"usage":{}', '"timestamp":1,']) + line.slice(at + rng.int(0, 2));
  }
  const bytes = Buffer.from(line);
  if (variant === "byte" && bytes.length > 0) {
    const at = rng.int(0, Math.min(bytes.length - 1, 200));
    bytes[at] = rng.pick([0x22, 0x5c, 0x7d, 0x2c, 0x01, 0xff, 0x20, 0x30]);
  }
  return bytes;
}

const location = { line: 2, offset: 10, length: 1 };

/** What the index holds after one line, read by the fast path or by skimLine. */
function indexed(index: SessionIndex): unknown {
  return { metas: index.entries, spend: index.totalSpend, activity: index.lastActivityTime, messages: index.messageCount, diagnostics: index.diagnostics };
}

/** The same earlier entries in both indexes, so parents resolve to the previous entry, to an earlier one, or to none. */
function withEarlierEntries(): SessionIndex {
  const index = new SessionIndex();
  for (const [i, earlier] of ["0000000a", "0000000b"].entries()) {
    index.addRecord({ ...location, line: i + 1, type: "custom", id: earlier, parentId: null, timestamp: "2025-01-01T00:00:00.000Z", role: undefined, activityTime: Number.NaN, spend: undefined, rare: undefined });
  }
  return index;
}

const arbitraryLine = fc.tuple(entry, fc.constantFrom(...variants), fc.nat());

/** What the index reads of a skimmed entry (a null parent's hash and the spend of an entry with none are left from an earlier line). */
const read = (m: SkimmedEntry) => ({
  ...m,
  parentHash: m.parentStart < 0 ? 0 : m.parentHash,
  ...(m.hasSpend ? {} : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 }),
});

/** A chunk of the search memory, where the module (wasm/skim.ts) skims long lines. */
let chunk: Buffer | null = null;
beforeAll(() => {
  chunk = borrowSearchChunk();
  expect(chunk).not.toBeNull();
});
afterAll(() => returnSearchChunk(chunk!));
let placements = 0;
/** Lines the module read itself (it declined the others). */
let moduleTook = 0;

/** `b` copied into the chunk, at its start, inside it or at its end (in turn). */
function inChunk(b: Uint8Array): SliceableBuffer {
  const where = placements++ % 3;
  const at = where === 0 ? 0 : where === 1 ? 1 + (placements % 4093) : SEARCH_CHUNK_BYTES - b.length;
  chunk!.fill(0x7b, Math.max(0, at - 64), Math.min(SEARCH_CHUNK_BYTES, at + b.length + 64));
  chunk!.set(b, at);
  return chunk!.subarray(at, at + b.length) as SliceableBuffer;
}

/**
 * skimPiLayout of `b` (a plain buffer: the JS skim), into `m`; on the way, the
 * same line in a chunk of the search memory: the module either declines it or
 * reads exactly what the JS skim reads, and skimPiLayout there gives the same.
 */
function skimBoth(b: SliceableBuffer, m: SkimmedEntry): boolean {
  const took = skimPiLayout(b, 0, b.length, m);
  const there = inChunk(b);
  const byModule = new SkimmedEntry();
  if (b.length >= SKIM_MIN_BYTES && skimInMemory(there, 0, there.length, byModule)) {
    moduleTook++;
    expect(took).toBe(true);
    expect(read(byModule)).toEqual(read(m));
  }
  const inMemory = new SkimmedEntry();
  expect(skimPiLayout(there, 0, there.length, inMemory)).toBe(took);
  if (took) expect(read(inMemory)).toEqual(read(m));
  return took;
}

describe("skimPiLayout", () => {
  it("gives the index (and a record) exactly what skimLine gives, or declines (pi's lines long and short, junk values, escapes, unicode, reordered keys, whitespace, cut and damaged bytes)", () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(arbitraryLine, ([value, variant, seed]) => {
        runs++;
        const b = lineBytes(value, variant, seed) as SliceableBuffer;
        const m = new SkimmedEntry();
        if (!skimBoth(b, m)) return;
        taken++;
        const fast = withEarlierEntries();
        fast.addSkimmed(m, b, location.line + 2, location.offset, b.length);
        const scan = skimLine(b, 0, b.length);
        expect(scan.kind).toBe("object");
        if (scan.kind !== "object") return;
        const diagnostics: unknown[] = [];
        const record = recordFromFields(scan.fields, { ...location, line: location.line + 2, length: b.length }, { entryTypes: new Set(), messageRoles: new Set() }, diagnostics as never);
        expect(diagnostics).toEqual([]);
        expect(recordOfSkimmed(m, b, { ...location, line: location.line + 2, length: b.length })).toEqual(record);
        const reference = withEarlierEntries();
        reference.addRecord(record!);
        expect(indexed(fast)).toEqual(indexed(reference));
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: many lines take the fast path (the next test: every line pi writes does), and the module reads some itself.
    expect(taken).toBeGreaterThan(runs / 20);
    expect(moduleTook).toBeGreaterThan(40);
  });

  it("takes every long message line pi writes (user, assistant with usage, tool result), in pi's layout and after pi's migration", () => {
    fc.assert(
      fc.property(messageEntry, (value) => {
        const m = value.message as Record<string, unknown>;
        const plain = typeof value.timestamp === "string" && /^[1-9]\d{3}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value.timestamp) && !Number.isNaN(Date.parse(value.timestamp)) && new Date(value.timestamp).toISOString() === value.timestamp;
        const asciiId = (s: unknown) => s === null || (typeof s === "string" && /^[\x20-\x7e]*$/.test(s) && !/["\\]/.test(s));
        const piUsage = (u: unknown) => typeof u === "object" && u !== null && Object.values(u).every((x) => typeof x === "number" || (typeof x === "object" && x !== null && !Array.isArray(x)));
        const wanted =
          plain && asciiId(value.id) && asciiId(value.parentId) && typeof m.timestamp === "number" &&
          (m.role === "user" || (m.role === "assistant" && piUsage(m.usage)) || (m.role === "toolResult" && (m.usage === undefined || piUsage(m.usage))));
        fc.pre(wanted);
        const b = Buffer.from(JSON.stringify(long(value))) as SliceableBuffer;
        // A tool result's `details` may hold `"usage":` keys of its own: then skimLine starts its tail there.
        fc.pre(!(m.role === "toolResult" && m.usage === undefined && b.includes('"usage":')));
        expect(skimBoth(b, new SkimmedEntry())).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("gives the message's own time of a long line whose timestamp comes before its usage (pi 1.5.2 keeps the caller's key order), as the exact scan does", () => {
    const content = [{ type: "text", text: "x".repeat(2 * SKIM_MIN_BYTES) }];
    for (const role of ["assistant", "toolResult"]) {
      const message = { role, toolCallId: role === "toolResult" ? "c1" : undefined, content, timestamp: 1700000000000, usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { total: 0.5 } }, stopReason: "stop" };
      const b = Buffer.from(JSON.stringify({ type: "message", id: "0000000a", parentId: null, timestamp: "2025-01-01T00:00:00.000Z", message })) as SliceableBuffer;
      const scan = scanLine(b, 0, b.length);
      if (scan.kind !== "object") throw new Error("not an object");
      const exact = recordFromFields(scan.fields, { ...location, length: b.length }, { entryTypes: new Set(), messageRoles: new Set() }, []);
      const m = new SkimmedEntry();
      if (skimBoth(b, m)) expect(recordOfSkimmed(m, b, { ...location, length: b.length })).toEqual(exact);
      const skim = skimLine(b, 0, b.length);
      if (skim.kind !== "object") throw new Error("not an object");
      expect(recordFromFields(skim.fields, { ...location, length: b.length }, { entryTypes: new Set(), messageRoles: new Set() }, [])).toEqual(exact);
    }
  });

  it("gives a tool result's usage written far before its timestamp (more than the tail window: other members after it) as the exact scan does, or declines", () => {
    const usage = { input: 5, output: 7, cacheRead: 1, cacheWrite: 2, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.25 } };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 * TAIL_WINDOW }), fc.constantFrom("details", "content", "both"), fc.boolean(), (size, where, migrated) => {
        const big = "y".repeat(size);
        // pi 1.5.2's own order is content, details, usage, isError, durationMs, timestamp; here usage comes earlier.
        const message =
          where === "content"
            ? { role: "toolResult", toolCallId: "c1", toolName: "bash", usage, content: [{ type: "text", text: big }], isError: false, timestamp: 1700000000000 }
            : { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "ok" }], usage, details: where === "both" ? { output: big, nested: { usage } } : { output: big }, isError: false, timestamp: 1700000000000 };
        const value = migrated
          ? { type: "message", timestamp: "2025-01-01T00:00:00.000Z", message, id: "0000000a", parentId: null }
          : { type: "message", id: "0000000a", parentId: null, timestamp: "2025-01-01T00:00:00.000Z", message };
        const b = Buffer.from(JSON.stringify(value)) as SliceableBuffer;
        const scan = scanLine(b, 0, b.length);
        if (scan.kind !== "object") throw new Error("not an object");
        const exact = recordFromFields(scan.fields, { ...location, length: b.length }, { entryTypes: new Set(), messageRoles: new Set() }, []);
        expect(exact?.spend?.input).toBe(5);
        const m = new SkimmedEntry();
        if (skimBoth(b, m)) expect(recordOfSkimmed(m, b, { ...location, length: b.length })).toEqual(exact);
        const skim = skimLine(b, 0, b.length);
        if (skim.kind !== "object") throw new Error("not an object");
        expect(recordFromFields(skim.fields, { ...location, length: b.length }, { entryTypes: new Set(), messageRoles: new Set() }, [])).toEqual(exact);
      }),
      { numRuns: 200 },
    );
  });

  it("finds a tool result's `\"usage\":` that straddles the tail window's first byte", () => {
    const usage = { input: 5, output: 7, cacheRead: 1, cacheWrite: 2, cost: { total: 0.25 } };
    const lineOf = (size: number) =>
      JSON.stringify({ type: "message", id: "0000000a", parentId: null, timestamp: "2025-01-01T00:00:00.000Z", message: { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [], usage, details: { output: "y".repeat(size) }, isError: false, timestamp: 1 } });
    const at = lineOf(0).indexOf('"usage":');
    // The key starts `shift` bytes before the window (end - TAIL_WINDOW): across its edge for shift 1…7.
    for (let shift = -2; shift <= 9; shift++) {
      const size = at + TAIL_WINDOW + shift - lineOf(0).length;
      const b = Buffer.from(lineOf(size)) as SliceableBuffer;
      expect(b.length - TAIL_WINDOW - b.indexOf('"usage":')).toBe(shift);
      const m = new SkimmedEntry();
      if (skimBoth(b, m)) expect(m.hasSpend && m.input).toBe(5);
      const skim = skimLine(b, 0, b.length);
      expect(skim.kind === "object" && skim.fields.message?.spend?.input).toBe(5);
    }
  });

  it("takes the short plain entries pi writes (model and thinking-level changes, custom entries), in both layouts", () => {
    const lines = [
      '{"type":"model_change","id":"0000000c","parentId":"0000000b","timestamp":"2025-11-20T23:33:07.814Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}',
      '{"type":"thinking_level_change","timestamp":"2025-11-20T23:33:07.814Z","thinkingLevel":"off","id":"0000000d","parentId":null}',
      '{"type":"custom","id":"0000000e","parentId":"0000000d","timestamp":"2025-11-20T23:33:07.814Z","customType":"x","data":{"n":[1,2]}}',
      '{"type":"custom_message","id":"0000000f","parentId":"0000000e","timestamp":"2025-11-20T23:33:07.814Z","customType":"x","content":"hi","display":true}',
    ];
    for (const line of lines) {
      const b = Buffer.from(line) as SliceableBuffer;
      const m = new SkimmedEntry();
      expect(skimBoth(b, m)).toBe(true);
      expect(m.type).toBe(JSON.parse(line).type);
    }
  });

  it("a whole file reads the same with and without it, and as the exact read where every line is valid JSON in pi's layout", () => {
    fc.assert(
      fc.property(fc.array(arbitraryLine, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 4 }), (lines, cuts) => {
        const header = JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" });
        const bodies = lines.map(([value, variant, seed]) => lineBytes(value, variant, seed));
        const bytes = Buffer.concat([Buffer.from(`${header}\n`), ...bodies.flatMap((b) => [b, Buffer.from("\n")])]);
        const read = (options: { skim: boolean; piLayout?: boolean }) => {
          const builder = new SessionBuilder(undefined, options);
          const reader = new JsonlReader((l) => builder.line(l));
          let from = 0;
          for (const cut of [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b)) {
            reader.push(bytes.subarray(from, cut));
            from = cut;
          }
          reader.push(bytes.subarray(from));
          const built = builder.finish(reader.end());
          return { ...(indexed(built.index) as object), builder: built.diagnostics, leaf: built.index.leafId };
        };
        const fast = read({ skim: true });
        expect(fast).toEqual(read({ skim: true, piLayout: false }));
        // skimLine's own contract: exact on every valid line (reordered members too: a message's
        // timestamp before its usage), so the fast path is as well.
        const valid = bodies.every((b) => scanLine(b, 0, b.length).kind !== "invalid");
        if (valid) expect(fast).toEqual(read({ skim: false }));
      }),
      { numRuns: Number(process.env.RUNS ?? 400) },
    );
  });

  it("two files read at once (lines interleaved, as async opens are) each read as when read alone: builders share one skim target", () => {
    const fileOf = (lines: [Record<string, unknown>, Variant, number][]): Buffer => {
      const header = JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" });
      return Buffer.concat([Buffer.from(`${header}\n`), ...lines.flatMap(([value, variant, seed]) => [lineBytes(value, variant, seed), Buffer.from("\n")])]);
    };
    const linesOf = (bytes: Buffer): Buffer[] => {
      const out: Buffer[] = [];
      for (let from = 0; from < bytes.length; ) {
        const to = bytes.indexOf(0x0a, from) + 1;
        out.push(bytes.subarray(from, to));
        from = to;
      }
      return out;
    };
    const result = (builder: SessionBuilder, reader: JsonlReader) => {
      const built = builder.finish(reader.end());
      return { ...(indexed(built.index) as object), builder: built.diagnostics, leaf: built.index.leafId };
    };
    fc.assert(
      fc.property(fc.array(arbitraryLine, { minLength: 1, maxLength: 10 }), fc.array(arbitraryLine, { minLength: 1, maxLength: 10 }), (a, b) => {
        const files = [fileOf(a), fileOf(b)];
        const alone = files.map((bytes) => {
          const builder = new SessionBuilder(undefined, { skim: true });
          const reader = new JsonlReader((l) => builder.line(l));
          reader.push(bytes);
          return result(builder, reader);
        });
        const builders = files.map(() => new SessionBuilder(undefined, { skim: true }));
        const readers = builders.map((builder) => new JsonlReader((l) => builder.line(l)));
        const lines = files.map(linesOf);
        for (let i = 0; i < Math.max(lines[0]!.length, lines[1]!.length); i++) {
          for (const k of [1, 0]) if (i < lines[k]!.length) readers[k]!.push(lines[k]![i]!);
        }
        expect(builders.map((builder, k) => result(builder, readers[k]!))).toEqual(alone);
      }),
      { numRuns: Number(process.env.RUNS ?? 200) },
    );
  });

  it("the module (wasm/skim.ts) reads pi's long message lines and every near miss of them exactly as the JS skim, or declines", () => {
    const plainText = fc.string({ maxLength: 12, unit: fc.constantFrom(..."abc xyz019_-") });
    const tailValue = fc.oneof(
      { weight: 6, arbitrary: fc.oneof(plainText, fc.nat(), fc.boolean(), fc.constant(null)) },
      { weight: 1, arbitrary: fc.oneof(fc.constantFrom("é", 'a"b', "a\\b", "\u0001"), number, fc.constant({}), fc.constant([1])) },
    );
    const tailKey = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom("stopReason", "isError", "errorMessage", "durationMs", "x") },
      { weight: 1, arbitrary: fc.constantFrom("details", "content", "role", "id", "parentId", "type", "usage", "timestamp", "é") },
    );
    const numberText = fc.oneof(
      { weight: 30, arbitrary: fc.nat().map(String) },
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 99999 }).map((n) => String(n / 100000)) },
      { weight: 3, arbitrary: number.map((n) => JSON.stringify(n)) },
      { weight: 1, arbitrary: fc.constantFrom("1e3", "1.5E-2", "-0", "0.1234567890123456", "12345678901234567890", "0.000000000000000001", "-7", "007", "1.", "-", "1e", "9007199254740993") },
    );
    const piUsage = fc.record({ numbers: fc.array(numberText, { minLength: 10, maxLength: 10 }), totalTokens: fc.boolean() }).map(({ numbers: n, totalTokens }) =>
      `{"input":${n[0]},"output":${n[1]},"cacheRead":${n[2]},"cacheWrite":${n[3]}${totalTokens ? `,"totalTokens":${n[4]}` : ""},"cost":{"input":${n[5]},"output":${n[6]},"cacheRead":${n[7]},"cacheWrite":${n[8]},"total":${n[9]}}}`,
    );
    const piLine = fc.record({
      role: fc.constantFrom("user", "assistant", "toolResult"),
      migrated: fc.boolean(),
      id: fc.oneof({ weight: 4, arbitrary: hex(8) }, { weight: 1, arbitrary: fc.constantFrom("", "x".repeat(30), "é", "a b") }),
      parentId: fc.option(hex(8)),
      stamp: fc.oneof(
        fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }).map((t) => new Date(t).toISOString()),
        isoShaped,
        // The days leap years decide: February 29 of years divisible by 4, 100 and 400, and the 31st of 30-day months.
        fc.constantFrom("1900-02-29", "2100-02-29", "2000-02-29", "2400-02-29", "2024-02-29", "2023-02-29", "2024-02-30", "2024-04-31", "2024-06-31", "2024-09-31", "2024-11-31", "2024-12-31").map((d) => `${d}T12:00:00.000Z`),
      ),
      time: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 2 ** 45 }).map(String) }, { weight: 1, arbitrary: numberText }),
      usage: fc.option(piUsage, { freq: 4 }),
      before: fc.array(fc.tuple(tailKey, tailValue), { maxLength: 1 }),
      after: fc.array(fc.tuple(tailKey, tailValue), { maxLength: 2 }),
      timeFirst: fc.boolean(),
      size: fc.integer({ min: SKIM_MIN_BYTES, max: 2 * TAIL_WINDOW }),
      edit: fc.constantFrom("none", "none", "none", "none", "none", "none", "drop id", "drop parentId", "drop timestamp", "twice id", "twice timestamp", "after message", "usage early"),
    });
    let tookHere = 0;
    let runs = 0;
    fc.assert(
      fc.property(piLine, (l) => {
        runs++;
        const member = ([k, v]: [string, unknown]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`;
        const message = [`"role":${JSON.stringify(l.role)}`];
        if (l.role === "toolResult") message.push('"toolCallId":"call_1"', '"toolName":"bash"');
        if (l.edit === "usage early" && l.usage) message.push(`"usage":${l.usage}`);
        message.push(`"content":[{"type":"text","text":${JSON.stringify("t".repeat(l.size))}}]`);
        if (l.role === "assistant") message.push('"api":"anthropic-messages"', '"provider":"anthropic"', '"model":"claude"');
        message.push(...l.before.map(member));
        const stamp = `"timestamp":${l.time}`;
        if (l.timeFirst) message.push(stamp);
        if (l.usage && l.edit !== "usage early") message.push(`"usage":${l.usage}`);
        if (!l.timeFirst) message.push(stamp);
        message.push(...l.after.map(member));
        const id = `"id":${JSON.stringify(l.id)}`;
        const parent = `"parentId":${JSON.stringify(l.parentId)}`;
        const time = `"timestamp":${JSON.stringify(l.stamp)}`;
        const head = ['"type":"message"', ...(l.migrated ? [time] : [id, parent, time])];
        const last = l.migrated ? [id, parent] : [];
        if (l.edit === "twice id") head.push(id);
        if (l.edit === "twice timestamp") head.push(time);
        if (l.edit === "after message") last.push('"x":1');
        const drop = (xs: string[]) => xs.filter((x) => !(l.edit === "drop id" && x === id) && !(l.edit === "drop parentId" && x === parent) && !(l.edit === "drop timestamp" && x === time));
        const line = `{${[...drop(head), `"message":{${message.join(",")}}`, ...drop(last)].join(",")}}`;
        const b = Buffer.from(line) as SliceableBuffer;
        const before = moduleTook;
        skimBoth(b, new SkimmedEntry());
        if (moduleTook > before) tookHere++;
      }),
      { numRuns: 2000 },
    );
    // Not vacuous: the module reads a good share of these lines itself.
    expect(tookHere).toBeGreaterThan(runs / 10);
  });
});
