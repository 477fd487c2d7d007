// The touch manifest: built over a whole session it gives the touches the
// earlier direct collection gave (kept here as the reference), and extended
// over appended lines it equals one built from scratch — with results that
// come in a later append than their call, replace an earlier result with the
// same id, or come before any call with their id.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { initFilesTouched } from "../../../src/core/files-touched";
import { forEachFileActionSource } from "../../../src/core/files-touched/collect";
import { FilesLedger } from "../../../src/core/files-touched/ledger";
import { displayPathOf } from "../../../src/core/files-touched/paths";
import { collectFileTouches, touchesOfFile, type FileTouch } from "../../../src/core/file-history";
import { decodeManifest, encodeManifest, StoredTouchManifest } from "../../../src/core/file-history/touch-manifest-codec";
import { buildTouchManifest, emptyTouchManifest, extendTouchManifest, manifestPaths, mayTouchFile, touchesOfManifest } from "../../../src/core/file-history/touch-manifest";
import type { SessionEntry } from "../../../src/core/session/format/types";
import { call, result, userBash } from "../files-touched/session-builder";

beforeAll(() => initFilesTouched());

const CWD = "/work/repo";

/** The collection as it was before manifests: one pass over all entries, results paired by id. */
function referenceTouches(entries: readonly SessionEntry[]): FileTouch[] {
  const ctx = { sessionCwd: CWD };
  const timestamps = new Map<string, string>();
  for (const entry of entries) if (typeof entry.timestamp === "string") timestamps.set(entry.id, entry.timestamp);
  const touches: FileTouch[] = [];
  let current: Omit<FileTouch, "path" | "displayPath" | "op"> | undefined;
  const ledger = new FilesLedger((path, op) => {
    if (current) touches.push({ ...current, path, displayPath: displayPathOf(path, ctx), op });
  });
  forEachFileActionSource(entries, { cwd: CWD }, (found, source) => {
    const timestamp = timestamps.get(source.entryId);
    current = {
      entryId: source.entryId,
      tool: source.tool,
      ...(timestamp !== undefined ? { timestamp } : {}),
      ...(source.command !== undefined ? { command: source.command } : {}),
      ...(source.toolCallId !== undefined ? { toolCallId: source.toolCallId } : {}),
    };
    for (const action of found.actions) ledger.apply(action);
  });
  return touches;
}

const path = fc.constantFrom("a.ts", "src/b.ts", "src/c.ts", "/tmp/d.txt", "lib");
const callId = fc.constantFrom("c1", "c2", "c3", "c4", "c5");
const step: fc.Arbitrary<() => SessionEntry> = fc.oneof(
  fc.tuple(fc.constantFrom("read", "write", "edit"), path, callId).map(([name, p, id]) => () => call(name, { path: p, ...(name === "edit" ? { oldText: "x", newText: "y" } : { content: "z" }) }, id)),
  fc.tuple(path, path, callId).map(([from, to, id]) => () => call("bash", { command: `cat ${from} > ${to} && mv ${to} lib/` }, id)),
  fc.tuple(path, callId).map(([p, id]) => () => call("apply_patch", { input: `*** Begin Patch\n*** Update File: ${p}\n@@\n-x\n+y\n*** End Patch` }, id)),
  fc.tuple(path, callId).map(([p, id]) => () => call("exec_command", { cmd: ["apply_patch", `*** Begin Patch\n*** Delete File: ${p}\n*** End Patch`] }, id)),
  fc.tuple(callId, fc.boolean()).map(([id, isError]) => () => result(id, isError)),
  path.map((p) => () => userBash(`rm -rf ${p}`)),
  fc.tuple(path, callId).map(([p, id]) => () => call("bash", { command: `mkdir -p lib/sub && cd lib && mv ../${p} sub && cd sub && touch x.ts && cat ../../${p}` }, id)),
);
const session = fc.array(step, { minLength: 1, maxLength: 30 }).map((steps) => steps.map((make) => make()));

