// parentId cycles: pi's buildSessionContext, getBranch and
// collectEntriesForBranchSummary loop forever on them; ours stop at the first
// repeated entry. Expected paths are derived by hand from the entries below.

import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { buildSessionContext } from "../../../src/core/context/build-session-context.js";
import { branchPath, indexEntriesById, walkToRoot } from "../../../src/core/context/path-walk.js";
import { branchSourceFromEntries, collectEntriesForBranchSummary } from "../../../src/core/branch/collect-entries.js";
import { planCompaction } from "../../../src/core/compaction/prepare-compaction.js";

const ts = "2025-01-01T00:00:00.000Z";
const user = (id: string, parentId: string | null, text: string): SessionEntry =>
  ({ type: "message", id, parentId, timestamp: ts, message: { role: "user", content: text, timestamp: 1 } }) as SessionEntry;

describe("a parentId cycle", () => {
  // a → b → c → a (each names the next as parent), and leaf x hangs off a.
  const cyclic = [user("a", "c", "A"), user("b", "a", "B"), user("c", "b", "C"), user("x", "a", "X")];

  it("ends the walk at the first repeated entry", () => {
    const byId = indexEntriesById(cyclic);
    const walked = walkToRoot(byId.get("x"), byId);
    expect(walked.cycle).toBe(true);
    expect(walked.path.map((e) => e.id)).toEqual(["b", "c", "a", "x"]);
  });

  it("still builds a context", () => {
    const ctx = buildSessionContext(cyclic, "x");
    expect(ctx.messages.map((m) => (m as { content: string }).content)).toEqual(["B", "C", "A", "X"]);
  });

  it("terminates for a self-parent", () => {
    const self = [user("s", "s", "S")];
    expect(branchPath("s", indexEntriesById(self)).map((e) => e.id)).toEqual(["s"]);
    expect(buildSessionContext(self).messages).toHaveLength(1);
  });

  it("terminates when duplicate ids form the cycle", () => {
    // The second "d1" replaces the first in the index (pi's rule: the later wins) and points at d2, whose parent is d1.
    const dup = [user("d1", null, "first"), user("d2", "d1", "two"), user("d1", "d2", "again")];
    expect(branchPath("d2", indexEntriesById(dup)).map((e) => e.id)).toEqual(["d1", "d2"]);
    expect(buildSessionContext(dup, "d2").messages.map((m) => (m as { content: string }).content)).toEqual(["again", "two"]);
  });

  it("terminates in collectEntriesForBranchSummary when no common ancestor is reached", () => {
    const entries = [...cyclic, user("r", null, "R"), user("t", "r", "T")];
    const result = collectEntriesForBranchSummary(branchSourceFromEntries(entries), "x", "t");
    expect(result.commonAncestorId).toBeNull();
    expect(result.entries.map((e) => e.id)).toEqual(["b", "c", "a", "x"]);
  });

  it("terminates in planCompaction on the walked path", () => {
    const path = branchPath("x", indexEntriesById(cyclic));
    const plan = planCompaction(path, { enabled: true, reserveTokens: 16384, keepRecentTokens: 1 });
    expect(plan.compactable).toBe(true);
  });
});
