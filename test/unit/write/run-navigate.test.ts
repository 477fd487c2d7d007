// runNavigate and undoCompaction, read back by pi's SessionManager: after
// reopening, pi's context is the navigation target's (or, after an undo, the
// context before the compaction, deep-equal).

import { afterAll, describe, expect, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { NAVIGATE_CUSTOM_TYPE, runCompaction, runNavigate, undoCompaction } from "../../../src/core/write/index.js";
import { RunInputError } from "../../../src/core/write/run-common.js";
import { branchedSession, longTurnSession, piContextAt, piOpen, removeDir, sha, tempDir } from "./support/sessions.js";

const dir = tempDir();
afterAll(() => removeDir(dir));

describe("runNavigate", () => {
  it("persists the move with a custom entry under the target; pi resumes with the target's context", () => {
    const { path, ids } = branchedSession(dir);
    const result = runNavigate({ session: openSessionSync(path), targetId: ids.a2b! });
    expect(result).toMatchObject({ outcome: "written", written: true, newLeafId: ids.a2b, oldLeafId: ids.s4 });
    expect(result.entry).toMatchObject({ type: "custom", customType: NAVIGATE_CUSTOM_TYPE, data: { fromLeafId: ids.s4, targetId: ids.a2b }, parentId: ids.a2b });
    const view = piOpen(path, dir);
    expect(view.leafId).toBe(result.entry!.id);
    expect(view.context).toEqual(piContextAt(path, dir, ids.a2b!));
  });

  it("a user-message target moves to its parent and returns the text", () => {
    const { path, ids } = branchedSession(dir);
    const result = runNavigate({ session: openSessionSync(path), targetId: ids.s1! });
    expect(result.newLeafId).toBe(ids.a1);
    expect(result.editorText).toBe("Actually, try an archive file instead.");
    expect(piOpen(path, dir).context).toEqual(piContextAt(path, dir, ids.a1!));
  });

  it("the first user message: a new root; pi's context is empty", () => {
    const { path, ids } = branchedSession(dir);
    const result = runNavigate({ session: openSessionSync(path), targetId: ids.u1! });
    expect(result.newLeafId).toBeNull();
    expect(result.entry!.parentId).toBeNull();
    expect(piOpen(path, dir).context.messages).toEqual([]);
  });

  it("the leaf pi already resumes at: nothing written", () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    expect(runNavigate({ session: openSessionSync(path), targetId: ids.s4! })).toMatchObject({ outcome: "unchanged", written: false, entry: null });
    expect(sha(path)).toBe(hash);
  });

  it("a label goes on the target, after the move", () => {
    const { path, ids } = branchedSession(dir);
    const result = runNavigate({ session: openSessionSync(path), targetId: ids.a2b!, label: "good version" });
    expect(result.labelEntry).toMatchObject({ type: "label", targetId: ids.a2b, label: "good version", parentId: result.entry!.id });
  });

  it("dry run writes nothing", () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    expect(runNavigate({ session: openSessionSync(path), targetId: ids.a2b!, dryRun: true }).outcome).toBe("dry-run");
    expect(sha(path)).toBe(hash);
  });

  it("an unknown target is bad input", () => {
    const { path } = branchedSession(dir);
    expect(() => runNavigate({ session: openSessionSync(path), targetId: "nope0000" })).toThrow(RunInputError);
  });
});

describe("undoCompaction", () => {
  const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 1500 };

  it("restores pi's context from before the compaction exactly", async () => {
    const { path } = longTurnSession(dir);
    const before = piOpen(path, dir).context;
    const compacted = await runCompaction({ session: openSessionSync(path), agentDir: dir, settings, summarizer: { digest: true } });
    expect(piOpen(path, dir).context).not.toEqual(before);
    const undone = undoCompaction({ session: openSessionSync(path) });
    expect(undone.compaction.id).toBe(compacted.entry!.id);
    expect(undone.newLeafId).toBe(compacted.entry!.parentId);
    expect(undone.entry).toMatchObject({ customType: NAVIGATE_CUSTOM_TYPE, data: { undoCompactionId: compacted.entry!.id } });
    expect(piOpen(path, dir).context).toEqual(before);
  });

  it("takes an explicit compaction id, and refuses an entry that is not one", async () => {
    const { path, ids } = longTurnSession(dir);
    await runCompaction({ session: openSessionSync(path), agentDir: dir, settings, summarizer: { digest: true } });
    expect(() => undoCompaction({ session: openSessionSync(path), compactionId: ids.u1 })).toThrow(/not a compaction/);
  });

  it("no compaction on the branch: bad input, nothing written", () => {
    const { path } = branchedSession(dir);
    const hash = sha(path);
    expect(() => undoCompaction({ session: openSessionSync(path) })).toThrow(/no compaction/);
    expect(sha(path)).toBe(hash);
  });
});
