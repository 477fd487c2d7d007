import type { AgentMessage, UnknownRoleMessage } from "../session/format/types.js";

/**
 * A message as it sits in a session: one of pi's roles, or a role pi does not
 * know (kept and shown, never sent to the model).
 */
export type ContextMessage = AgentMessage | UnknownRoleMessage;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A `message` entry's message, when it is an object (pi throws on anything else). */
export function messageOf(entry: { message?: unknown }): ContextMessage | undefined {
  const message = entry.message;
  if (!isObject(message)) return undefined;
  return message as ContextMessage;
}
