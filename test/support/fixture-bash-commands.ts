// The bash commands of the files-touched corpus and of pi's large fixture (its bash tool calls).
import { readFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURES = join(__dirname, "..", "fixtures");

export function corpusCommands(): string[] {
  return readFileSync(join(FIXTURES, "files-touched", "commands.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { cmd: string }).cmd);
}

export function fixtureBashCommands(): string[] {
  const out: string[] = [];
  for (const line of readFileSync(join(FIXTURES, "pi-mono", "large-session.jsonl"), "utf8").split("\n")) {
    if (!line.includes('"bash"')) continue;
    const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as { type?: string; name?: string; arguments?: { command?: unknown } }[]) {
      if (block.type === "toolCall" && block.name === "bash" && typeof block.arguments?.command === "string") out.push(block.arguments.command);
    }
  }
  return out;
}
