// A deleted file's last content as the session holds it, or why there is none.
import { describe, expect, it } from "vitest";
import { lastContentOf, reconstructFileVersions, type FileChangeStep } from "../../../src/core/file-history/index.js";

const write = (entryId: string, content: string): FileChangeStep => ({ kind: "write", entryId, ops: "W", content });
const edit = (entryId: string, oldText: string, newText: string): FileChangeStep => ({ kind: "edit", entryId, ops: "E", edits: [{ oldText, newText }] });
const rm = (entryId: string): FileChangeStep => ({ kind: "other", entryId, ops: "D", tool: "bash", command: "rm notes.txt" });

describe("lastContentOf", () => {
  it("written, edited, then deleted: the content just before the deletion", () => {
    const last = lastContentOf(reconstructFileVersions([write("w", "a\nb\n"), edit("e", "b", "c"), rm("d")]));
    expect(last).toEqual({ known: true, content: "a\nc\n", entryId: "d", laterUnknown: false });
  });

  it("only edited (never seen whole), then deleted: says why there is nothing to show", () => {
    const last = lastContentOf(reconstructFileVersions([edit("e", "b", "c"), rm("d")]));
    expect(last).toEqual({ known: false, reason: "the session only edited parts of it and never saw the whole file" });
  });

  it("only removed by bash: says the tool does not record content", () => {
    expect(lastContentOf(reconstructFileVersions([rm("d")]))).toEqual({ known: false, reason: "the session only touched it with bash, which does not record the file's content" });
  });
});
