// A streamed catalogue row (no index built, lines read in chunks of any size)
// equals the row of the full index (`rowFromSession` on the skimmed full read
// the catalogue did before), for pi 0.73's and pi 1.5's token rules, on random
// sessions with compactions, branches, labels, context edits, system messages,
// bad lines, long (skimmed) lines, damaged lines and a cut-short last line.

import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowFromSession, rowVersionPolicy, type ComputedRow, type RowVersion } from "../../../src/core/catalogue/catalogue-row.js";
import { streamRow, type StreamedRow } from "../../../src/core/catalogue/streamed-row.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { FileModel, HEADER, stepWithEdits, type Step } from "../../support/session-lines.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-streamed-row-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Outcome = { kind: "row"; key: StreamedRow["key"]; computed: unknown } | { kind: "throws" } | { kind: "full read" };

function comparable(computed: ComputedRow | null): unknown {
  if (!computed) return null;
  const resume = computed.resume && { ...computed.resume, ids: computed.resume.ids.toJSON() };
  return { row: computed.row, resume };
}

/** What the catalogue's full read computes (the reference). */
function fullRead(path: string, versionOf: RowVersion): Outcome {
  try {
    const session = openSessionSync(path, { skim: true });
    const fp = session.fingerprint;
    const key = { size: fp.size, mtimeMs: fp.mtimeMs, tailHash: fp.tailHash, tailLength: fp.tailLength, ino: statSync(path).ino };
    return { kind: "row", key, computed: comparable(rowFromSession(session, fp.size, fp.mtimeMs, versionOf)) };
  } catch {
    return { kind: "throws" };
  }
}

function streamed(path: string, versionOf: RowVersion, chunkBytes: number): Outcome {
  try {
    const s = streamRow(path, versionOf, { chunkBytes });
    return s ? { kind: "row", key: s.key, computed: comparable(s.computed) } : { kind: "full read" };
  } catch {
    return { kind: "throws" };
  }
}

/** A long line (skimmed by the catalogue's read), maybe damaged in its middle where only a full parse sees it. */
const longText = fc.record({ long: fc.boolean(), damaged: fc.integer({ min: 0, max: 3 }) });
const session = fc.record({
  steps: fc.array(fc.tuple(stepWithEdits, longText), { minLength: 0, maxLength: 30 }),
  header: fc.constantFrom("v3", "v3", "v3", "v3", "v2", "none", "padded", "blank-first"),
  tail: fc.constantFrom("complete", "complete", "cut", "unterminated", "padded-last"),
  /** A parent that comes later in the file (pi looks parents up in the whole file; may close a cycle). */
  laterParent: fc.option(fc.tuple(fc.nat(), fc.nat()), { freq: 3 }),
  /** Sessions with a reused id are left to the full read: a few, not most. */
  reusedIds: fc.integer({ min: 0, max: 9 }),
  chunkBytes: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 4096 }), fc.constant(1024 * 1024)),
});

interface Drawn {
  steps: [Step, { long: boolean; damaged: number }][];
  header: string;
  tail: string;
  reusedIds: number;
  laterParent: [number, number] | null;
}

/** Points the a-th entry line's parent at a later entry's id. */
function withLaterParent(lines: string[], [a, b]: [number, number]): void {
  const entries = lines.flatMap((line, i) => {
    try {
      const value = JSON.parse(line) as { type?: unknown; id?: unknown };
      return value.type !== "session" && typeof value.id === "string" ? [{ i, value }] : [];
    } catch {
      return [];
    }
  });
  if (entries.length < 2) return;
  const from = a % (entries.length - 1);
  const to = from + 1 + (b % (entries.length - 1 - from));
  lines[entries[from]!.i] = JSON.stringify({ ...entries[from]!.value, parentId: entries[to]!.value.id });
}

function fileText(s: Drawn): string {
  const model = new FileModel();
  const lines: string[] = [];
  const header = ({ v3: HEADER, v2: HEADER.replace('"version":3', '"version":2'), none: undefined, padded: `\u00a0 ${HEADER}`, "blank-first": `\n  \n${HEADER}` } as Record<string, string | undefined>)[s.header];
  if (header !== undefined) lines.push(header);
  for (const [drawn, { long, damaged }] of s.steps) {
    const step: Step = drawn.parent === "duplicate-id" && s.reusedIds !== 0 ? { ...drawn, parent: "leaf" } : drawn;
    let line = model.line(long ? { ...step, text: `${step.text}${"x".repeat(300)}` } : step);
    // A quote in the middle of a long text: the skimming scanner does not look there, JSON.parse fails.
    if (long && damaged === 0 && line.length > 600) line = `${line.slice(0, 300)}"${line.slice(301)}`;
    lines.push(line);
  }
  if (s.laterParent) withLaterParent(lines, s.laterParent);
  let text = lines.map((l) => `${l}\n`).join("");
  if (s.tail === "cut" && text.length > 0) text = text.slice(0, text.length - 1 - Math.floor((text.length - 1) / 3));
  if (s.tail === "unterminated") text = text.replace(/\n$/, "");
  if (s.tail === "padded-last") text = text.replace(/\n$/, "\u00a0\u2028");
  return text;
}

