// `/compact -p NAME focus…` / `--preset NAME`: the preset and the focus; any
// other text is pi's own (all focus).
import { describe, expect, it } from "vitest";
import { parsePresetFlags } from "../../../src/core/pi-hooks/index.js";

describe("parsePresetFlags", () => {
  it.each([
    [undefined, {}],
    ["", {}],
    ["   ", {}],
    ["keep the API notes", { focus: "keep the API notes" }],
    ["-p cheap", { preset: "cheap" }],
    ["-p cheap keep the API notes", { preset: "cheap", focus: "keep the API notes" }],
    ["--preset deep  multi\nline focus", { preset: "deep", focus: "multi\nline focus" }],
    ["--preset=deep focus", { preset: "deep", focus: "focus" }],
    ['-p "my preset" focus', { preset: "my preset", focus: "focus" }],
    ["focus first -p cheap", { focus: "focus first -p cheap" }],
    ["-pcheap focus", { focus: "-pcheap focus" }],
    ["-p", { focus: "-p" }],
  ])("%j", (input, expected) => {
    expect(parsePresetFlags(input)).toEqual(expected);
  });
});
