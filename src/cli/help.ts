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
    "  --agent pi|omp     whose semantics (default: omp for files omp wrote, resumed or keeps; else pi)",
    "  --pi-version V     which pi: 0.73 or 1.5 (default: a pi 1.x marker in the session, else the pi on PATH)",
    "  --agent-dir DIR    the agent's directory (pi: $PI_CODING_AGENT_DIR, else ~/.pi/agent; omp: ~/.omp/agent or omp's overrides)",
    "  --cwd DIR          the project directory (default: the session's cwd if it exists, else the current directory)",
    "",
    "exit codes: 0 done, 1 bad usage or input, 2 model call failed, 3 refused to write (changed on disk, needs migration, a parent cycle)",
    "",
  ];
  return lines.join("\n");
}
