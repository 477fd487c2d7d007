// What omp's /resume lists (session-listing.ts): files `<root>/*/*.jsonl`
// (Bun's glob: no hidden names, no symlinks, no deeper artifacts folders, which hold
// subagent sessions), each named from a 4 KiB prefix: the title slot's title
// (an empty slot title means none), else the header's `title`, else the last
// compaction `shortSummary` in the prefix; shown as the title, else the first
// user message, else `Untitled · <time>`. A file whose prefix has no header
// (type "session", string id) is not listed.

import { closeSync, openSync, readSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

export const OMP_LIST_PREFIX_BYTES = 4096;

/** The `*.jsonl` files omp's all-projects list globs: `<root>/*\/*.jsonl`, sorted. */
export async function ompListedFiles(sessionsRoot: string): Promise<string[]> {
  let folders;
  try {
    folders = await readdir(sessionsRoot, { withFileTypes: true });
  } catch {
    return [];
  }
  const lists = await Promise.all(
    folders.filter((f) => f.isDirectory() && !f.name.startsWith(".")).map((f) => ompListedFilesIn(join(sessionsRoot, f.name))),
  );
  return lists.flat().sort();
}

/** The `*.jsonl` files directly in one folder (omp's per-cwd list), sorted. */
export async function ompListedFilesIn(folder: string): Promise<string[]> {
  try {
    const items = await readdir(folder, { withFileTypes: true });
    return items
      .filter((i) => i.name.endsWith(".jsonl") && !i.name.startsWith(".") && i.isFile())
      .map((i) => join(folder, i.name))
      .sort();
  } catch {
    return [];
  }
}

export interface OmpListing {
  id: string;
  cwd: string;
  /** omp's title for the list (slot, header, compaction shortSummary), or null. */
  title: string | null;
  /** The first user message's text in the prefix (omp's firstMessage), or null. */
  firstMessage: string | null;
  /** The header's timestamp, or null. */
  created: string | null;
  parentSession: string | null;
}

/** The listing facts omp reads from a file's first 4 KiB; null when omp would not list it. */
export function readOmpListing(path: string): OmpListing | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(OMP_LIST_PREFIX_BYTES);
    const n = readSync(fd, buffer, 0, OMP_LIST_PREFIX_BYTES, 0);
    return ompListingFromPrefix(buffer.subarray(0, n).toString("utf8"));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

type Json = Record<string, unknown>;

/** omp's parseJsonlLenient on the prefix: each line that parses to an object, in order. */
function lenientEntries(text: string): Json[] {
  const entries: Json[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) entries.push(value as Json);
    } catch {
      // omp skips a line it cannot parse (the prefix's cut last line among them).
    }
  }
  return entries;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** omp's textContent(content, " "): a string, or the text blocks joined by a space. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: string; text: string } => typeof b === "object" && b !== null && (b as Json).type === "text" && typeof (b as Json).text === "string")
    .map((b) => b.text)
    .join(" ");
}

export function ompListingFromPrefix(prefix: string): OmpListing | null {
  const entries = lenientEntries(prefix);
  // An empty slot title means "no title" and hides the header's own title.
  const slotted = entries[0]?.type === "title";
  const header = listHeader(prefix, entries, slotted ? 1 : 0);
  if (!header) return null;
  let shortSummary: string | undefined;
  let firstMessage = "";
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.type === "compaction" && typeof entry.shortSummary === "string") shortSummary = entry.shortSummary;
    const message = entry.type === "message" ? (entry.message as Json | undefined) : undefined;
    if (!firstMessage && message?.role === "user") firstMessage = textOf(message.content);
  }
  firstMessage ||= firstDisplayMessageInText(prefix) ?? "";
  return { ...header, title: header.title ?? shortSummary ?? null, firstMessage: firstMessage || null };
}

type ListHeader = Omit<OmpListing, "firstMessage">;

/**
 * omp's parseSessionListHeader: the parsed slot and header, else (a header
 * line cut by the prefix) the first non-empty lines read field by field.
 */
function listHeader(prefix: string, entries: readonly Json[], headerIndex: number): ListHeader | null {
  const first = entries[0];
  const slotTitle = first?.type === "title" && typeof first.title === "string" ? (first.title.trim() ? first.title : null) : undefined;
  const record = entries[headerIndex];
  if (record?.type === "session" && typeof record.id === "string") {
    return {
      id: record.id,
      cwd: str(record.cwd) ?? "",
      title: slotTitle === null ? null : (slotTitle ?? str(record.title) ?? null),
      created: str(record.timestamp) ?? null,
      parentSession: str(record.parentSession) ?? null,
    };
  }
  let lineSlotTitle: string | null | undefined;
  let firstNonEmpty = true;
  for (const raw of prefix.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (firstNonEmpty && stringProperty(line, "type") === "title") {
      const title = stringProperty(line, "title");
      lineSlotTitle = title === undefined ? undefined : title.trim() ? title : null;
      firstNonEmpty = false;
      continue;
    }
    if (stringProperty(line, "type") !== "session") return null;
    const id = stringProperty(line, "id");
    if (!id) return null;
    return {
      id,
      cwd: stringProperty(line, "cwd") ?? "",
      title: lineSlotTitle === null ? null : (lineSlotTitle ?? stringProperty(line, "title") ?? null),
      created: stringProperty(line, "timestamp") ?? null,
      parentSession: stringProperty(line, "parentSession") ?? null,
    };
  }
  return null;
}

function decodeFragment(value: string): string {
  const safe = value.endsWith("\\") ? value.slice(0, -1) : value;
  try {
    return JSON.parse(`"${safe}"`) as string;
  } catch {
    return safe.replace(/\\n/g, "\n").replace(/\\r/g, "\r").replace(/\\t/g, "\t").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
  }
}

/** omp's extractStringProperty: the string after the first `"name"` (from `start`) and its colon, even if cut off. */
function stringProperty(source: string, name: string, start = 0): string | undefined {
  const at = source.indexOf(`"${name}"`, start);
  if (at === -1) return undefined;
  const colon = source.indexOf(":", at + name.length + 2);
  if (colon === -1) return undefined;
  let i = colon + 1;
  while (i < source.length && " \t\n\r".includes(source[i]!)) i++;
  if (source.charCodeAt(i) !== 34) return undefined;
  const valueStart = i + 1;
  let escaped = false;
  for (let j = valueStart; j < source.length; j++) {
    const c = source.charCodeAt(j);
    if (escaped) escaped = false;
    else if (c === 92) escaped = true;
    else if (c === 34) return decodeFragment(source.slice(valueStart, j));
  }
  return decodeFragment(source.slice(valueStart));
}

/** omp's extractFirstDisplayMessageFromPrefix: a user message's text found in the raw prefix, else a developer's or assistant's. */
function firstDisplayMessageInText(content: string): string | undefined {
  let fallback: string | undefined;
  let index = content.indexOf('"role"');
  while (index !== -1) {
    const role = stringProperty(content, "role", index);
    const text = stringProperty(content, "content", index) ?? stringProperty(content, "text", index);
    if (text) {
      if (role === "user") return text;
      if (!fallback && (role === "developer" || role === "assistant")) fallback = text;
    }
    index = content.indexOf('"role"', index + 6);
  }
  return fallback;
}

export { ompDisplayName, sanitizeOmpName } from "../agent/omp-18/session-name.js";