describe("touch manifest", () => {
  it("over a whole session: the same touches as the direct collection", () => {
    const tools = new Set<string>();
    fc.assert(
      fc.property(session, (entries) => {
        const touches = collectFileTouches(entries, { cwd: CWD });
        expect(touches).toEqual(referenceTouches(entries));
        for (const t of touches) tools.add(`${t.tool} ${t.op}`);
      }),
      { numRuns: 300 },
    );
    // The generator reaches every kind of source and letter.
    for (const seen of ["read R", "write W", "edit E", "bash R", "bash W", "bash M", "apply_patch E", "exec_command D", "bashExecution D"]) expect(tools).toContain(seen);
  });

  it("extended append by append: equal to built from scratch (manifest and touches)", () => {
    fc.assert(
      fc.property(session, fc.array(fc.nat(), { maxLength: 5 }), (entries, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (entries.length + 1)))].sort((a, b) => a - b);
        const manifest = emptyTouchManifest(CWD);
        let from = 0;
        for (const to of [...points, entries.length]) {
          extendTouchManifest(manifest, entries.slice(from, to));
          from = to;
        }
        const scratch = buildTouchManifest(entries, CWD);
        expect(manifest).toEqual(scratch);
        expect(touchesOfManifest(manifest)).toEqual(referenceTouches(entries));
      }),
      { numRuns: 300 },
    );
  });

  it("stored and read back (the compact codec), a manifest is the same; a cut-short one is refused", () => {
    fc.assert(
      fc.property(session, fc.constantFrom(CWD, "/", "/work"), (entries, cwd) => {
        const manifest = buildTouchManifest(entries, cwd);
        const stored = JSON.parse(JSON.stringify(encodeManifest(manifest)));
        expect(decodeManifest(stored)).toEqual(manifest);
        // The path table read alone (what a query looks at) is the manifest's lettered paths.
        expect(StoredTouchManifest.fromDisk(stored).paths()).toEqual(manifestPaths(manifest));
        if (stored.s.length > 0) {
          stored.s[0] = stored.s[0].slice(0, 6);
          expect(decodeManifest(stored)).toBeUndefined();
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a session whose actions name neither a file nor one of its directories gave it no letter", () => {
    const targets = ["a.ts", "src/b.ts", "src/c.ts", "lib/a.ts", "lib/b.ts", "lib/d.txt", "lib", "src", "/tmp/d.txt", "/tmp/lib/x", "other.ts", "lib/sub/a.ts", "lib/sub/x.ts", "lib/sub/b.ts"].map((t) => (t.startsWith("/") ? t : `${CWD}/${t}`));
    let skipped = 0;
    let touched = 0;
    fc.assert(
      fc.property(session, (entries) => {
        const manifest = buildTouchManifest(entries, CWD);
        const paths = manifestPaths(manifest);
        const touches = touchesOfManifest(manifest);
        for (const target of targets) {
          const rows = touchesOfFile(touches, target);
          if (rows.length > 0) touched++;
          if (!mayTouchFile(paths, target)) {
            skipped++;
            expect(rows).toEqual([]);
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(skipped).toBeGreaterThan(100);
    expect(touched).toBeGreaterThan(100);
  });

  it("a failed result in a later append takes back a write counted while it had none", () => {
    const write = call("write", { path: "x.ts", content: "" }, "w1");
    const manifest = buildTouchManifest([write], CWD);
    expect(touchesOfManifest(manifest).map((t) => `${t.op} ${t.displayPath}`)).toEqual(["W x.ts"]);
    extendTouchManifest(manifest, [result("w1", true)]);
    expect(touchesOfManifest(manifest)).toEqual([]);
    extendTouchManifest(manifest, [result("w1", false)]);
    expect(touchesOfManifest(manifest).map((t) => `${t.op} ${t.displayPath}`)).toEqual(["W x.ts"]);
  });

  it("omp's details.resolvedPath: a successful read/write/edit touches the file omp resolved, with its result in the same lines or a later append", () => {
    const resolvedResult = (id: string, resolvedPath: string): SessionEntry => {
      const entry = result(id, false, "edit");
      (entry as unknown as { message: Record<string, unknown> }).message.details = { resolvedPath };
      return entry;
    };
    const edit = call("edit", { path: "src/../alias.ts", oldText: "x", newText: "y" }, "e1");
    const read = call("read", { path: "fuzzy-name" }, "r1");
    const hashline = call("edit", { input: "*** Begin Patch\n[h.ts#1A2B]\nPUT 1.=1:\n+x\n*** End Patch" }, "h1");
    const entries = [edit, resolvedResult("e1", `${CWD}/real.ts`), hashline, result("h1"), read, resolvedResult("r1", "lib/found.ts")];
    const expected = ["E real.ts", "E h.ts", "R lib/found.ts"];
    expect(referenceTouches(entries).map((t) => `${t.op} ${t.displayPath}`)).toEqual(expected);
    expect(touchesOfManifest(buildTouchManifest(entries, CWD)).map((t) => `${t.op} ${t.displayPath}`)).toEqual(expected);
    // The call first, its result in a later append (omp writes them as they come).
    const manifest = buildTouchManifest([edit], CWD);
    expect(touchesOfManifest(manifest).map((t) => `${t.op} ${t.displayPath}`)).toEqual(["E alias.ts"]);
    for (const entry of entries.slice(1)) extendTouchManifest(manifest, [entry]);
    expect(touchesOfManifest(manifest).map((t) => `${t.op} ${t.displayPath}`)).toEqual(expected);
  });
});
