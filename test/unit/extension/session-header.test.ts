// The header fields the Sessions view groups by, read past omp's 256-byte
// title slot on line 1 (an omp file's header is its second line), as from a
// pi file's first line; a slot with nothing parsable after it has none.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSessionHeaderFields } from "../../../src/extension/session-header";
import { titleSlotLine } from "../../support/omp/title-slot-line";

const dir = mkdtempSync(join(tmpdir(), "session-header-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const header = (extra: Record<string, unknown> = {}) => JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-11-20T10:00:00.000Z", cwd: "/home/u/proj", ...extra });

describe("readSessionHeaderFields", () => {
  it("pi's header on line 1; omp's after its title slot, also when the header is longer than one read", () => {
    expect(readSessionHeaderFields(file("pi.jsonl", `${header()}\n{"type":"message"}\n`))).toEqual({ id: "s1", cwd: "/home/u/proj" });
    expect(readSessionHeaderFields(file("omp.jsonl", `${titleSlotLine({ title: "T" })}\n${header({ parentSession: "/p.jsonl" })}\n`))).toEqual({ id: "s1", cwd: "/home/u/proj", parentSession: "/p.jsonl" });
    const long = header({ pad: "x".repeat(10_000) });
    expect(readSessionHeaderFields(file("omp-long.jsonl", `${titleSlotLine({ title: "" })}\n${long}\n`))?.cwd).toBe("/home/u/proj");
    expect(readSessionHeaderFields(file("omp-unterminated.jsonl", `${titleSlotLine({ title: "" })}\n${header()}`))?.id).toBe("s1");
  });

  it("no header: a slot alone, a slot and a message, garbage", () => {
    expect(readSessionHeaderFields(file("slot-only.jsonl", `${titleSlotLine({ title: "T" })}\n`))).toBeUndefined();
    expect(readSessionHeaderFields(file("slot-message.jsonl", `${titleSlotLine({ title: "T" })}\n{"type":"message","id":"m"}\n`))).toBeUndefined();
    expect(readSessionHeaderFields(file("garbage.jsonl", "not json\n"))).toBeUndefined();
  });
});
