// A big linear v3 session (for the reader's first-render measurement): turns
// of user → assistant (tool call) → tool result → assistant, the tool results
// carrying ~20 KB of output each, up to `targetBytes`.
export function bigSessionText(targetBytes: number, cwd: string): string {
  const parts: string[] = [JSON.stringify({ type: "session", version: 3, id: "0197b000-0000-7000-8000-00000000b16b", timestamp: "2026-01-01T00:00:00.000Z", cwd })];
  let size = parts[0]!.length + 1;
  let parent: string | null = null;
  let n = 0;
  const output = "line of tool output with some text in it 0123456789\n".repeat(400);
  const at = (i: number) => new Date(Date.parse("2026-01-01T00:00:00.000Z") + i * 1000).toISOString();
  const push = (entry: Record<string, unknown>) => {
    const line = JSON.stringify(entry);
    parts.push(line);
    size += line.length + 1;
  };
  for (let turn = 0; size < targetBytes; turn++) {
    const ids = [0, 1, 2, 3].map(() => (n++).toString(16).padStart(8, "0"));
    const ts = at(n);
    push({ type: "message", id: ids[0], parentId: parent, timestamp: ts, message: { role: "user", content: [{ type: "text", text: `Turn ${turn}: look at src/file${turn % 50}.ts` }], timestamp: Date.parse(ts) } });
    push({ type: "message", id: ids[1], parentId: ids[0], timestamp: ts, message: { role: "assistant", content: [{ type: "text", text: `Reading file ${turn}.` }, { type: "toolCall", id: `call${turn}`, name: "read", arguments: { path: `src/file${turn % 50}.ts` } }], provider: "loopback-openai", model: "test-model", usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120 }, stopReason: "toolUse", timestamp: Date.parse(ts) } });
    push({ type: "message", id: ids[2], parentId: ids[1], timestamp: ts, message: { role: "toolResult", toolCallId: `call${turn}`, toolName: "read", content: [{ type: "text", text: output }], isError: false, timestamp: Date.parse(ts) } });
    push({ type: "message", id: ids[3], parentId: ids[2], timestamp: ts, message: { role: "assistant", content: [{ type: "text", text: `**Turn ${turn}** done.` }], provider: "loopback-openai", model: "test-model", usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120 }, stopReason: "stop", timestamp: Date.parse(ts) } });
    parent = ids[3]!;
  }
  return parts.join("\n") + "\n";
}
