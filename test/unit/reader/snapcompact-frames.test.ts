// An omp snapcompact compaction in the reader: its frames are the PNGs of omp's
// blob store (the one beside the sessions root), shown as images; a frame whose
// blob is not on this machine is named, not shown. /clear, session_exit and
// title changes are marks.
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { entryBlock } from "../../../src/core/reader/entry-block.js";
import { blobsDirBeside } from "../../../src/core/reader/snapcompact-frames.js";
import { ReaderPager } from "../../../src/core/reader/reader-pager.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { OMP_FIXTURE_BLOBS, OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";

const entries = (name: string) =>
  readFileSync(join(OMP_FIXTURES_DIR, `${name}.jsonl`), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
const compaction = entries("omp-snapcompact").find((e) => e.type === "compaction")!;
const refs = ((compaction.preserveData as { snapcompact: { frames: { data: string }[] } }).snapcompact.frames).map((f) => f.data.slice("blob:sha256:".length));

const home = join(tmpdir(), `reader-frames-${process.pid}`);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("snapcompact frames in the reader", () => {
  it("with omp's blob store: five PNG frames, each the blob's bytes", () => {
    const block = entryBlock(compaction, undefined, { blobsDir: OMP_FIXTURE_BLOBS });
    expect(block.kind).toBe("compaction");
    expect(block.detail).toMatch(/^snapcompact · keeps from 34529d2e · → \d+ tokens after · 5 snapcompact frames$/);
    expect(block.images?.map((i) => i.mimeType)).toEqual(Array(5).fill("image/png"));
    expect(block.images!.map((i) => createHash("sha256").update(Buffer.from(i.data, "base64")).digest("hex"))).toEqual(refs);
    expect(block.text.startsWith(String(compaction.shortSummary))).toBe(true);
  });

  it("without the blobs: no image, the frames named as not on this machine", () => {
    const block = entryBlock(compaction);
    expect(block.images).toBeUndefined();
    expect(block.detail).toContain("5 snapcompact frames (5 not shown: its blob is not on this machine)");
  });

  it("the reader finds omp's blob store beside the sessions root the file lies in", () => {
    const folder = join(home, ".omp", "agent", "sessions", "-proj");
    mkdirSync(folder, { recursive: true });
    cpSync(OMP_FIXTURE_BLOBS, join(home, ".omp", "agent", "blobs"), { recursive: true });
    const file = join(folder, "omp-snapcompact.jsonl");
    copyFileSync(join(OMP_FIXTURES_DIR, "omp-snapcompact.jsonl"), file);
    expect(blobsDirBeside(file)).toBe(join(home, ".omp", "agent", "blobs"));
    const session = openSessionSync(file);
    const pager = new ReaderPager(session, session.index.leafId, "all");
    const shown = pager.blocks(0, pager.total).find((b) => b.id === compaction.id)!;
    expect(shown.images).toHaveLength(5);
  });

  it("marks for /clear, session_exit and title changes", () => {
    const reset = entries("omp-soft-handoff-reset").find((e) => e.type === "reset_boundary")!;
    expect(entryBlock(reset)).toMatchObject({ kind: "mark", title: "/clear" });
    expect(entryBlock(entries("omp-simple").at(-1)!)).toMatchObject({ kind: "mark", title: "session exit" });
    expect(entryBlock({ type: "title_change", id: "t", parentId: null, timestamp: "", title: "New", previousTitle: "Old" })).toMatchObject({ kind: "mark", text: 'titled "New" (was "Old")' });
  });
});
