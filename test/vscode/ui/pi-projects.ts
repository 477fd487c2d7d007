// Other projects' sessions as pi writes them under the agent folder, for the
// suites that list every project.
import { join } from "node:path";
import type { Workbench } from "./workbench";

/** Where pi keeps the sessions of `cwd` under the agent folder. */
export function sessionsFolder(wb: Workbench, cwd: string): string {
  return join(wb.paths.agentDir, "sessions", `--${cwd.slice(1).replace(/[/\\:]/g, "-")}--`);
}

/** A small session of another project: a question, an answer that cost `cost`, maybe a name. */
export function smallSession(id: string, cwd: string, time: string, question: string, answer: string, cost: number, name?: string): string {
  const lines: unknown[] = [
    { type: "session", version: 3, id, timestamp: time, cwd },
    { type: "message", id: `${id}-u`, parentId: null, timestamp: time, message: { role: "user", content: question, timestamp: Date.parse(time) } },
    {
      type: "message",
      id: `${id}-a`,
      parentId: `${id}-u`,
      timestamp: time,
      message: { role: "assistant", content: [{ type: "text", text: answer }], provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 2400, output: 600, cacheRead: 0, cacheWrite: 0, totalTokens: 3000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } }, stopReason: "stop", timestamp: Date.parse(time) + 5000 },
    },
  ];
  if (name) lines.push({ type: "session_info", id: `${id}-n`, parentId: `${id}-a`, timestamp: time, name });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}
