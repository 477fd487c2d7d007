import { describe, expect, it } from "vitest";
import type { Todo } from "../src/types.js";
import { formatList, formatTodo, padLeft, pluralize, relativeDate } from "../src/util.js";
import { NOW } from "./helpers.js";

const plain = { color: false, now: NOW };

function todo(overrides: Partial<Todo> = {}): Todo {
  return { id: 1, text: "buy milk", priority: "normal", tags: [], createdAt: NOW.toISOString(), ...overrides };
}

describe("relativeDate", () => {
  it("names today, tomorrow and yesterday", () => {
    expect(relativeDate("2024-05-20", NOW)).toBe("today");
    expect(relativeDate("2024-05-21", NOW)).toBe("tomorrow");
    expect(relativeDate("2024-05-19", NOW)).toBe("yesterday");
  });

  it("counts days in both directions", () => {
    expect(relativeDate("2024-05-27", NOW)).toBe("in 7 days");
    expect(relativeDate("2024-05-15", NOW)).toBe("5 days ago");
  });
});

describe("formatTodo", () => {
  it("pads the id and shows the text", () => {
    expect(formatTodo(todo(), plain)).toBe("  1. buy milk");
  });

  it("marks high and low priority", () => {
    expect(formatTodo(todo({ priority: "high" }), plain)).toBe("  1. ! buy milk");
    expect(formatTodo(todo({ priority: "low" }), plain)).toBe("  1. · buy milk");
  });

  it("appends tags and the due date", () => {
    expect(formatTodo(todo({ tags: ["home", "errand"], due: "2024-05-21" }), plain)).toBe(
      "  1. buy milk  #home #errand  due tomorrow",
    );
  });

  it("uses ANSI colours only when asked", () => {
    expect(formatTodo(todo({ priority: "high" }), { color: true, now: NOW })).toContain("\u001b[31m!");
    expect(formatTodo(todo({ priority: "high" }), plain)).not.toContain("\u001b[");
  });
});

describe("formatList", () => {
  it("ends with a count line", () => {
    expect(formatList([todo(), todo({ id: 2, text: "call mum" })], plain)).toEqual([
      "  1. buy milk",
      "  2. call mum",
      "2 todos",
    ]);
  });
});

describe("small helpers", () => {
  it("padLeft leaves long strings alone", () => {
    expect(padLeft("7", 3)).toBe("  7");
    expect(padLeft("1234", 3)).toBe("1234");
  });

  it("pluralize", () => {
    expect(pluralize(1, "todo")).toBe("1 todo");
    expect(pluralize(0, "todo")).toBe("0 todos");
  });
});
