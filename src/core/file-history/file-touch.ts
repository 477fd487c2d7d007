// One file one tool call touched, as the history of a file lists it.

import type { FileOp } from "../files-touched/actions";

export interface FileTouch {
  entryId: string;
  /** The entry's ISO timestamp, when it has one. */
  timestamp?: string;
  /** Absolute path (see files-touched paths). */
  path: string;
  displayPath: string;
  op: FileOp;
  /** The tool's name (`bashExecution` for a `!` command). */
  tool: string;
  command?: string;
  toolCallId?: string;
}
