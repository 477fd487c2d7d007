// Files ⇄ sessions against a generator that knows what it did: random sessions
// of pi read/write/edit calls, failed edits, and bash reads, appends, in-place
// edits, moves and deletes on a simulated file system. Ground truth comes from
// the simulation (whole lines replaced by unique lines), not from the code
// under test.
import { beforeAll, describe, expect, it } from "vitest";
import { initFilesTouched } from "../../../src/core/files-touched";
import {
  applyPiEdits,
  collectFileTouches,
  EditNotApplicable,
  fileChangeSteps,
  reconstructFileVersions,
  touchesOfFile,
  unapplyPiEdits,
} from "../../../src/core/file-history";
import { createSeededRandom, type SeededRandom } from "../../support/seeded-random";
import { tool, userBash } from "../files-touched/session-builder";
import type { SessionEntry } from "../../../src/core/session/format/types";

beforeAll(() => initFilesTouched());

const CWD = "/work/repo";

interface SimFile {
  lines: string[];
  /** Content the session never saw being made (present before the session). */
  initial: string;
  /** Only pi write/edit changed it during the session: its content is known to the session. */
  contentTracked: boolean;
}

interface GeneratedSession {
  entries: SessionEntry[];
  truth: Set<string>;
  files: Map<string, SimFile>;
}

let lineCounter = 0;
const newLine = (rng: SeededRandom): string => `line ${++lineCounter} ${rng.pick(["alpha", "beta", "gamma", "delta"])}`;
const text = (lines: readonly string[]): string => lines.join("\n") + "\n";

function generate(seed: number): GeneratedSession {
  const rng = createSeededRandom(seed);
  const files = new Map<string, SimFile>();
  for (let i = 0; i < 3; i++) {
    const lines = Array.from({ length: 4 }, () => newLine(rng));
    files.set(`src/pre${i}.ts`, { lines, initial: text(lines), contentTracked: true });
  }
  const entries: SessionEntry[] = [];
  const truth = new Set<string>();
  const mark = (path: string, op: string) => truth.add(`${CWD}/${path}|${op}`);
  let fresh = 0;
  for (let step = 0; step < 25; step++) {
    const existing = [...files.keys()];
    const target = existing.length > 0 ? rng.pick(existing) : undefined;
    const kind = rng.int(0, 9);
    if (kind <= 1 || !target) {
      const path = rng.chance(0.5) || !target ? `src/new${fresh++}.ts` : target;
      const lines = Array.from({ length: rng.int(1, 5) }, () => newLine(rng));
      entries.push(...tool("write", { path, content: text(lines) }));
      const previous = files.get(path);
      files.set(path, { lines, initial: previous?.initial ?? "", contentTracked: previous?.contentTracked ?? true });
      mark(path, "W");
    } else if (kind <= 4) {
      const file = files.get(target)!;
      const count = Math.min(file.lines.length, rng.int(1, 2));
      const picked = [...new Set(Array.from({ length: count }, () => rng.int(0, file.lines.length - 1)))];
      const edits = picked.map((i) => ({ oldText: file.lines[i]!, newText: `${newLine(rng)}\n${newLine(rng)}` }));
      const legacy = edits.length === 1 && rng.chance(0.3);
      entries.push(...tool("edit", legacy ? { path: target, ...edits[0]! } : { path: target, edits }));
      file.lines = file.lines.flatMap((line) => {
        const edit = edits.find((e) => e.oldText === line);
        return edit ? edit.newText.split("\n") : [line];
      });
      mark(target, "E");
    } else if (kind === 5) {
      entries.push(...tool("edit", { path: target, edits: [{ oldText: "not there", newText: "x" }] }, true));
    } else if (kind === 6) {
      entries.push(...tool("read", { path: target }));
      mark(target, "R");
    } else if (kind === 7) {
      const file = files.get(target)!;
      const line = newLine(rng);
      entries.push(...tool("bash", { command: `echo '${line}' >> ${target}` }));
      file.lines.push(line);
      file.contentTracked = false;
      mark(target, "E");
    } else if (kind === 8) {
      const to = `lib/moved${fresh++}.ts`;
      entries.push(userBash(`mv ${target} ${to}`));
      files.set(to, { ...files.get(target)!, contentTracked: false });
      files.delete(target);
      mark(target, "D");
      mark(to, "M");
    } else {
      entries.push(...tool("bash", { command: `cat ${target} | wc -l && rm ${target}` }));
      files.delete(target);
      mark(target, "R");
      mark(target, "D");
    }
  }
  return { entries, truth, files };
}

