import type { Command } from "../command";
import { contextCommand } from "./context";
import { filesCommand } from "./files";
import { listCommand } from "./list";
import { prepareCommand } from "./prepare";
import { treeCommand } from "./tree";
import { compactCommand } from "./compact";
import { branchSummaryCommand } from "./branch-summary";
import { navigateCommand } from "./navigate";
import { migrateCommand } from "./migrate";
import { renameCommand } from "./rename";
import { labelCommand } from "./label";
import { forkCommand } from "./fork";
import { searchCommand } from "./search";
import { exportCommand } from "./export";
import { watchCommand } from "./watch";
import { usageCommand } from "./usage";

export const COMMANDS: Command[] = [listCommand, treeCommand, contextCommand, prepareCommand, filesCommand, compactCommand, branchSummaryCommand, navigateCommand, migrateCommand, renameCommand, labelCommand, forkCommand, searchCommand, exportCommand, watchCommand, usageCommand];
