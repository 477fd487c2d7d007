// What the commands return to executeCommand callers (tests, other extensions).
export type NotDoneReason = "cancelled" | "untrusted" | "no-session" | "error" | "not-applicable";

export type CommandResult<T = unknown> = { ok: true; value: T } | { ok: false; reason: NotDoneReason; message: string };

export function ok<T>(value: T): CommandResult<T> {
  return { ok: true, value };
}

export function notDone(reason: NotDoneReason, message: string): CommandResult<never> {
  return { ok: false, reason, message };
}
