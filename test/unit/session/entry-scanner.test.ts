import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanLine } from "../../../src/core/session/scan/entry-scanner.js";
import { scanText, type LineScan } from "../../../src/core/session/scan/line-fields.js";

// The reference is JSON.parse on the UTF-8 decoding of the same bytes (what pi does per line).
function reference(bytes: Uint8Array): LineScan {
  return scanText(Buffer.from(bytes).toString("utf8"));
}

function fast(bytes: Uint8Array): LineScan {
  // Embed the line in a larger buffer so that reads past `end` would be caught.
  const padded = new Uint8Array(bytes.length + 8);
  padded.set([0x22, 0x7d, 0x5d, 0x20], 0);
  padded.set(bytes, 4);
  padded.set([0x22, 0x7d, 0x5d, 0x30], bytes.length + 4);
  return scanLine(padded, 4, 4 + bytes.length);
}

/** Compares accept/reject and, when accepted, the extracted fields (invalid positions/reasons may differ). */
function expectSameScan(bytes: Uint8Array): void {
  const ref = reference(bytes);
  const got = fast(bytes);
  if (ref.kind === "invalid") {
    expect(got.kind, `accepted what JSON.parse rejects: ${JSON.stringify(Buffer.from(bytes).toString("utf8"))}`).toBe(
      "invalid",
    );
  } else {
    expect(got, `on ${JSON.stringify(Buffer.from(bytes).toString("utf8"))}`).toEqual(ref);
  }
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** JSON text of a value with random JSON whitespace between tokens. */
function spacedJson(value: unknown, spaces: string[]): string {
  let i = 0;
  const ws = (): string => spaces[i++ % spaces.length] ?? "";
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${ws()}${v.map((x) => `${ws()}${write(x)}${ws()}`).join(",")}]`;
    if (v !== null && typeof v === "object") {
      const members = Object.entries(v).map(([k, x]) => `${ws()}${JSON.stringify(k)}${ws()}:${ws()}${write(x)}${ws()}`);
      return `{${ws()}${members.join(",")}}`;
    }
    return JSON.stringify(v) ?? "null";
  };
  return `${ws()}${write(value)}${ws()}`;
}

const whitespace = fc.array(fc.constantFrom("", "", " ", "\t", "\r", "  \t"), { minLength: 1, maxLength: 8 });

const anyValue = fc.jsonValue({ maxDepth: 4 });
const fieldValue = fc.oneof(
  fc.string(),
  fc.constantFrom("message", "session", "user", "assistant", "2025-01-01T00:00:00.000Z", "", "a\"b", "é\u2028"),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  anyValue,
);
const keyName = fc.constantFrom(
  "type",
  "id",
  "parentId",
  "timestamp",
  "targetId",
  "label",
  "name",
  "version",
  "cwd",
  "message",
  "content",
  "role",
  "other",
  "__proto__",
  "ids",
  "i",
);
const messageValue = fc.oneof(
  fc.dictionary(fc.oneof(keyName, fc.constantFrom("role", "timestamp", "content")), fieldValue, { maxKeys: 6 }),
  anyValue,
);
/** Entry-like objects written as text so keys can repeat, be escaped, or come in any order. */
const entryLine = fc
  .tuple(
    fc.array(
      fc.tuple(keyName, fc.oneof(fieldValue, messageValue), fc.boolean()),
      { maxLength: 10 },
    ),
    whitespace,
  )
  .map(([members, spaces]) => {
    const parts = members.map(([k, v, escapeKey]) => {
      const keyText = escapeKey && k.length > 0 ? `"\\u${k.charCodeAt(0).toString(16).padStart(4, "0")}${k.slice(1)}"` : JSON.stringify(k);
      return `${keyText}:${spacedJson(v, spaces)}`;
    });
    return `{${parts.join(",")}}`;
  });

/** Bytes that matter to a JSON scanner, for mutations. */
const interestingByte = fc.oneof(
  fc.constantFrom(
    ...utf8('{}[]":,\\/ \t\r\n0123456789-+.eEtrufalsnuxbA'),
    0x00,
    0x01,
    0x1f,
    0x7f,
    0x80,
    0xbf,
    0xc0,
    0xc2,
    0xe2,
    0xed,
    0xef,
    0xf0,
    0xf4,
    0xf5,
    0xff,
  ),
  fc.integer({ min: 0, max: 255 }),
);

type Mutation = { kind: "insert" | "replace" | "delete" | "truncate"; at: number; byte: number };
const mutation = fc.record({
  kind: fc.constantFrom<Mutation["kind"]>("insert", "replace", "delete", "truncate"),
  at: fc.nat(),
  byte: interestingByte,
});

function mutate(bytes: Uint8Array, mutations: Mutation[]): Uint8Array {
  let out = Array.from(bytes);
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1);
    if (m.kind === "insert") out.splice(at, 0, m.byte);
    else if (m.kind === "replace" && at < out.length) out[at] = m.byte;
    else if (m.kind === "delete" && at < out.length) out.splice(at, 1);
    else if (m.kind === "truncate") out = out.slice(0, at);
  }
  return Uint8Array.from(out);
}

describe("entry scanner accepts exactly what JSON.parse accepts, and extracts the same fields", () => {
  it("on arbitrary JSON values with arbitrary JSON whitespace", () => {
    fc.assert(
      fc.property(anyValue, whitespace, (v, spaces) => expectSameScan(utf8(spacedJson(v, spaces)))),
      { numRuns: 3000 },
    );
  });

  it("on entry-like objects (repeated, escaped and reordered keys; any field types)", () => {
    fc.assert(fc.property(entryLine, (line) => expectSameScan(utf8(line))), { numRuns: 5000 });
  });

  it("on mutated entry-like lines (inserted, replaced, deleted bytes; truncation)", () => {
    fc.assert(
      fc.property(entryLine, fc.array(mutation, { minLength: 1, maxLength: 4 }), (line, ms) =>
        expectSameScan(mutate(utf8(line), ms)),
      ),
      { numRuns: 10000 },
    );
  });

  it("on string literals with valid and invalid escapes and control characters", () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.integer({ min: 0x20, max: 0x7e }).map((c) => `\\${String.fromCharCode(c)}`),
      fc.stringMatching(/^\\u[0-9a-fA-FgG"xX ]{0,4}$/),
      fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), fc.boolean(), (pieces, asKey) => {
        const literal = `"${pieces.join("")}"`;
        expectSameScan(utf8(asKey ? `{${literal}:1,"id":${literal}}` : literal));
      }),
      { numRuns: 5000 },
    );
  });

  it("on message lines with a usage of any shape, whole and mutated (its spend read in the validating pass)", () => {
    const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)), fc.constantFrom("1e400", "-0", "0.5e-3", "-1E+2"));
    const scalar = fc.oneof(number.map(String), fc.constantFrom('"7"', "null", "true", "[]", '[1,{"total":3}]', '"a\\"b"'));
    const usageKey = fc.constantFrom("input", "output", "cacheRead", "cacheWrite", "cost", "total", "totalTokens", "\\u0069nput", "cos\\u0074", "x");
    const object = (value: fc.Arbitrary<string>): fc.Arbitrary<string> =>
      fc.array(fc.tuple(usageKey, whitespace, value).map(([k, ws, v]) => `${ws[0]}"${k}"${ws[1] ?? ""}:${v}`), { maxLength: 7 }).map((ms) => `{${ms.join(",")}}`);
    const usage = fc.oneof(object(fc.oneof(scalar, object(scalar))), scalar);
    const line = fc
      .tuple(usage, fc.constantFrom("user", "assistant", "toolResult"), fc.boolean())
      .map(([u, role, first]) =>
        first
          ? `{"type":"message","id":"a","message":{"usage":${u},"role":"${role}","content":[]}}`
          : `{"type":"message","id":"a","message":{"role":"${role}","content":"x","usage":${u},"timestamp":1}}`,
      );
    fc.assert(fc.property(line, (l) => expectSameScan(utf8(l))), { numRuns: 3000 });
    fc.assert(fc.property(line, fc.array(mutation, { minLength: 1, maxLength: 3 }), (l, ms) => expectSameScan(mutate(utf8(l), ms))), { numRuns: 3000 });
  });

  it("on arbitrary bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => expectSameScan(bytes)), { numRuns: 5000 });
    fc.assert(
      fc.property(fc.array(interestingByte, { maxLength: 40 }), (bytes) => expectSameScan(Uint8Array.from(bytes))),
      { numRuns: 10000 },
    );
  });

  it("on hand-picked edge cases", () => {
    const cases = [
      "",
      " \t\r ",
      "{}",
      "[]",
      "0",
      "-0",
      "01",
      "1.",
      ".5",
      "-",
      "1e",
      "1e+",
      "1E-7",
      "1e400",
      "-1.5e-3",
      "tru",
      "true ",
      "nulll",
      "falsey",
      '"\\u12"',
      '"\\uD800"',
      '"\\x41"',
      '"\\/"',
      '"tab\there"',
      '{"a":1,}',
      "[1,]",
      "[,1]",
      '{"a" 1}',
      '{"a":1 "b":2}',
      '{"id":"x"} {"id":"y"}',
      '{"id":"x"}garbage',
      '{"type":"message","id":"a1","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi","timestamp":5}}',
      '{"type":"message","message":[{"role":"user"}]}',
      '{"type":"message","message":null}',
      '{"type":"message","message":{"role":{"nested":true},"timestamp":"x"}}',
      '{"id":"a","id":"b","message":{"role":"user"},"message":5}',
      '{"\\u0069d":"escaped-key","t\\u0079pe":"x"}',
      '{"timestamp":[2025,1],"version":"3","label":{"x":1}}',
      "\u00a0{}",
      "\ufeff{}",
      '{"id":"\u0000"}',
      '{"id":"\u001f"}',
      "[[[[[[[[[[]]]]]]]]]]",
      "[[[[[[[[[[]]]]]]]]]",
      "{".repeat(5000) + "}".repeat(5000),
      `${"[".repeat(100000)}${"]".repeat(100000)}`,
    ];
    for (const c of cases) expectSameScan(utf8(c));
    // Invalid UTF-8 inside and outside strings.
    expectSameScan(Uint8Array.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xe2, 0x82, 0x22, 0x7d]));
    expectSameScan(Uint8Array.from([0x7b, 0xff, 0x7d]));
    expectSameScan(Uint8Array.from([0x22, 0xc0, 0x80, 0x22]));
  });

  it("captures the fields of a real pi line without the body", () => {
    const line =
      '{"type":"message","id":"a1b2c3d4","parentId":"00000000","timestamp":"2025-11-20T23:33:01.550Z","message":{"role":"assistant","content":[{"type":"text","text":"x"}],"timestamp":1763681581544}}';
    expect(fast(utf8(line))).toEqual({
      kind: "object",
      fields: {
        type: "message",
        id: "a1b2c3d4",
        parentId: "00000000",
        timestamp: "2025-11-20T23:33:01.550Z",
        message: { isObject: true, role: "assistant", timestamp: 1763681581544, hasContent: true },
      },
    });
  });
});
