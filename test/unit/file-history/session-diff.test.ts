// "All changes of this session" shows the session's own changes whatever the
// file on disk holds today: the replayed whole file, today's file as the start
// when the session's edits apply to it, else each change with a notice saying
// what the session never saw. Never "empty → today's file".
import { describe, expect, it } from "vitest";
import { reconstructFileVersions, sessionDiff, type FileChangeStep } from "../../../src/core/file-history/index.js";

const edit = (entryId: string, oldText: string, newText: string): FileChangeStep => ({ kind: "edit", entryId, ops: "E", timestamp: "2026-01-20T10:01:00.000Z", edits: [{ oldText, newText }] });
const write = (entryId: string, content: string): FileChangeStep => ({ kind: "write", entryId, ops: "W", content });
const bash = (entryId: string): FileChangeStep => ({ kind: "other", entryId, ops: "E", tool: "bash", command: "sed -i s/a/b/ f.ts" });

const START = "const a = 1;\nconst b = 2;\nconst c = 3;\n";
const EDITS = [edit("e1", "const b = 2;", "const b = 20;"), edit("e2", "const c = 3;", "const c = 30;")];
const RESULT = "const a = 1;\nconst b = 20;\nconst c = 30;\n";

function diffFor(steps: FileChangeStep[], disk: string | undefined) {
  return sessionDiff(reconstructFileVersions(steps, disk), disk);
}

describe("sessionDiff", () => {
  it("the file as the session left it on disk: the whole file before and after, from the session", () => {
    expect(diffFor(EDITS, RESULT)).toMatchObject({ before: START, after: RESULT, source: "session" });
  });

  it("a file the session created: empty before, its content after, whatever the disk holds now", () => {
    expect(diffFor([write("w1", START), ...EDITS], "something else\n")).toMatchObject({ before: "", after: RESULT, source: "session" });
  });

  it("the file reverted to what it was before (a branch switch, a checkout): today's file, then the session's edits applied to it", () => {
    const d = diffFor(EDITS, START);
    expect(d).toMatchObject({ before: START, after: RESULT, source: "disk-before" });
  });

  it("today's file neither the start nor the result: each change on its own, and the view says the content around them was never seen", () => {
    for (const disk of ["unrelated\n", undefined]) {
      const d = diffFor(EDITS, disk);
      expect(d.source).toBe("changes");
      expect(d.notice).toMatch(/never seen/);
      expect(d.before.split("\n")[0]).toBe(d.after.split("\n")[0]);
      expect(d.before).toContain("const b = 2;");
      expect(d.before).toContain("const c = 3;");
      expect(d.after).toContain("const b = 20;");
      expect(d.after).toContain("const c = 30;");
      expect(d.after).not.toContain("unrelated");
      expect(d.before).not.toBe("");
    }
  });

  it("a bash change in between: listed without content, the edits still shown", () => {
    const d = diffFor([EDITS[0]!, bash("b1"), EDITS[1]!], "unrelated\n");
    expect(d.source).toBe("changes");
    expect(d.after).toMatch(/bash: sed -i/);
    expect(d.notice).toMatch(/1 change by other tools/);
    expect(d.after).toContain("const c = 30;");
  });

  it("a write after a read (content before unknown): the file as the session left it, with the notice", () => {
    const read: FileChangeStep = { kind: "other", entryId: "r1", ops: "R", tool: "read" };
    const d = diffFor([read, write("w1", RESULT)], "unrelated\n");
    expect(d.after.endsWith(RESULT)).toBe(true);
    expect(d.notice).toMatch(/not in the session/);
  });

  it("created by a write, then changed by bash: never the write against today's file", () => {
    const d = diffFor([write("w1", START), bash("b1")], "unrelated\n");
    expect(d.source).toBe("changes");
    expect(d.after).toContain(START);
    expect(d.after).not.toContain("unrelated");
  });
});
