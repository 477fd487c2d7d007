// omp's entries in the tree and the Entries view, on the files omp wrote:
// /clear as a divider, compaction method, tokens before → after, short summary,
// snapcompact frames, omp's model_change and null thinking level, session_exit.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entryPreview } from "../../../src/core/tree/preview.js";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";

const entries = (name: string) =>
  readFileSync(join(OMP_FIXTURES_DIR, `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.type !== "title" && e.type !== "session");
const preview = (e: Record<string, unknown>) => entryPreview(e, 400);

describe("omp's entries shown for what they are", () => {
  it("reset_boundary, soft and handoff compactions, model, thinking level, session_exit", () => {
    const es = entries("omp-soft-handoff-reset");
    const byType = (t: string) => es.filter((e) => e.type === t);
    expect(preview(byType("reset_boundary")[0]!)).toMatch(/\/clear.*out of the model's context/);
    const [soft, handoff] = byType("compaction");
    expect(preview(soft!)).toMatch(/^soft compaction of 4002 → 6926 tokens, keeps from 13746e79 · \S/);
    expect(preview(soft!)).toContain(String(soft!.shortSummary));
    expect(preview(handoff!)).toMatch(/^handoff compaction of 3838 → 6939 tokens/);
    expect(preview(byType("model_change")[0]!)).toBe("model fake/fake-vision");
    expect(preview(byType("thinking_level_change")[0]!)).toBe("thinking off");
    expect(preview(es.at(-1)!)).toMatch(/^session exit \(normal/);
  });

  it("a snapcompact compaction says its frames", () => {
    const c = entries("omp-snapcompact").find((e) => e.type === "compaction")!;
    expect(preview(c)).toMatch(/^snapcompact compaction of \d+ → \d+ tokens, keeps from 34529d2e · 5 frames · Archived/);
  });

  it("a title change says the new and the previous title", () => {
    expect(preview({ type: "title_change", id: "a", parentId: null, title: "New", previousTitle: "Old", source: "user" })).toBe('title "New" (was "Old")');
  });
});
