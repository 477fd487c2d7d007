// The header fields the Sessions view groups and threads by (id, cwd,
// parentSession), read from a file's first line without opening the session.
import { closeSync, openSync, readSync } from "node:fs";
import { titleSlotOf } from "../core/session/format/title-slot";

export interface HeaderFields {
  id: string;
  cwd: string;
  /** The session this one was forked from (pi writes its path). */
  parentSession?: string;
}

const PROBE_BYTES = 4096;
const MAX_HEADER_BYTES = 256 * 1024;

/** The first non-blank line that is not omp's title slot; undefined while it is not complete (`atEnd`: the rest). */
function headerLine(text: string, atEnd: boolean): string | undefined {
  const lines = text.replace(/^[\s\uFEFF]+/, "").split("\n");
  let i = 0;
  if (lines.length > 1 && isTitleSlotLine(lines[0]!)) {
    i = 1;
    while (i < lines.length - 1 && !lines[i]!.trim()) i++;
  }
  if (i < lines.length - 1 || atEnd) return lines[i];
  return undefined;
}

function isTitleSlotLine(line: string): boolean {
  try {
    return titleSlotOf(JSON.parse(line.trim())) !== undefined;
  } catch {
    return false;
  }
}

/** The header's fields (after omp's title slot), or undefined when the first line is not a session header. */
export function readSessionHeaderFields(path: string): HeaderFields | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let position = 0;
    let line: string | undefined;
    while (position < MAX_HEADER_BYTES) {
      const chunk = Buffer.allocUnsafe(PROBE_BYTES);
      const n = readSync(fd, chunk, 0, PROBE_BYTES, position);
      if (n === 0) break;
      position += n;
      chunks.push(chunk.subarray(0, n));
      // A newline after some non-blank text ends the header line (omp's title slot comes before it).
      if (chunk.subarray(0, n).includes(10) && (line = headerLine(Buffer.concat(chunks).toString("utf8"), false)) !== undefined) break;
    }
    line ??= headerLine(Buffer.concat(chunks).toString("utf8"), true) ?? "";
    const header = JSON.parse(line) as { type?: unknown; id?: unknown; cwd?: unknown; parentSession?: unknown };
    if (header?.type !== "session" || typeof header.id !== "string") return undefined;
    return {
      id: header.id,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      ...(typeof header.parentSession === "string" && header.parentSession ? { parentSession: header.parentSession } : {}),
    };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
