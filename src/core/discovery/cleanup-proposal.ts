// Which sessions Clean Up proposes: empty ones (no user or assistant message:
// pi 1.5 would not even have created the file), old ones (no activity for N
// days) and large ones (over N bytes). A session active in the last minutes is
// never proposed: pi may be running in it.

import { counted } from "../text/counted.js";

export interface CleanupInput {
  path: string;
  /** Bytes on disk. */
  size: number;
  /** Last activity: the newest of its entries' timestamps and the file's mtime (last-activity.ts). */
  lastActivity: Date;
  /** user + assistant messages in the whole file. */
  conversationMessages: number;
}

export interface CleanupCriteria {
  empty: boolean;
  /** Propose sessions without activity for this many days. */
  olderThanDays?: number;
  /** Propose sessions larger than this many bytes. */
  largerThanBytes?: number;
  now: Date;
  /** Never propose a session active this recently (default 10 minutes). */
  activeWithinMs?: number;
}

export type CleanupReason = "empty" | "old" | "large";

export interface CleanupProposal extends CleanupInput {
  reasons: CleanupReason[];
  ageDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function proposeCleanup(inputs: readonly CleanupInput[], criteria: CleanupCriteria): CleanupProposal[] {
  const activeWithin = criteria.activeWithinMs ?? 10 * 60 * 1000;
  const proposals: CleanupProposal[] = [];
  for (const input of inputs) {
    const age = criteria.now.getTime() - input.lastActivity.getTime();
    if (age < activeWithin) continue;
    const reasons: CleanupReason[] = [];
    if (criteria.empty && input.conversationMessages === 0) reasons.push("empty");
    if (criteria.olderThanDays !== undefined && age > criteria.olderThanDays * DAY_MS) reasons.push("old");
    if (criteria.largerThanBytes !== undefined && input.size > criteria.largerThanBytes) reasons.push("large");
    if (reasons.length > 0) proposals.push({ ...input, reasons, ageDays: Math.floor(age / DAY_MS) });
  }
  return proposals.sort((a, b) => b.size - a.size || a.path.localeCompare(b.path));
}

export function totalBytes(items: readonly { size: number }[]): number {
  return items.reduce((sum, item) => sum + item.size, 0);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/** The question before anything moves: every file by name (the first 12) and the total size. */
export function trashConfirmation(files: readonly { path: string; size: number }[]): { message: string; detail: string } {
  const shown = files.slice(0, 12).map((f) => `${baseName(f.path)} (${formatBytes(f.size)})`);
  if (files.length > shown.length) shown.push(`… and ${files.length - shown.length} more`);
  const count = counted(files.length, "session");
  return {
    message: `Move ${count} (${formatBytes(totalBytes(files))}) to the trash?`,
    detail: `${shown.join("\n")}\n\nThey can be restored from the trash. pi will no longer list them.`,
  };
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
