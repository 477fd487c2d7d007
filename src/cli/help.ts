import type { Command } from "./command";

export function helpText(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = [
    "pi-sessions — read, compact, summarise, rename, label and fork pi coding agent sessions",
    "",
    "usage: pi-sessions <command> [options]",
    "",
    "commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "global options:",
    "  --json             one JSON document on stdout",
    "  --agent-dir DIR    pi's agent directory (default $PI_CODING_AGENT_DIR, else ~/.pi/agent)",
    "  --cwd DIR          the project directory (default: the session's cwd if it exists, else the current directory)",
    "",
    "exit codes: 0 done, 1 bad usage or input, 2 model call failed, 3 refused to write (changed on disk, needs migration, a parent cycle)",
    "",
  ];
  return lines.join("\n");
}
