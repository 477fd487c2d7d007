// Facts about a whole session that lists, status lines and runners show: the
// first request, when it was last active, and where the agent ran.
import type { LoadedSession } from "./open-session.js";

export function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  // Array.join turns undefined/null text into "", as in pi's extractTextContent.
  return content
    .filter((b): b is { type: "text"; text: unknown } => typeof b === "object" && b !== null && b.type === "text")
    .map((b) => b.text)
    .join(" ");
}

/**
 * Text of the first user message that has text (pi's session-list `firstMessage`),
 * or null. `skipBlank` also passes over messages whose text is only white space.
 */
export function firstUserMessageText(session: LoadedSession, options: { skipBlank?: boolean } = {}): string | null {
  const index = session.index;
  for (let i = 0; i < index.size; i++) {
    if (index.typeAt(i) !== "message" || index.roleAt(i) !== "user") continue;
    const message: unknown = (session.entryAt(index.at(i)) as { message?: unknown }).message;
    const text = typeof message === "object" && message !== null && "content" in message ? textOfContent(message.content) : "";
    if (options.skipBlank ? text.trim() : text) return text;
  }
  return null;
}

/** pi's getSessionModifiedDate: the last user/assistant activity, else the header's time, else `mtime`. */
export function sessionModifiedDate(session: LoadedSession, mtime: () => Date): Date {
  const last = session.index.lastActivityTime;
  if (last > 0) return new Date(last);
  const headerTime = typeof session.header?.timestamp === "string" ? new Date(session.header.timestamp).getTime() : NaN;
  return !Number.isNaN(headerTime) ? new Date(headerTime) : mtime();
}

/** The cwd the header records (where the agent ran), when it names one. */
export function recordedCwd(session: LoadedSession): string | undefined {
  const cwd = session.header?.cwd;
  return typeof cwd === "string" && cwd ? cwd : undefined;
}