describe("files ⇄ sessions on generated sessions with known edits", () => {
  const sessions = Array.from({ length: 150 }, (_, i) => generate(1000 + i));

  it("finds every (file, session, op) and nothing else: precision and recall 1.0", () => {
    let expected = 0;
    let found = 0;
    let correct = 0;
    for (const session of sessions) {
      const got = new Set(collectFileTouches(session.entries, { cwd: CWD }).map((t) => `${t.path}|${t.op}`));
      expected += session.truth.size;
      found += got.size;
      for (const item of got) if (session.truth.has(item)) correct++;
    }
    expect(expected).toBeGreaterThan(500);
    expect(correct / found).toBe(1);
    expect(correct / expected).toBe(1);
  });

  it("replays pi write/edit sequences to the generator's final file, and back to its first content", () => {
    let checkedAfter = 0;
    let checkedBefore = 0;
    for (const session of sessions) {
      for (const [path, file] of session.files) {
        if (!file.contentTracked) continue;
        const steps = fileChangeSteps(session.entries, `${CWD}/${path}`, { cwd: CWD });
        if (steps.length === 0) continue;
        const final = text(file.lines);
        const forward = reconstructFileVersions(steps);
        if (steps.some((s) => s.kind === "write")) {
          expect(forward.after).toBe(final);
          checkedAfter++;
        }
        const withDisk = reconstructFileVersions(steps, final);
        expect(withDisk.after).toBe(final);
        // Back from the disk through edits alone (a write hides what came before it).
        if (steps[0]!.kind === "edit" && steps.every((s) => s.kind === "edit" || (s.kind === "other" && s.ops === "R"))) {
          expect(withDisk.before).toBe(file.initial);
          checkedBefore++;
        }
      }
    }
    expect(checkedAfter).toBeGreaterThan(30);
    expect(checkedBefore).toBeGreaterThan(10);
  });

  it("one row per call for a file, newest first, with its letters and command", () => {
    const entries = [
      ...tool("read", { path: "a.ts" }),
      ...tool("edit", { path: "a.ts", edits: [{ oldText: "x", newText: "y" }] }),
      userBash("cat a.ts > b.ts && mv b.ts c.ts"),
    ];
    const touches = collectFileTouches(entries, { cwd: CWD });
    expect(touchesOfFile(touches, `${CWD}/a.ts`).map((r) => [r.tool, r.ops])).toEqual([
      ["bashExecution", "R"],
      ["edit", "E"],
      ["read", "R"],
    ]);
    const c = touchesOfFile(touches, `${CWD}/c.ts`);
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ ops: "M", command: "cat a.ts > b.ts && mv b.ts c.ts", displayPath: "c.ts" });
  });
});

describe("pi's edit semantics", () => {
  it("matches every edit against the original, keeps CRLF and a BOM", () => {
    expect(applyPiEdits("\uFEFFa\r\nb\r\nc\r\n", [{ oldText: "a\nb", newText: "A" }, { oldText: "c", newText: "C" }])).toBe("\uFEFFA\r\nC\r\n");
  });

  it("fails where pi's tool fails: missing, duplicate, overlapping, no change", () => {
    expect(() => applyPiEdits("a a", [{ oldText: "a", newText: "b" }])).toThrow(EditNotApplicable);
    expect(() => applyPiEdits("abc", [{ oldText: "x", newText: "b" }])).toThrow(EditNotApplicable);
    expect(() => applyPiEdits("abcd", [{ oldText: "abc", newText: "1" }, { oldText: "cd", newText: "2" }])).toThrow(EditNotApplicable);
    expect(() => applyPiEdits("abc", [{ oldText: "b", newText: "b" }])).toThrow(EditNotApplicable);
  });

  it("falls back to pi's fuzzy match (trailing spaces, smart quotes)", () => {
    expect(applyPiEdits("say \u201chi\u201d  \nend\n", [{ oldText: 'say "hi"', newText: "bye" }])).toBe("bye\nend\n");
  });

  it("undoes an exact edit, refuses an ambiguous one", () => {
    expect(unapplyPiEdits("x NEW y\n", [{ oldText: "old", newText: "NEW" }])).toBe("x old y\n");
    expect(() => unapplyPiEdits("NEW NEW", [{ oldText: "old", newText: "NEW" }])).toThrow(EditNotApplicable);
  });
});
