// How each agent names a session, asked through the seam: pi by its last
// session_info (its picker: the name, else the first message, else "(no
// messages)"); omp by its title slot (an empty one hides the header's title),
// else the header's title, never by session_info; its picker: the title, else
// the first user message (first line), else `Untitled · HH:MM`.
import { describe, expect, it } from "vitest";
import { OMP_18, PI_0_73, PI_1_5, semanticsFor, semanticsOf } from "../../../src/core/agent";

const pi = [semanticsFor(PI_0_73), semanticsFor(PI_1_5)];
const omp = semanticsFor(OMP_18);
const header = (title?: string) => ({ type: "session", id: "s", ...(title !== undefined ? { title } : {}) });
const modified = new Date("2026-11-20T10:00:00.000Z");

describe("session names through the agent seam", () => {
  it("pi: session_info names it; the picker falls back to the first message, then \"(no messages)\"", () => {
    for (const s of pi) {
      expect(s.sessionName({ sessionInfoName: "pi name", titleSlot: { title: "slot" }, header: header("h") })).toBe("pi name");
      expect(s.listTitle({ sessionInfoName: "pi name", ompListTitle: "omp title" })).toBe("pi name");
      expect(s.displayName({ title: null, firstMessage: "first\nmessage", created: null, modified })).toBe("first\nmessage");
      expect(s.displayName({ title: null, firstMessage: null, created: null, modified })).toBe("(no messages)");
    }
  });

  it("omp: the title slot, else the header's title; an empty slot hides the header's; session_info never", () => {
    expect(omp.sessionName({ sessionInfoName: "pi name", titleSlot: { title: "Slot title" }, header: header("h") })).toBe("Slot title");
    expect(omp.sessionName({ sessionInfoName: "pi name", titleSlot: { title: "  " }, header: header("hidden") })).toBeNull();
    expect(omp.sessionName({ sessionInfoName: "pi name", titleSlot: null, header: header("Header title") })).toBe("Header title");
    expect(omp.sessionName({ sessionInfoName: "pi name", titleSlot: null, header: header() })).toBeNull();
    expect(omp.listTitle({ sessionInfoName: "pi name", ompListTitle: null })).toBeNull();
  });

  it("omp's picker: the title, else the first user message's first line, else Untitled · time", () => {
    expect(omp.displayName({ title: "T", firstMessage: "m", created: null, modified })).toBe("T");
    expect(omp.displayName({ title: null, firstMessage: "line one\nline two", created: null, modified })).toBe("line one");
    expect(omp.displayName({ title: null, firstMessage: null, created: "2026-11-20T09:00:00.000Z", modified })).toMatch(/^Untitled · /);
  });

  it("semanticsOf picks the agent by name, and pi's version for pi", () => {
    expect(semanticsOf("omp", "1.5").agent).toEqual(OMP_18);
    expect(semanticsOf("pi", "1.5").agent).toEqual(PI_1_5);
    expect(semanticsOf("pi", "0.73").agent).toEqual(PI_0_73);
  });
});