const policies: [string, RowVersion][] = [
  ["pi 0.73 (and pi 1.5 for a session with a 1.x marker)", rowVersionPolicy({ defaultVersion: "0.73" })],
  ["pi 1.5 for every session", rowVersionPolicy({ explicitVersion: "1.5" })],
  ["pi 0.73 for every session", rowVersionPolicy({ explicitVersion: "0.73" })],
];

describe.each(policies)("streamRow (%s)", (_name, versionOf) => {
  it("equals the full index's row, key and resume point on random sessions, read in chunks of any size", () => {
    let run = 0;
    const seen = { rows: 0, usage: 0, estimate: 0, afterCompaction: 0, edits: 0, throws: 0, fullReads: 0, notSessions: 0, resumable: 0, branched: 0, laterParents: 0 };
    fc.assert(
      fc.property(session, (s) => {
        const path = join(dir, `s${run++}.jsonl`);
        const text = fileText(s);
        writeFileSync(path, text);
        const expected = fullRead(path, versionOf);
        const actual = streamed(path, versionOf, s.chunkBytes);
        if (actual.kind === "full read") {
          // Only for what the stream leaves to the full read: a version 1/2 session or a reused id.
          // (A version 1/2 file with a damaged line: the full read throws, as the catalogue's does.)
          if (expected.kind === "row") {
            const session = openSessionSync(path, { skim: true });
            expect(session.needsMigration || session.index.duplicateCount > 0).toBe(true);
          }
          seen.fullReads++;
          return;
        }
        expect(actual).toEqual(expected);
        if (actual.kind === "throws") seen.throws++;
        const c = actual.kind === "row" ? (actual.computed as { row: { contextSource: string; entries: number; pi1xMarker: unknown }; resume: unknown } | null) : null;
        if (actual.kind === "row" && !c) seen.notSessions++;
        if (c) {
          seen.rows++;
          if (c.row.contextSource === "usage") seen.usage++;
          if (c.row.contextSource === "estimate") seen.estimate++;
          if (c.row.contextSource === "estimate-after-compaction") seen.afterCompaction++;
          if (c.row.pi1xMarker) seen.edits++;
          if (c.resume) seen.resumable++;
          const session = openSessionSync(path, { skim: true });
          if (session.index.branchPoints.length > 0) seen.branched++;
          if (s.laterParent && session.index.entries.some((m, i) => m.parentId !== null && session.index.entries.findIndex((p) => p.id === m.parentId) > i)) seen.laterParents++;
        }
        expect(statSync(path).size).toBe(Buffer.byteLength(text));
      }),
      { numRuns: 400 },
    );
    // The generator reached every case the row distinguishes.
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(2);
  });
});

describe("streamRow up to a size (a sum ahead of a row recorded at that size, sum-ahead.ts)", () => {
  it("reads the file as if it ended there: the row, key and kept sum of a file holding those bytes alone", () => {
    let run = 0;
    let cuts = 0;
    const versionOf = rowVersionPolicy({ defaultVersion: "0.73" });
    const comparableAt = (path: string, upTo?: number): unknown => {
      try {
        const r = streamRow(path, versionOf, { sumAhead: true, ...(upTo !== undefined ? { upTo } : {}) });
        return r ? { key: { ...r.key, mtimeMs: 0, ino: 0 }, computed: r.computed && comparable({ ...r.computed, row: { ...r.computed.row, path: "", mtimeMs: 0, modified: "" } }) } : "full read";
      } catch {
        return "throws";
      }
    };
    fc.assert(
      fc.property(session, fc.nat(), (s, pick) => {
        const text = Buffer.from(fileText(s));
        // Every line end (the sizes a row is recorded at), a cut mid-line, and past the end.
        const ends = [...text.keys()].filter((i) => text[i] === 0x0a).map((i) => i + 1);
        const upTo = [ends[pick % Math.max(1, ends.length)] ?? 0, Math.floor(text.length / 2), text.length + 10][pick % 3]!;
        const path = join(dir, `up-to${run}.jsonl`);
        const prefix = join(dir, `prefix${run++}.jsonl`);
        writeFileSync(path, text);
        writeFileSync(prefix, text.subarray(0, upTo));
        if (upTo < text.length) cuts++;
        expect(comparableAt(path, upTo)).toEqual(comparableAt(prefix));
      }),
      { numRuns: 300 },
    );
    expect(cuts).toBeGreaterThan(100);
  });
});

