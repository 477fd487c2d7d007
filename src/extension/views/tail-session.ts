// The newest part of a big session, read from the end of its file only: what
// the Entries view shows while the whole file is not indexed yet (a 100 MB
// session's last turns at once, as the reader does). The current branch is
// followed from the file's last entry up through parentIds as far as the tail
// holds them, and only those lines are kept: one linear run, so the rows are
// the newest turns of the branch, with the node keys the full index gives them
// (it replaces this session once it is read).
import { closeSync, fstatSync, openSync } from "node:fs";
import { sessionFromBytes, type LoadedSession } from "../../core/session/open/open-session";
import { readRange } from "../../core/session/bytes/read-range";

/** Files larger than this show their tail first. */
export const TAIL_FIRST_BYTES = 8 * 1024 * 1024;
/** How much of the end is read. */
export const TAIL_BYTES = 2 * 1024 * 1024;

const NEWLINE = Buffer.from("\n");
const HEADER = Buffer.from(`${JSON.stringify({ type: "session", version: 3, id: "tail", timestamp: "1970-01-01T00:00:00.000Z", cwd: "" })}\n`);

/** The file's size, or undefined when it cannot be read. */
export function fileSize(path: string): number | undefined {
  try {
    const fd = openSync(path, "r");
    try {
      return fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The branch's newest entries as a session of their own; undefined when the tail holds no entry. */
export function tailSession(path: string, maxBytes = TAIL_BYTES): LoadedSession | undefined {
  let tail: Buffer;
  try {
    const fd = openSync(path, "r");
    try {
      const size = fstatSync(fd).size;
      const start = Math.max(0, size - maxBytes);
      tail = readRange(fd, start, size - start);
      // The first line is cut in the middle unless the tail is the whole file; the last may be half-written.
      const from = start > 0 ? tail.indexOf(10) + 1 : 0;
      tail = tail.subarray(from, tail.lastIndexOf(10) + 1);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (tail.length === 0) return undefined;
  const bytes = Buffer.concat([HEADER, tail]);
  const all = sessionFromBytes(bytes, path);
  const leaf = all.index.leafId;
  if (!leaf) return undefined;
  // The lines of the leaf's path in file order (a label or a side branch in the tail would make more roots).
  const onPath = all.index
    .pathIds(leaf)
    .map((id) => all.index.get(id)!)
    .sort((a, b) => a.offset - b.offset);
  if (onPath.length === all.index.size) return all;
  const lines = onPath.flatMap((meta) => [bytes.subarray(meta.offset, meta.offset + meta.length), NEWLINE]);
  return sessionFromBytes(Buffer.concat([HEADER, ...lines]), path);
}
