// Reading the JSON config files pi users already have (models.json,
// auth.json) and ours (pi-sessions.json). A broken file is an error that
// names the file and the line/column, and never quotes the file's content.

import { readFile } from "node:fs/promises";
import { findJsonSyntaxError, lineAndColumn } from "./json-syntax.js";
import { ModelConfigError } from "./model-config-error.js";

export interface JsonConfigOptions {
  /** Accept `//` line comments and trailing commas, as pi does for models.json. */
  comments?: boolean;
}

const STRING_OR_LINE_COMMENT = /"(?:\\.|[^"\\])*"|\/\/[^\n]*/g;
const STRING_OR_TRAILING_COMMA = /"(?:\\.|[^"\\])*"|,(\s*[}\]])/g;

/**
 * pi's stripJsonComments (model-registry.js), but length-preserving: removed
 * characters become spaces so parse positions still point into the original.
 */
export function blankJsonComments(input: string): string {
  return input
    .replace(STRING_OR_LINE_COMMENT, (m) => (m[0] === '"' ? m : " ".repeat(m.length)))
    .replace(STRING_OR_TRAILING_COMMA, (m, tail: string | undefined) =>
      tail !== undefined ? ` ${tail}` : m,
    );
}

export function parseJsonConfig(text: string, file: string, options: JsonConfigOptions = {}): unknown {
  // pi reads these files as UTF-8 text; a BOM would make JSON.parse fail there too, but it is harmless to drop.
  const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const prepared = options.comments ? blankJsonComments(body) : body;
  try {
    return JSON.parse(prepared);
  } catch {
    const problem = findJsonSyntaxError(prepared) ?? { position: 0, reason: "not valid JSON" };
    const { line, column } = lineAndColumn(prepared, problem.position);
    throw new ModelConfigError("invalid-json", `${file}:${line}:${column}: not valid JSON: ${problem.reason}`, {
      file,
      line,
      column,
    });
  }
}

/** The parsed file, or undefined when it does not exist. */
export async function readJsonConfigFile(file: string, options: JsonConfigOptions = {}): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if (isNodeError(error) && error.code === "ENOENT") return undefined;
    const code = isNodeError(error) && error.code ? error.code : "read error";
    throw new ModelConfigError("unreadable-file", `${file}: cannot read (${code})`, { file });
  }
  return parseJsonConfig(text, file, options);
}

export function isNodeError(value: unknown): value is NodeJS.ErrnoException {
  return value instanceof Error && "code" in value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
