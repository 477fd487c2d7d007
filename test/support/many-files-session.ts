// A pi 0.73 session (format 3) whose branch touched `files` files: write tool
// calls and bash commands (`sed -i`, `mv`, `>`), spread over nested folders,
// then a short side branch and a tail of recent turns. Written as JSON lines
// directly (pi's SessionManager appends one line per call: too slow for 30,000
// files); the shapes are pi's own (see support/sessions.ts).

import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ManyFilesSession {
  path: string;
  cwd: string;
  /** Every file's display path (relative to cwd), as the collector shows it. */
  files: string[];
  /** A bash-touched file (sed -i). */
  bashFile: string;
  /** The last entry of the main line, and the entry the side branch starts from. */
  leafId: string;
  forkFromId: string;
  /** The side branch's last entry. */
  sideLeafId: string;
}

const usage = (total: number) => ({ input: total - 100, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: total, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });

/** Path of the i-th file: 3 levels of folders, 100 files per leaf folder. */
export function manyFilePath(i: number): string {
  return `pkg${Math.floor(i / 1000)}/mod${Math.floor(i / 100) % 10}/part${Math.floor(i / 50) % 2}/f${i}.ts`;
}

export function writeManyFilesSession(dir: string, fileCount: number, options: { provider?: string; model?: string; cwd?: string } = {}): ManyFilesSession {
  const cwd = options.cwd ?? "/work/project";
  const provider = options.provider ?? "loopback-openai";
  const model = options.model ?? "summarizer";
  const lines: string[] = [JSON.stringify({ type: "session", version: 3, id: "0195c0de-0000-7000-8000-000000000001", timestamp: "2026-11-01T10:00:00.000Z", cwd })];
  let n = 0;
  let parent: string | null = null;
  let clock = Date.parse("2026-11-01T10:00:00.000Z");
  let chars = 0;
  const add = (message: Record<string, unknown>): string => {
    const id = (++n).toString(16).padStart(8, "0");
    clock += 1000;
    chars += JSON.stringify(message).length;
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(clock).toISOString(), message: { ...message, timestamp: clock } }));
    parent = id;
    return id;
  };
  const text = (t: string) => [{ type: "text", text: t }];
  const assistant = (content: unknown[]) =>
    add({ role: "assistant", content, api: "openai-completions", provider, model, usage: usage(Math.ceil(chars / 4) + 500), stopReason: "toolUse" });
  const files: string[] = [];
  const perTurn = 100;
  for (let start = 0; start < fileCount; start += perTurn) {
    add({ role: "user", content: text(`Generate the modules ${start}..${start + perTurn - 1}.`) });
    const batch = Array.from({ length: Math.min(perTurn, fileCount - start) }, (_, k) => manyFilePath(start + k));
    files.push(...batch);
    const half = Math.ceil(batch.length / 2);
    const writes = batch.slice(0, half);
    const bashed = batch.slice(half);
    // sed -i edits, one mv (renamed into place), one > redirect: every bashed file is touched by bash.
    const renamed = bashed.length > 2 ? bashed[0]! : undefined;
    const redirected = bashed.length > 2 ? bashed[1]! : undefined;
    const sedFiles = bashed.slice(renamed ? 2 : 0);
    const commands = [
      ...(renamed ? [`mv ${renamed}.tmp ${renamed}`] : []),
      ...(redirected ? [`echo "export {}" > ${redirected}`] : []),
      ...(sedFiles.length > 0 ? [`sed -i 's/old/new/' ${sedFiles.join(" ")}`] : []),
    ];
    const calls = [
      ...writes.map((path, k) => ({ type: "toolCall", id: `w${start + k}`, name: "write", arguments: { path, content: "export const x = 1;\n" } })),
      { type: "toolCall", id: `b${start}`, name: "bash", arguments: { command: commands.join(" && ") } },
    ];
    assistant(calls);
    for (const call of calls) add({ role: "toolResult", toolCallId: call.id, toolName: call.name, content: text(call.name === "write" ? `Wrote ${String((call.arguments as { path?: string }).path)}` : ""), isError: false });
    add({ role: "assistant", content: text(`Modules ${start}..${start + perTurn - 1} are in place.`), api: "openai-completions", provider, model, usage: usage(Math.ceil(chars / 4) + 500), stopReason: "stop" });
  }
  const forkFromId = parent!;
  // A short side branch from here (for /tree), then the main line goes on.
  add({ role: "user", content: text("Try another layout instead.") });
  const sideLeafId = add({ role: "assistant", content: text("Trying another layout."), api: "openai-completions", provider, model, usage: usage(Math.ceil(chars / 4) + 500), stopReason: "stop" });
  parent = forkFromId;
  add({ role: "user", content: text("Now summarise what was generated.") });
  const leafId = add({ role: "assistant", content: text("Everything is generated and compiles."), api: "openai-completions", provider, model, usage: usage(Math.ceil(chars / 4) + 500), stopReason: "stop" });
  const path = join(dir, `many-${fileCount}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  // The last file of every batch is edited by `sed -i`.
  const bashFile = files[files.length - 1]!;
  return { path, cwd, files, bashFile, leafId, forkFromId, sideLeafId };
}
