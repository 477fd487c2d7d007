// Every command the analysis understands, by name. A command not listed here
// (interpreters, build tools, ls, chmod, …) names no files; only its
// redirections count.

import type { CommandHandler } from "./context";
import { editorCommands } from "./editors";
import { fileOpCommands } from "./file-ops";
import { formatterCommands } from "./formatters";
import { gitCommand } from "./git";
import { readerCommands } from "./readers";
import { transferCommands } from "./transfer";
import { wrapperCommands } from "./wrappers";

const table = new Map<string, CommandHandler>(
  Object.entries({
    ...readerCommands,
    ...editorCommands,
    ...fileOpCommands,
    ...transferCommands,
    ...formatterCommands,
    ...wrapperCommands,
    git: gitCommand,
  }),
);

export function commandHandler(name: string): CommandHandler | undefined {
  return table.get(name);
}

export function commandNames(): IterableIterator<string> {
  return table.keys();
}
