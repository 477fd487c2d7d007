// Tree rows show pi 1.x entries for what they are (not as unknown types).
import { describe, expect, it } from "vitest";
import { entryPreview } from "../../../src/core/tree/preview.js";

const base = { id: "e1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z" };

describe("previews of pi 1.x entries", () => {
  it("system message: sections (−removed) and tools (+added, −removed)", () => {
    const entry = { ...base, type: "message", message: { role: "system", content: "", sections: { preamble: "p", cwd: null }, toolsAdded: [{ name: "read" }], toolsRemoved: [{ name: "write" }], timestamp: 1 } };
    expect(entryPreview(entry)).toBe("system prompt · sections preamble −cwd · tools −write +read");
  });
  it("context_edit: omitted or replaced, naming the target", () => {
    expect(entryPreview({ ...base, type: "context_edit", targetId: "t1", replacement: null })).toBe("context edit: t1 omitted");
    expect(entryPreview({ ...base, type: "context_edit", targetId: "t1", replacement: { content: [{ type: "text", text: "short" }] } })).toBe('context edit: t1 replaced by "short"');
  });
  it("usage entry: kind, model, tokens, cost, note", () => {
    const entry = { ...base, type: "usage", kind: "cache_warm", provider: "anthropic", model: "m", usage: { totalTokens: 12, cost: { total: 0.5 } }, note: "n" };
    expect(entryPreview(entry)).toBe("usage cache_warm anthropic/m 12 tokens $0.5000 (n)");
  });
  it("compaction: retain-none and the system checkpoint", () => {
    const entry = { ...base, type: "compaction", summary: "S", firstKeptEntryId: "e1", tokensBefore: 10, systemMessage: { role: "system", content: "", timestamp: 1 } };
    expect(entryPreview(entry)).toBe("compaction of 10 tokens, keeps nothing before it · system checkpoint");
  });
});
