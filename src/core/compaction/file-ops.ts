// pi's own file tracking for summaries (compaction/utils.js): only `read`,
// `write` and `edit` tool calls with a string `path` argument, paths verbatim.
// The grounded manifest (bash, moves, deletes) lives in files-touched/.

import { isObject, type ContextMessage } from "../context/context-message.js";

export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

/** The same in JSON-friendly form: each list in insertion order. */
export interface FileOperationLists {
  read: string[];
  written: string[];
  edited: string[];
}

export interface FileLists {
  /** Read and never modified, sorted. */
  readFiles: string[];
  /** Edited or written, sorted. */
  modifiedFiles: string[];
}

export function createFileOps(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

export function extractFileOpsFromMessage(message: ContextMessage, fileOps: FileOperations): void {
  if (!isObject(message) || message.role !== "assistant") return;
  if (!Array.isArray(message.content)) return;
  for (const block of message.content as unknown[]) {
    if (!isObject(block) || block.type !== "toolCall") continue;
    if (!("arguments" in block) || !("name" in block)) continue;
    const args = block.arguments;
    if (!isObject(args)) continue;
    const path = typeof args.path === "string" ? args.path : undefined;
    if (path) addToolFileOp(block.name, path, fileOps);
  }
}

/** A `read`, `write` or `edit` tool call's path, noted as extractFileOpsFromMessage notes it (other tools: nothing). */
export function addToolFileOp(toolName: unknown, path: string, fileOps: FileOperations): void {
  switch (toolName) {
    case "read":
      fileOps.read.add(path);
      break;
    case "write":
      fileOps.written.add(path);
      break;
    case "edit":
      fileOps.edited.add(path);
      break;
  }
}

/**
 * Adds the `{readFiles, modifiedFiles}` a pi summary entry stored in its
 * `details` (read → read, modified → edited). Non-string items are skipped
 * (pi would carry them along).
 */
export function addFileOpsFromDetails(details: unknown, fileOps: FileOperations): void {
  if (!isObject(details)) return;
  if (Array.isArray(details.readFiles)) {
    for (const f of details.readFiles) if (typeof f === "string") fileOps.read.add(f);
  }
  if (Array.isArray(details.modifiedFiles)) {
    for (const f of details.modifiedFiles) if (typeof f === "string") fileOps.edited.add(f);
  }
}

export function computeFileLists(fileOps: FileOperations | FileOperationLists): FileLists {
  const modified = new Set([...fileOps.edited, ...fileOps.written]);
  const readFiles = [...fileOps.read].filter((f) => !modified.has(f)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The `<read-files>` / `<modified-files>` blocks pi appends to a summary ("" when both are empty). */
export function formatFileOperations(readFiles: readonly string[], modifiedFiles: readonly string[]): string {
  const sections: string[] = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length > 0) sections.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  if (sections.length === 0) return "";
  return `\n\n${sections.join("\n\n")}`;
}

export function fileOpsToLists(fileOps: FileOperations): FileOperationLists {
  return { read: [...fileOps.read], written: [...fileOps.written], edited: [...fileOps.edited] };
}

export function fileOpsFromLists(lists: FileOperationLists): FileOperations {
  return { read: new Set(lists.read), written: new Set(lists.written), edited: new Set(lists.edited) };
}
