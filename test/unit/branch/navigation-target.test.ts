// resolveNavigationTarget follows agent-session.js navigateTree (expectations
// derived from its code: user/custom_message targets are re-edited, anything
// else becomes the leaf); branchSummaryPlacement is checked against pi's own
// SessionManager.branchWithSummary.

import { describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { branchSummaryPlacement, resolveNavigationTarget } from "../../../src/core/branch/navigation-target.js";

const base = { timestamp: "2025-01-01T00:00:00.000Z" };

describe("resolveNavigationTarget", () => {
  it("moves to the parent of a user message and gives back its text", () => {
    const entry = {
      ...base,
      type: "message",
      id: "u1",
      parentId: "a0",
      message: { role: "user", content: [{ type: "text", text: "fix " }, { type: "image", data: "x", mimeType: "image/png" }, { type: "text", text: "it" }], timestamp: 1 },
    } as SessionEntry;
    expect(resolveNavigationTarget(entry)).toEqual({ newLeafId: "a0", editorText: "fix it" });
  });

  it("moves before the first entry for a root user message", () => {
    const entry = { ...base, type: "message", id: "u1", parentId: null, message: { role: "user", content: "hello", timestamp: 1 } } as SessionEntry;
    expect(resolveNavigationTarget(entry)).toEqual({ newLeafId: null, editorText: "hello" });
  });

  it("treats a custom_message like a user message", () => {
    const entry = { ...base, type: "custom_message", id: "c1", parentId: "p", customType: "note", content: "again", display: true } as SessionEntry;
    expect(resolveNavigationTarget(entry)).toEqual({ newLeafId: "p", editorText: "again" });
  });

  it("makes any other entry the leaf itself", () => {
    const assistant = { ...base, type: "message", id: "a1", parentId: "u1", message: { role: "assistant", content: [], provider: "p", model: "m", timestamp: 1 } } as SessionEntry;
    const summary = { ...base, type: "branch_summary", id: "b1", parentId: "a1", fromId: "a1", summary: "s" } as SessionEntry;
    expect(resolveNavigationTarget(assistant)).toEqual({ newLeafId: "a1" });
    expect(resolveNavigationTarget(summary)).toEqual({ newLeafId: "b1" });
  });

  it("does not throw on a user message without content", () => {
    const entry = { ...base, type: "message", id: "u1", parentId: "x", message: { role: "user" } } as unknown as SessionEntry;
    expect(resolveNavigationTarget(entry)).toEqual({ newLeafId: "x", editorText: "" });
  });
});

describe("branchSummaryPlacement equals where pi writes the entry", () => {
  it.each([["an entry", true], ["the root (null)", false]] as const)("for %s", (_name, hasLeaf) => {
    const sm = SessionManager.inMemory("/tmp");
    const first = sm.appendMessage({ role: "user", content: "hi", timestamp: 1 });
    const newLeaf = hasLeaf ? first : null;
    const id = sm.branchWithSummary(newLeaf, "summary");
    const written = sm.getEntry(id) as unknown as { parentId: string | null; fromId: string };
    expect(branchSummaryPlacement(newLeaf)).toEqual({ parentId: written.parentId, fromId: written.fromId });
  });
});
