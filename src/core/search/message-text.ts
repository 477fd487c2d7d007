// The text pi 1.5.2 searches in a session (session-manager.js, buildSessionInfo):
//
//   if (entry.type !== "message") continue;
//   const message = entry.message;
//   if (!isMessageWithContent(message)) continue;      // typeof role === "string" && "content" in message
//   if (message.role !== "user" && message.role !== "assistant") continue;
//   const textContent = extractTextContent(message);   // string, or text blocks joined with " "
//   if (!textContent) continue;
//   allMessages.push(textContent);
//   … allMessagesText: allMessages.join(" ")
//
// pi's loop runs inside try/catch and returns null (the session is not listed)
// when one of these throws: a message entry without a `message` (or null), content
// that is neither a string nor an array, a null content block, a session_info
// name that is not a string. `PiOmits` marks those sessions.

export class PiOmits extends Error {}

function textOfBlocks(content: unknown[]): string {
  // pi: content.filter((block) => block.type === "text").map((block) => block.text).join(" ")
  const parts: unknown[] = [];
  for (const block of content) {
    if (block === null || block === undefined) throw new PiOmits("null content block");
    if ((block as { type?: unknown }).type === "text") parts.push((block as { text?: unknown }).text);
  }
  return parts.join(" ");
}

/** The searchable text of a `message` entry's message, "" when pi skips it; throws PiOmits where pi's listing throws. */
export function searchableMessageText(message: unknown): { role: string; text: string } | null {
  if (message === null || message === undefined) throw new PiOmits("message entry without message");
  const m = message as { role?: unknown; content?: unknown };
  if (typeof m.role !== "string" || !(typeof message === "object" && "content" in message)) return null;
  if (m.role !== "user" && m.role !== "assistant") return null;
  const content = m.content;
  let text: string;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) text = textOfBlocks(content);
  else throw new PiOmits("message content is neither a string nor an array");
  return text ? { role: m.role, text } : null;
}

/** pi: `entry.name?.trim() || undefined` (a later session_info without a name clears it). */
export function sessionInfoName(name: unknown): string | undefined {
  if (name === null || name === undefined) return undefined;
  if (typeof name !== "string") throw new PiOmits("session_info name is not a string");
  return name.trim() || undefined;
}

/**
 * Builds pi's `allMessagesText.toLowerCase().replace(/\s+/g, " ").trim()` one
 * message at a time (lowercasing per message equals lowercasing the joined text:
 * messages are joined by a space, which ends any final-sigma context). The state
 * is two flags, kept in the index so appended messages continue it.
 */
export class NormalizedTextBuilder {
  constructor(
    /** Something non-space was emitted. */
    public started = false,
    /** White space seen after the last emitted character (emitted as one space before the next). */
    public pending = false,
  ) {}

  /** Appends one piece (a message, or the joining space); returns what to append to the normalized text and where the piece's text starts in it. */
  push(piece: string): { emitted: string; lead: number } {
    let s = piece.toLowerCase().replace(/\s+/g, " ");
    if (s === "") return { emitted: "", lead: 0 };
    const leadingSpace = s.startsWith(" ");
    if (leadingSpace) s = s.slice(1);
    if (s === "") {
      if (this.started) this.pending = true;
      return { emitted: "", lead: 0 };
    }
    const trailingSpace = s.endsWith(" ");
    if (trailingSpace) s = s.slice(0, -1);
    const space = this.started && (this.pending || leadingSpace);
    this.started = true;
    this.pending = trailingSpace;
    return { emitted: space ? ` ${s}` : s, lead: space ? 1 : 0 };
  }
}
