// Locating JSON syntax errors without quoting the file (positions worked out
// by hand), and pi's comment/trailing-comma stripping kept position-true.

import { describe, expect, it } from "vitest";
import { blankJsonComments, parseJsonConfig } from "../../../src/core/summarize/json-config.js";
import { findJsonSyntaxError, lineAndColumn } from "../../../src/core/summarize/json-syntax.js";
import { ModelConfigError } from "../../../src/core/summarize/model-config-error.js";

describe("findJsonSyntaxError", () => {
  it.each([
    ['{"a": 1}', undefined],
    ['[1, 2, {"b": [true, false, null, -0.5e3]}]', undefined],
    ["", { position: 0, reason: "the file is empty" }],
    ['{"a": 1,}', { position: 8, reason: "expected a double-quoted property name, unexpected '}'" }],
    ['{"a" 1}', { position: 5, reason: "expected ':' after a property name, unexpected character" }],
    ['{"a": 1', { position: 7, reason: "expected ',' or '}' after a property value, unexpected end of input" }],
    ['{"a": x}', { position: 6, reason: "expected a value, unexpected character" }],
    ['{"a": "b', { position: 6, reason: "unterminated string" }],
    ['{"a": "b\nc"}', { position: 8, reason: "control character (e.g. a raw line break) inside a string" }],
    ['{"a": "\\q"}', { position: 7, reason: "bad escape in a string" }],
    ['{"a": 01}', { position: 7, reason: "expected ',' or '}' after a property value, unexpected character" }],
    ['{"a": 1} x', { position: 9, reason: "unexpected text after the JSON value" }],
    ["[1 2]", { position: 3, reason: "expected ',' or ']' after an array element, unexpected character" }],
  ])("%j", (text, expected) => {
    expect(findJsonSyntaxError(text)).toEqual(expected);
    if (expected) expect(() => JSON.parse(text)).toThrow();
    else expect(() => JSON.parse(text)).not.toThrow();
  });

  it("reports over-deep nesting instead of overflowing the stack", () => {
    expect(findJsonSyntaxError("[".repeat(5000))?.reason).toBe("nesting too deep");
  });

  it("lineAndColumn is 1-based", () => {
    expect(lineAndColumn("ab\ncd\nef", 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn("ab\ncd\nef", 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn("ab\ncd\nef", 6)).toEqual({ line: 3, column: 1 });
  });
});

describe("blankJsonComments", () => {
  it("removes // comments and trailing commas like pi, keeping length and strings", () => {
    const text = '{\n  // note\n  "url": "http://x//y", // tail\n  "list": [1, 2,],\n}';
    const blanked = blankJsonComments(text);
    expect(blanked.length).toBe(text.length);
    expect(JSON.parse(blanked)).toEqual({ url: "http://x//y", list: [1, 2] });
  });

  it("parseJsonConfig: comments only when asked; errors carry file, line, column", () => {
    expect(parseJsonConfig('{"a": 1, // c\n}', "f.json", { comments: true })).toEqual({ a: 1 });
    let error: unknown;
    try {
      parseJsonConfig('{"a": 1, // c\n}', "f.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as ModelConfigError).message).toBe("f.json:1:10: not valid JSON: expected a double-quoted property name, unexpected character");
  });

  it("a leading BOM is accepted", () => {
    expect(parseJsonConfig('\uFEFF{"a": 1}', "f.json")).toEqual({ a: 1 });
  });
});
