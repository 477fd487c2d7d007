// What the exact read of a session held in memory vouches for about a line
// (line-checks.ts: valid UTF-8, every escape canonical), so that `prepare`'s
// history (escaped-message.ts) does not check it again. The fast path is held
// to the route that checks every line itself: the scanner's verdict equals
// escapesAreCanonical on every line it accepts, a session vouches for exactly
// what is true of each line, and directMessage given the session's checks
// answers as directMessage checking the line itself.

import { isUtf8 } from "node:buffer";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { directMessage } from "../../../src/core/compaction/escaped-message.js";
import { escapesAreCanonical } from "../../../src/core/compaction/json-bytes.js";
import { lastLineEscapesCanonical, scanLine } from "../../../src/core/session/scan/entry-scanner.js";
import { LINE_ESCAPES_CANONICAL, LINE_IS_UTF8 } from "../../../src/core/session/scan/line-checks.js";
import { emptyMessageShape, type MessageShape } from "../../../src/core/session/scan/message-shapes.js";
import { openSessionInMemory } from "../../../src/core/session/open/open-session-in-memory.js";
import { hostileWriter } from "../../support/hostile-json.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { trickyMessageEntry } from "../../support/tricky-messages.js";

const dir = mkdtempSync(join(tmpdir(), "pi-sessions-line-checks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The scanner's verdict on `line`, read inside a larger buffer whose bytes around it would mislead a read past its end. */
function scannedVerdict(line: Buffer, after: string): boolean | "rejected" {
  const before = Buffer.from('"\\u');
  const padded = Buffer.concat([before, line, Buffer.from(after)]);
  const scan = scanLine(padded, before.length, before.length + line.length);
  return scan.kind === "invalid" || scan.kind === "blank" ? "rejected" : lastLineEscapesCanonical();
}

/**
 * The oracle, independent of canonical-escape.ts: each escape (an escaped
 * surrogate pair as one) is canonical when JSON.stringify of what JSON.parse
 * reads from it writes it again. Strings are found in the line's bytes read
 * as Latin-1 (one character per byte; escapes are ASCII).
 */
function escapesCanonicalByStringify(line: Buffer): boolean {
  const text = line.toString("latin1");
  for (const token of text.match(/"(?:[^"\\]|\\.)*"/g) ?? []) {
    for (let i = 1; i < token.length - 1; i++) {
      if (token[i] !== "\\") continue;
      let unit = token.slice(i, token[i + 1] === "u" ? i + 6 : i + 2);
      const pair = token.slice(i, i + 12);
      if (/^\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}$/i.test(pair)) unit = pair;
      if (JSON.stringify(JSON.parse(`"${unit}"`)) !== `"${unit}"`) return false;
      i += unit.length - 1;
    }
  }
  return true;
}

/** Escapes of every kind, canonical or not, inside a JSON string (the rest of the line canonical). */
const escapePiece = fc.constantFrom(
  "\\n", "\\t", "\\r", "\\b", "\\f", '\\"', "\\\\", "\\/", "\\u0001", "\\u001f", "\\u000a", "\\u000A", "\\u0009", "\\u0041",
  "\\u00e9", "\\u00E9", "\\ud800", "\\uD800", "\\udc00", "\\uDC00", "\\ud83d\\ude00", "\\ud83d\\uDE00", "\\uD83D\\ude00", "\\ud83d\\ud83d",
  "\\ud83d", "\\udbff\\udfff", "\\udbff\\ue000", "\\u2028", "a", "é", "😀", " ", "x/y",
);
const stringBody = fc.array(escapePiece, { maxLength: 8 }).map((parts) => parts.join(""));

describe("line checks: the exact scan vouches for canonical escapes", () => {
  it("equals JSON.stringify's verdict and escapesAreCanonical on every line it accepts (fast-check: escapes, surrogates, control bytes)", () => {
    fc.assert(
      fc.property(stringBody, stringBody, fc.constantFrom("", '\\ude00"}', "\\u0041"), (key, value, after) => {
        const line = Buffer.from(`{"type":"message","${key}":"${value}","message":{"role":"user","content":"${value}${key}"}}`);
        const verdict = scannedVerdict(line, after);
        if (verdict === "rejected") return;
        expect(verdict, line.toString()).toBe(escapesCanonicalByStringify(line));
        expect(verdict, line.toString()).toBe(escapesAreCanonical(line, 0, line.length));
      }),
      { numRuns: 3000 },
    );
  });

  it("equals JSON.stringify's verdict and escapesAreCanonical on 10,000 hostile message lines (escapes, numbers, white space, bytes not UTF-8)", () => {
    const rng = createSeededRandom(23);
    let canonical = 0;
    let not = 0;
    for (let i = 0; i < 10000; i++) {
      const writer = hostileWriter(rng, rng.pick([0, 0.01, 0.03, 0.1]));
      const line = writer.line(trickyMessageEntry(rng));
      const verdict = scannedVerdict(line, rng.pick(["", '\\udc00"', "\\u0041"]));
      if (verdict === "rejected") continue;
      const expected = escapesCanonicalByStringify(line);
      expect(verdict, line.toString("hex")).toBe(expected);
      expect(escapesAreCanonical(line, 0, line.length), line.toString("hex")).toBe(expected);
      if (expected) canonical++;
      else not++;
    }
    expect(canonical).toBeGreaterThan(1000);
    expect(not).toBeGreaterThan(1000);
  });
});

