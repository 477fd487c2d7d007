// Session files for search tests: v3 headers, user/assistant messages, names.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Msg {
  role: "user" | "assistant" | "toolResult";
  text: string;
  /** Content as text blocks instead of a string. */
  blocks?: boolean;
}

let counter = 0;

export function tempDir(prefix = "pi-sessions-search-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function header(id: string, cwd: string, time = "2026-01-01T00:00:00.000Z"): string {
  return JSON.stringify({ type: "session", version: 3, id, timestamp: time, cwd });
}

export function messageLine(id: string, parentId: string | null, m: Msg, time: number): string {
  const content = m.role === "user" && !m.blocks ? m.text : [{ type: "text", text: m.text }];
  const message = m.role === "toolResult" ? { role: "toolResult", toolCallId: "t", toolName: "bash", content: [{ type: "text", text: m.text }], isError: false, timestamp: time } : { role: m.role, content, timestamp: time };
  return JSON.stringify({ type: "message", id, parentId, timestamp: new Date(time).toISOString(), message });
}

export function nameLine(id: string, parentId: string | null, name: string): string {
  return JSON.stringify({ type: "session_info", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", name });
}

/** Writes a session; entry ids are `e1`, `e2`, … in order. Returns the path and the ids. */
export function writeSession(dir: string, opts: { id?: string; cwd?: string; name?: string; messages: Msg[]; startTime?: number }): { path: string; ids: string[] } {
  const id = opts.id ?? `s${++counter}-0000-0000`;
  const lines = [header(id, opts.cwd ?? "/work/project")];
  const ids: string[] = [];
  let parent: string | null = null;
  const t0 = opts.startTime ?? Date.UTC(2026, 0, 1) + counter * 60_000;
  opts.messages.forEach((m, i) => {
    const eid = `e${i + 1}`;
    lines.push(messageLine(eid, parent, m, t0 + i * 1000));
    ids.push(eid);
    parent = eid;
  });
  if (opts.name !== undefined) lines.push(nameLine(`n${ids.length + 1}`, parent, opts.name));
  const path = join(dir, `${id}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return { path, ids };
}

export function appendLines(path: string, lines: string[]): void {
  appendFileSync(path, `${lines.join("\n")}\n`);
}
