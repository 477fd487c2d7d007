// Small v3 session files for the reader and export tests, line by line.
let clock = Date.parse("2026-02-01T10:00:00.000Z");

export interface Line {
  [key: string]: unknown;
}

export function header(cwd = "/work/project", id = "0197a000-0000-7000-8000-000000000001"): Line {
  return { type: "session", version: 3, id, timestamp: new Date(clock).toISOString(), cwd };
}

function base(id: string, parentId: string | null): Line {
  clock += 1000;
  return { id, parentId, timestamp: new Date(clock).toISOString() };
}

export function user(id: string, parentId: string | null, text: string): Line {
  return { type: "message", ...base(id, parentId), message: { role: "user", content: [{ type: "text", text }], timestamp: clock } };
}

export function assistant(id: string, parentId: string | null, text: string, calls: { id: string; name: string; arguments: Record<string, unknown> }[] = []): Line {
  return {
    type: "message",
    ...base(id, parentId),
    message: {
      role: "assistant",
      content: [...(text ? [{ type: "text", text }] : []), ...calls.map((c) => ({ type: "toolCall", ...c }))],
      api: "openai-completions",
      provider: "loopback-openai",
      model: "test-model",
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: calls.length ? "toolUse" : "stop",
      timestamp: clock,
    },
  };
}

export function toolResult(id: string, parentId: string | null, toolCallId: string, toolName: string, text: string, isError = false): Line {
  return { type: "message", ...base(id, parentId), message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError, timestamp: clock } };
}

export function label(id: string, parentId: string | null, targetId: string, text: string | undefined): Line {
  return { type: "label", ...base(id, parentId), targetId, label: text };
}

export function compaction(id: string, parentId: string | null, summary: string, firstKeptEntryId: string, tokensBefore: number): Line {
  return { type: "compaction", ...base(id, parentId), summary, firstKeptEntryId, tokensBefore };
}

export function jsonl(lines: readonly Line[]): string {
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** A linear conversation of `turns` user → assistant(tool call) → tool result → assistant turns. */
export function conversation(turns: number, cwd = "/work/project"): Line[] {
  const lines: Line[] = [header(cwd)];
  let parent: string | null = null;
  for (let t = 0; t < turns; t++) {
    const ids = [`u${t}`, `a${t}`, `r${t}`, `b${t}`];
    lines.push(user(ids[0]!, parent, `Question ${t}: read src/file${t}.ts`));
    lines.push(assistant(ids[1]!, ids[0]!, `Reading file ${t}.`, [{ id: `call${t}`, name: "read", arguments: { path: `src/file${t}.ts` } }]));
    lines.push(toolResult(ids[2]!, ids[1]!, `call${t}`, "read", `contents of file ${t}`));
    lines.push(assistant(ids[3]!, ids[2]!, `**Answer ${t}**: done.`));
    parent = ids[3]!;
  }
  return lines;
}