/** A session file of `lines` (message entries as given), read in memory; each entry's line with its checks and message shape. */
function heldLines(name: string, lines: Buffer[]): { line: Buffer; checks: number; shape: MessageShape | undefined }[] {
  const header = Buffer.from(`${JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/tmp" })}\n`);
  const file = join(dir, name);
  writeFileSync(file, Buffer.concat([header, ...lines.flatMap((l) => [l, Buffer.from("\n")])]));
  const session = openSessionInMemory(file);
  const out: { line: Buffer; checks: number; shape: MessageShape | undefined }[] = [];
  for (let i = 0; i < session.index.size; i++) {
    const shape = emptyMessageShape();
    out.push({ line: session.checkedLineAt(i)!, checks: session.checkedLineChecksAt(i), shape: session.checkedMessageShapeAt(i, shape) ? shape : undefined });
  }
  return out;
}

function hostileEntries(seed: number, count: number, notUtf8: boolean): Buffer[] {
  const rng = createSeededRandom(seed);
  const lines: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const writer = notUtf8 ? hostileWriter(rng, rng.pick([0, 0.03, 0.1])) : hostileWriter(rng, rng.pick([0, 0.01, 0.03, 0.1]), 0);
    lines.push(writer.line({ ...trickyMessageEntry(rng), id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}` }));
  }
  return lines;
}

describe("line checks: a session held in memory", () => {
  it("vouches for a line's escapes exactly when they are canonical, and for UTF-8 when the whole file is", () => {
    const held = heldLines("valid-utf8.jsonl", hostileEntries(31, 4000, false));
    expect(held.length).toBeGreaterThan(3000);
    let vouched = 0;
    for (const { line, checks } of held) {
      expect((checks & LINE_ESCAPES_CANONICAL) !== 0, line.toString()).toBe(escapesCanonicalByStringify(line));
      expect((checks & LINE_IS_UTF8) !== 0).toBe(true);
      expect(isUtf8(line)).toBe(true);
      if (checks & LINE_ESCAPES_CANONICAL) vouched++;
    }
    expect(vouched).toBeGreaterThan(1000);
    expect(vouched).toBeLessThan(held.length);
  });

  it("vouches for no line's UTF-8 when the file holds bytes that are not UTF-8", () => {
    const held = heldLines("not-utf8.jsonl", hostileEntries(37, 2000, true));
    expect(held.some(({ line }) => !isUtf8(line))).toBe(true);
    for (const { checks } of held) expect(checks & LINE_IS_UTF8).toBe(0);
  });

  it("does not vouch for a last line that only pi's whole-text trim makes valid", () => {
    const last = Buffer.from(`{"type":"message","id":"z","parentId":null,"message":{"role":"user","content":"hi"}}\u2028`);
    const held = heldLines("trimmed.jsonl", [Buffer.from(`{"type":"message","id":"y","parentId":null,"message":{"role":"user","content":"a"}}`), last]);
    expect(held).toHaveLength(2);
    expect(held[0]!.checks & LINE_ESCAPES_CANONICAL).not.toBe(0);
    expect(held[1]!.checks & LINE_ESCAPES_CANONICAL).toBe(0);
  });

  it("directMessage given the session's checks and message shapes answers as directMessage walking and checking each line itself (6,000 hostile lines)", () => {
    for (const [name, notUtf8] of [["direct-utf8.jsonl", false], ["direct-not-utf8.jsonl", true]] as const) {
      const held = heldLines(name, hostileEntries(notUtf8 ? 41 : 43, 3000, notUtf8));
      let taken = 0;
      let shaped = 0;
      for (const { line, checks, shape } of held) {
        const checked = directMessage(line);
        expect(directMessage(line, checks), line.toString("hex")).toStrictEqual(checked);
        expect(directMessage(line, checks, shape), line.toString("hex")).toStrictEqual(checked);
        if (checked) taken++;
        if (checked && shape && checks === (LINE_IS_UTF8 | LINE_ESCAPES_CANONICAL)) shaped++;
      }
      expect(taken).toBeGreaterThan(500);
      if (!notUtf8) expect(shaped).toBeGreaterThan(500);
    }
  });

  it("keeps a message's shape only for one message object with one role before one content, where they are", () => {
    const entry = (message: string, more = ""): Buffer => Buffer.from(`{"type":"message","id":"e","parentId":null${more},"message":${message}}`);
    const cases: [Buffer, boolean][] = [
      [entry('{"role":"user","content":"hi","timestamp":1}'), true],
      [entry('{ "role" : "assistant" , "content" : [ {"type":"text","text":"a"} ] }'), true],
      [entry('{"timestamp":1,"role":"toolResult","toolName":"read","content":[{"type":"text","text":"x"}],"details":{"role":"user","content":"no"}}'), true],
      [entry('{"content":"first","role":"user"}'), false],
      [entry('{"role":"user","content":"a","content":"b"}'), false],
      [entry('{"role":"user","role":"assistant","content":"a"}'), false],
      [entry('{"role":"user","content":"a"}', ',"message":{"role":"user","content":"b"}'), false],
      [entry('[{"role":"user","content":"a"}]'), false],
      [entry('{"role":"user","content":"a"},"message":5'), false],
      [entry('5,"message":{"role":"user","content":"a"}'), false],
      [entry('{"role":"user"}'), false],
      [entry('{"content":"a"}'), false],
    ];
    const held = heldLines("shapes.jsonl", cases.map(([line]) => line));
    expect(held).toHaveLength(cases.length);
    held.forEach(({ line, checks, shape }, i) => {
      expect(shape !== undefined, line.toString()).toBe(cases[i]![1]);
      if (shape) {
        const message = JSON.parse(line.toString()).message;
        expect(JSON.parse(line.subarray(shape.roleStart, shape.roleEnd).toString())).toStrictEqual(message.role);
        expect(JSON.parse(line.subarray(shape.contentStart, shape.contentEnd).toString())).toStrictEqual(message.content);
      }
      expect(directMessage(line, checks, shape)).toStrictEqual(directMessage(line));
    });
  });
});
