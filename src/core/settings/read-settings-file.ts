// One pi settings file. A missing file is an empty layer; a file pi cannot
// parse is ignored by pi, and here it is ignored too but reported as a
// diagnostic naming the file. Never throws.

import { readFileSync } from "node:fs";
import type { Diagnostic } from "../diagnostics.js";
import { isPlainObject, type SettingsObject } from "./deep-merge-settings.js";

export interface SettingsFileRead {
  settings: SettingsObject;
  exists: boolean;
  diagnostics: Diagnostic[];
}

export function readSettingsFile(path: string): SettingsFileRead {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { settings: {}, exists: false, diagnostics: [] };
    return ignored(path, `cannot be read (${errorMessage(error)})`);
  }
  return parseSettingsText(text, path);
}

/** pi treats an empty file as `{}`; anything else must be a JSON object. */
export function parseSettingsText(text: string, path: string): SettingsFileRead {
  if (!text) return { settings: {}, exists: true, diagnostics: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return ignored(path, `is not valid JSON (${errorMessage(error)})`, lineOfJsonError(text, error));
  }
  if (!isPlainObject(parsed)) return ignored(path, "does not hold a JSON object");
  return { settings: parsed, exists: true, diagnostics: [] };
}

function ignored(path: string, why: string, line?: number): SettingsFileRead {
  const diagnostic: Diagnostic = {
    severity: "warning",
    code: "invalid-settings",
    message: `settings file ${path} ${why}; it is ignored, as pi does`,
    file: path,
  };
  if (line !== undefined) diagnostic.line = line;
  return { settings: {}, exists: true, diagnostics: [diagnostic] };
}

function lineOfJsonError(text: string, error: unknown): number | undefined {
  const match = /position (\d+)/.exec(errorMessage(error));
  if (!match) return undefined;
  const position = Number(match[1]);
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
