import { describe, expect, it } from "vitest";
import { csvField, renderExport, toCsv, toMarkdown } from "../src/export.js";
import type { Todo } from "../src/types.js";
import { NOW } from "./helpers.js";

function todo(overrides: Partial<Todo> = {}): Todo {
  return { id: 1, text: "buy milk", priority: "normal", tags: [], createdAt: NOW.toISOString(), ...overrides };
}

describe("csvField", () => {
  it("leaves plain values alone", () => {
    expect(csvField("buy milk")).toBe("buy milk");
  });

  it("quotes commas, quotes and newlines", () => {
    expect(csvField("milk, eggs")).toBe('"milk, eggs"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
  });
});

describe("toCsv", () => {
  it("writes a header and one CRLF-terminated row per todo", () => {
    const csv = toCsv([todo({ tags: ["home", "errand"], due: "2024-05-21" }), todo({ id: 2, text: "a, b", priority: "high" })]);
    expect(csv).toBe(
      "id,text,priority,tags,due,createdAt\r\n" +
        "1,buy milk,normal,home errand,2024-05-21,2024-05-20T09:30:00.000Z\r\n" +
        '2,"a, b",high,,,2024-05-20T09:30:00.000Z\r\n',
    );
  });

  it("writes only the header for no todos", () => {
    expect(toCsv([])).toBe("id,text,priority,tags,due,createdAt\r\n");
  });
});

describe("toMarkdown", () => {
  it("groups by first tag with untagged todos last", () => {
    const md = toMarkdown([todo({ id: 1, text: "no tag" }), todo({ id: 2, text: "desk", tags: ["work"] }), todo({ id: 3, text: "plants", tags: ["home"] })]);
    expect(md.split("\n")).toEqual(["# Todos", "", "## #home", "", "- [ ] plants", "", "## #work", "", "- [ ] desk", "", "## Untagged", "", "- [ ] no tag", ""]);
  });

  it("notes high priority, due dates and the other tags", () => {
    const md = toMarkdown([todo({ text: "taxes", priority: "high", due: "2024-05-31", tags: ["admin", "money"] })]);
    expect(md).toContain("- [ ] taxes (**high**, due 2024-05-31, #money)");
  });

  it("escapes Markdown in the text", () => {
    expect(toMarkdown([todo({ text: "fix *all* the [links]" })])).toContain("- [ ] fix \\*all\\* the \\[links\\]");
  });
});

describe("renderExport", () => {
  it("dispatches on the format", () => {
    expect(renderExport("csv", [])).toBe(toCsv([]));
    expect(renderExport("md", [])).toBe(toMarkdown([]));
  });
});
