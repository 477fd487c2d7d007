// skimTextMessage reads a user/assistant line's searchable text without
// parsing the line. Where it answers, the answer must be what JSON.parse and
// pi's extraction give (and the line must parse); where the line is not in the
// shape it handles, it must say so (null) so the caller parses the line.
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { searchableMessageText } from "../../../src/core/search/message-text";
import { skimTextMessage } from "../../../src/core/search/text-message-skim";

/** pi's reading of the line (buildSessionInfo), for a line that parses to a user/assistant message with content. */
function parsed(line: string): { id: string | null; role: string; activity: number; time: number; text: string } | null {
  let v: { type?: unknown; id?: unknown; timestamp?: unknown; message?: { role?: unknown; timestamp?: unknown } };
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (!v || typeof v !== "object" || v.type !== "message") return null;
  let t;
  try {
    t = searchableMessageText(v.message);
  } catch {
    return null;
  }
  const m = v.message!;
  const activity = typeof m.timestamp === "number" ? m.timestamp : new Date(v.timestamp as string).getTime();
  const time = typeof v.timestamp === "string" ? new Date(v.timestamp).getTime() : Number.NaN;
  return { id: typeof v.id === "string" ? v.id : null, role: m.role as string, activity, time, text: t?.text ?? "" };
}

function skim(line: string, pad = ""): ReturnType<typeof skimTextMessage> {
  // Inside a bigger buffer, as the reader hands lines over (bytes around it must not count).
  const before = Buffer.from(`{"x":"${pad}\\"` + "\n");
  const body = Buffer.from(line);
  const buf = Buffer.concat([before, body, Buffer.from('\n"tail"\\ {"')]);
  return skimTextMessage(buf, before.length, before.length + body.length);
}

function agrees(line: string): void {
  const ours = skim(line);
  if (ours === null) return;
  const theirs = parsed(line);
  expect(theirs, line).not.toBeNull();
  expect(ours, line).toEqual(theirs);
}

describe("skimTextMessage", () => {
  it("reads pi's user and assistant lines as pi does (fixture sessions)", () => {
    let handled = 0;
    for (const file of ["test/fixtures/pi-mono/large-session.jsonl", "examples/todo-cli-session.jsonl"]) {
      for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
        const ours = skim(line);
        const theirs = parsed(line);
        if (theirs && (theirs.role === "user" || theirs.role === "assistant")) {
          expect(ours, line.slice(0, 200)).toEqual(theirs);
          handled++;
        } else expect(ours).toBeNull();
      }
    }
    expect(handled).toBeGreaterThan(500);
  });

  it("handles escapes, duplicate keys, odd blocks and white space exactly", () => {
    const cases: [string, unknown][] = [
      ['{"type":"message","id":"a\\"b","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"say \\"hi\\" \\\\ \\u00e9\\n"}}', { id: 'a"b', text: 'say "hi" \\ é\n' }],
      [' { "type" : "message" , "message" : { "role" : "assistant" , "content" : [ { "type" : "text" , "text" : "a" } , 5 , "s" , [ ] , { "type" : "thinking" , "thinking" : "x\\\\" } , { "text" : "b" , "type" : "text" } ] , "timestamp" : 1.5e3 } } ', { id: null, text: "a b", activity: 1500 }],
      ['{"type":"message","message":{"role":"user","content":"first"},"message":{"role":"assistant","content":[{"type":"text","text":"last"}],"timestamp":7}}', { role: "assistant", text: "last", activity: 7 }],
      ['{"type":"message","message":{"role":"user","content":[{"type":"text","text":"x","type":"other"}],"timestamp":1}}', { text: "" }],
      ['{"type":"message","id":5,"id":"late","message":{"role":"user","content":"t","timestamp":"not a number"},"timestamp":"2026-02-01T00:00:00.000Z"}', { id: "late", activity: Date.UTC(2026, 1, 1) }],
      ['{"type":"message","message":{"role":"user","content":"no time"}}', { activity: NaN }],
    ];
    for (const [line, want] of cases) {
      const ours = skim(line);
      expect(ours, line).toMatchObject(want as object);
      agrees(line);
    }
  });

  it("leaves to the caller what it does not handle (pi may skip, throw or join odd values there)", () => {
    const nulls = [
      '{"type":"message","message":{"role":"user","content":"cut', // truncated (a crash mid-write)
      '{"type":"message","message":{"role":"user","content":"x"}} trailing',
      '{"type":"message","message":{"role":"user","content":"x"}',
      '{"type":"custom","message":{"role":"user","content":"x"}}',
      '{"type":"message","message":{"role":"toolResult","content":"x"}}',
      '{"type":"message","message":{"role":"user"}}',
      '{"type":"message","message":null}',
      '{"type":"message","message":{"role":"user","content":[null]}}',
      '{"type":"message","message":{"role":"user","content":[{"type":"text","text":5}]}}',
      '{"type":"message","message":{"role":"user","content":[{"type":"text"}]}}',
      '{"type":"message","message":{"role":"user","content":{"a":1}}}',
      '{"type":"message","message":{"role":"user","content":"x","timestamp":01}}',
      '{"type":"message","message":{"role":"user","content":"bad \\x escape"}}',
      '{"type":"message","message":{"r\\u006fle":"user","content":"x"}}',
      '{"type":"message","message":{"role":"user","content":"x"},"timestamp":5}',
      '{"type":"message","message":{"role":"user","content":"x","a":tru}}',
      '{"type":"message","message":{"role":"user","content":"x","a":[1,]}}',
    ];
    for (const line of nulls) expect(skim(line), line).toBeNull();
  });

  it("agrees with JSON.parse on random message-like lines", () => {
    const str = fc.string({ unit: fc.constantFrom("a", "é", " ", '"', "\\", "\n", "{", "}", "[", "]", ",", ":", "\u2028", "😀"), maxLength: 12 });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, str, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(fc.constantFrom("type", "text", "x", "role"), tie("value"), { maxKeys: 3 })),
    })).value;
    const block = fc.oneof(
      fc.record({ type: fc.constant("text"), text: str }),
      fc.record({ type: fc.constantFrom("thinking", "toolCall"), thinking: str, arguments: json }),
      json,
    );
    const message = fc.record(
      {
        role: fc.constantFrom("user", "assistant", "toolResult"),
        content: fc.oneof(str, fc.array(block, { maxLength: 4 }), json),
        timestamp: fc.oneof(fc.integer(), str),
        usage: json,
      },
      { requiredKeys: ["role"] },
    );
    const entry = fc.record({ type: fc.constantFrom("message", "message", "custom"), id: fc.oneof(str, fc.integer()), timestamp: fc.oneof(fc.constant("2026-01-02T03:04:05.000Z"), str), message }, { requiredKeys: ["type", "message"] });
    let handled = 0;
    fc.assert(
      fc.property(entry, fc.nat(40), fc.constantFrom("", " ", "\t"), (e, cut, space) => {
        const line = JSON.stringify(e, null, space || undefined).replace(/\n/g, space);
        agrees(line);
        if (skim(line)) handled++;
        // Cut short, the line no longer parses: nothing may come out.
        if (cut > 0 && cut < line.length) expect(skim(line.slice(0, line.length - cut))).toBeNull();
      }),
      { numRuns: 2000 },
    );
    expect(handled).toBeGreaterThan(200);
  });
});
