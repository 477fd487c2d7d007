import type { Command } from "../command";
import { contextCommand } from "./context";
import { filesCommand } from "./files";
import { listCommand } from "./list";
import { prepareCommand } from "./prepare";
import { treeCommand } from "./tree";

export const COMMANDS: Command[] = [listCommand, treeCommand, contextCommand, prepareCommand, filesCommand];
