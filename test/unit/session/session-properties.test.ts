// Properties of reading whole files: chunking never matters, garbage never
// throws, and the lines accepted are exactly the ones pi's own parser accepts.

import { parseSessionEntries } from "@mariozechner/pi-coding-agent";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonlReader } from "../../../src/core/session/bytes/jsonl-reader.js";
import { sessionFromBytes, type LoadedSession } from "../../../src/core/session/open/open-session.js";
import { SessionBuilder } from "../../../src/core/session/index/session-builder.js";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const ids = ["a1", "b2", "c3", "d4", "e5"];
const header = fc.record({
  type: fc.constant("session"),
  version: fc.constant(3),
  id: fc.constantFrom("h1", "h2"),
  timestamp: fc.constant("2025-01-01T00:00:00.000Z"),
  cwd: fc.constant("/p"),
});
const entry = fc.record(
  {
    type: fc.constantFrom("message", "label", "session_info", "custom", "context_edit", "session"),
    id: fc.oneof(fc.constantFrom(...ids), fc.constant(7)),
    parentId: fc.oneof(fc.constantFrom(...ids), fc.constant(null), fc.constant("zz")),
    timestamp: fc.oneof(fc.constantFrom("2025-01-01T00:00:01.000Z", "2025-01-01T00:00:00.500Z", "bad"), fc.integer()),
    message: fc.record({ role: fc.constantFrom("user", "assistant", "weird"), content: fc.constant("x"), timestamp: fc.nat() }),
    targetId: fc.constantFrom(...ids),
    label: fc.oneof(fc.constant("L"), fc.constant(""), fc.constant(undefined)),
    name: fc.constantFrom(" n ", ""),
  },
  { requiredKeys: ["type"] },
);
const garbage = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom("{", "}", "[1,2]", "5", "null", '"str"', "\u00a0", "\ufeff", "\u2028", " \t ", "{bad json}"),
);
const padding = fc.constantFrom("", "", "", " ", "\t", "\u00a0", "\ufeff", "\u3000", "\r", "\v");
const line = fc.oneof(
  { weight: 5, arbitrary: entry.map((e) => JSON.stringify(e)) },
  { weight: 1, arbitrary: header.map((h) => JSON.stringify(h)) },
  { weight: 2, arbitrary: garbage },
  { weight: 1, arbitrary: fc.tuple(padding, entry, padding).map(([a, e, b]) => `${a}${JSON.stringify(e)}${b}`) },
);
const file = fc
  .tuple(
    fc.boolean(),
    header,
    fc.array(line, { maxLength: 12 }),
    fc.constantFrom("\n", "\r\n"),
    fc.constantFrom("", "\ufeff", "\u00a0", "\n"),
    fc.constantFrom("", "\n", "\u00a0", "\u00a0\n", "\n\n"),
  )
  .map(([withHeader, h, ls, nl, before, after]) => `${before}${[...(withHeader ? [JSON.stringify(h)] : []), ...ls].join(nl)}${after}`);

function readChunked(bytes: Uint8Array, cuts: number[]): { built: ReturnType<SessionBuilder["finish"]> } {
  const builder = new SessionBuilder();
  const reader = new JsonlReader((l) => builder.line(l));
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const p of [...points, bytes.length]) {
    reader.push(bytes.slice(from, p));
    from = p;
  }
  return { built: builder.finish(reader.end()) };
}

function summary(s: LoadedSession) {
  return { header: s.header, metas: s.index.entries, diagnostics: s.diagnostics, leaf: s.index.leafId };
}

describe("reading whole session files", () => {
  it("any chunking of the bytes gives the same session", () => {
    fc.assert(
      fc.property(file, fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        const bytes = utf8(text);
        const whole = sessionFromBytes(bytes);
        const { built } = readChunked(bytes, cuts);
        expect({ header: built.header, metas: built.index.entries, leaf: built.index.leafId }).toEqual({
          header: whole.header,
          metas: whole.index.entries,
          leaf: whole.index.leafId,
        });
        expect([...built.diagnostics, ...built.index.diagnostics]).toEqual(whole.diagnostics);
      }),
      { numRuns: 1500 },
    );
  });

  it("arbitrary bytes never throw, and every query still answers", () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), file.map(utf8)), (bytes) => {
        const s = sessionFromBytes(bytes);
        summary(s);
        s.entries();
        s.pathTo();
        for (const m of s.index.entries) {
          s.index.children(m.id);
          s.index.pathIds(m.id);
          s.rawLine(m.id);
        }
        void s.index.roots;
        void s.index.unreachable;
      }),
      { numRuns: 3000 },
    );
  });

  it("accepts exactly the lines pi's parseSessionEntries accepts (header first, then string-typed entries with string ids)", () => {
    fc.assert(
      fc.property(file, (text) => {
        const parsed = parseSessionEntries(text) as unknown[];
        const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
        const first = parsed[0];
        const expectedHeader = isObject(first) && first.type === "session" && typeof first.id === "string" ? first : null;
        // Version 1/2 headers are migrated (ids change): covered by the migration tests.
        fc.pre(expectedHeader === null || Number(expectedHeader.version ?? 1) >= 3);
        const rest = expectedHeader ? parsed.slice(1) : parsed;
        const expectedEntries = rest.filter(
          (v) => isObject(v) && v.type !== "session" && typeof v.type === "string" && typeof v.id === "string",
        );
        const s = sessionFromBytes(utf8(text));
        expect(s.header).toEqual(expectedHeader);
        expect(s.entries()).toEqual(expectedEntries);
        expect(s.headerMissing).toBe(expectedHeader === null && parsed.length > 0);
      }),
      { numRuns: 3000 },
    );
  });
});
