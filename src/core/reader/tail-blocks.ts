// The last entries of a session file read from its end only: what the reader
// shows while the whole file is still being indexed (a 100 MB session's last
// turns at once). The branch is followed from the file's last entry up
// through parentIds as far as the tail holds them; labels and context edits
// are those in the tail (the full index corrects them right after).
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { entryBlock } from "./entry-block";
import type { ReaderBlock } from "./reader-block";
import type { ReaderFilter } from "./reader-filter";
import { shownUnderFilter } from "./reader-filter";

export const TAIL_BYTES = 2 * 1024 * 1024;

type Rec = Record<string, unknown>;

export interface TailBlocks {
  blocks: ReaderBlock[];
  leafId: string | null;
}

function tailLines(path: string, maxBytes: number): string[] {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.allocUnsafe(size - start);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    const lines = buffer.subarray(0, read).toString("utf8").split("\n");
    // The first line is cut in the middle unless the tail is the whole file.
    if (start > 0) lines.shift();
    return lines;
  } finally {
    closeSync(fd);
  }
}

export function tailBlocks(path: string, filter: ReaderFilter, maxBlocks: number, maxBytes = TAIL_BYTES): TailBlocks {
  const byId = new Map<string, Rec>();
  let last: Rec | undefined;
  for (const line of tailLines(path, maxBytes)) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const entry = value as Rec;
    if (entry.type === "session" || typeof entry.id !== "string") continue;
    byId.set(entry.id, entry);
    last = entry;
  }
  const labels = new Map<string, string | undefined>();
  const edits = new Map<string, { editId: string; replacement?: string }>();
  for (const entry of byId.values()) {
    if (entry.type === "label" && typeof entry.targetId === "string") labels.set(entry.targetId, typeof entry.label === "string" && entry.label ? entry.label : undefined);
  }
  const chain: Rec[] = [];
  const seen = new Set<string>();
  for (let entry = last; entry && !seen.has(entry.id as string); entry = typeof entry.parentId === "string" ? byId.get(entry.parentId) : undefined) {
    seen.add(entry.id as string);
    chain.push(entry);
  }
  chain.reverse();
  for (const entry of chain) {
    if (entry.type !== "context_edit" || typeof entry.targetId !== "string") continue;
    const replacement = entry.replacement;
    const text = typeof replacement === "object" && replacement !== null ? entryBlock({ type: "message", id: "", parentId: null, timestamp: "", message: { role: "user", content: (replacement as Rec).content } } as never).text : undefined;
    edits.set(entry.targetId, { editId: entry.id as string, ...(text !== undefined ? { replacement: text } : {}) });
  }
  const shown = chain.filter((entry) => {
    const message = entry.message as Rec | undefined;
    const meta = { type: String(entry.type), id: entry.id as string, ...(typeof message?.role === "string" ? { role: message.role } : {}) };
    return shownUnderFilter(meta as never, filter, (id) => labels.get(id));
  });
  const blocks = shown.slice(-maxBlocks).map((entry) => {
    const block = entryBlock(entry);
    const label = labels.get(block.id);
    const edit = edits.get(block.id);
    return { ...block, ...(label !== undefined ? { label } : {}), ...(edit ? { edit } : {}) };
  });
  return { blocks, leafId: (last?.id as string | undefined) ?? null };
}
