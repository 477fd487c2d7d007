// Every entry kind pi 0.73 and pi 1.5 write has its own icon in the Entries
// view (the question mark is for kinds no pi writes).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { entryIconId, UNKNOWN_ICON } from "../../../src/extension/views/entry-icon-ids.js";

const types = readFileSync(new URL("../../../src/core/session/format/types.ts", import.meta.url), "utf8");
/** The `type: "…"` of every entry interface, and the `role: "…"` of every message interface. */
const entryTypes = [...types.matchAll(/^\s+type: "([a-z_]+)";$/gm)].map((m) => m[1]!).filter((t) => !["text", "image", "thinking", "toolCall", "session"].includes(t));
const roles = [...types.matchAll(/^\s+role: "([A-Za-z]+)";$/gm)].map((m) => m[1]!);

describe("entry icons", () => {
  it("every entry type and message role pi writes has its own icon", () => {
    expect(entryTypes).toEqual(expect.arrayContaining(["message", "compaction", "context_edit", "usage", "label"]));
    expect(roles).toEqual(expect.arrayContaining(["user", "assistant", "system"]));
    for (const type of entryTypes.filter((t) => t !== "message")) expect(entryIconId({ type }, false), type).not.toEqual(UNKNOWN_ICON);
    for (const role of roles) expect(entryIconId({ type: "message", role }, false), role).not.toEqual(UNKNOWN_ICON);
    expect(entryIconId({ type: "message", role: "system" }, false).id).toBe("book");
    expect(entryIconId({ type: "context_edit" }, false).id).toBe("edit");
    expect(entryIconId({ type: "something_new" }, false)).toEqual(UNKNOWN_ICON);
  });
});
