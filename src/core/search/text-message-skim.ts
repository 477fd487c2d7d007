// The searchable text of a user/assistant message line, read from its bytes
// without building the line: pi's lines hold thinking, signatures and tool
// arguments that search never looks at, and JSON.parse of all of them was
// most of the indexing time. One pass over the structure; the strings it does
// not keep are skipped by finding their closing quote natively (Buffer
// indexOf), so raw control characters and bad escapes inside them — which
// JSON.stringify never writes — are not looked for. Everything else is exact:
// the structure, numbers and literals are checked as JSON.parse checks them,
// duplicate keys resolve to the last as in JSON.parse, and the strings kept
// (type, role, id, timestamp, text) are decoded by JSON.parse. Any line not in
// the common shape — `type` "message", a `message` object with role user or
// assistant and content a string or an array of objects whose text blocks
// have string texts, a string entry timestamp — gives null, and the caller
// parses it (message-text.ts decides those as pi does).

export interface SkimmedTextMessage {
  /** The entry's id when it is a string. */
  id: string | null;
  role: "user" | "assistant";
  /** pi's getMessageActivityTime (NaN when it has none). */
  activity: number;
  /** The entry's timestamp (ms, NaN when it has none): when the message was written, for a hit's time. */
  time: number;
  /** pi's extractTextContent. */
  text: string;
}

/** Thrown (and caught below) when the line is not in the shape handled here. */
const NOT_HANDLED = new Error("not handled");

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const K_TYPE = enc("type");
const K_ID = enc("id");
const K_TIMESTAMP = enc("timestamp");
const K_MESSAGE = enc("message");
const K_ROLE = enc("role");
const K_CONTENT = enc("content");
const K_TEXT = enc("text");

let b: Buffer;
let p = 0;
let end = 0;

function ws(): void {
  while (p < end) {
    const c = b[p]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return;
    p++;
  }
}

function expect(c: number): void {
  if (p >= end || b[p] !== c) throw NOT_HANDLED;
  p++;
}

/** Bytes of a string looked at one by one before the native search takes over (short strings: keys, ids). */
const SHORT_STRING = 48;

/** Skips the string at p (its opening quote); returns where it starts. */
function skipString(): number {
  const start = p;
  let q = p + 1;
  const short = Math.min(end, q + SHORT_STRING);
  while (q < short) {
    const c = b[q]!;
    if (c === QUOTE) {
      p = q + 1;
      return start;
    }
    q += c === BACKSLASH ? 2 : 1;
  }
  for (;;) {
    q = b.indexOf(QUOTE, q);
    if (q < 0 || q >= end) throw NOT_HANDLED;
    let k = q - 1;
    while (b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) break;
    q++;
  }
  p = q + 1;
  return start;
}

function hasBackslash(start: number, stop: number): boolean {
  if (stop - start <= SHORT_STRING) {
    for (let i = start; i < stop; i++) if (b[i] === BACKSLASH) return true;
    return false;
  }
  return b.subarray(start, stop).indexOf(BACKSLASH) >= 0;
}

/** The string token [start, stop) (quotes included), as JSON.parse decodes it. */
function decodeString(start: number, stop: number): string {
  if (hasBackslash(start, stop)) return JSON.parse(b.toString("utf8", start, stop)) as string;
  return b.toString("utf8", start + 1, stop - 1);
}

function skipLiteral(word: string): void {
  for (let i = 0; i < word.length; i++) if (b[p + i] !== word.charCodeAt(i)) throw NOT_HANDLED;
  p += word.length;
  if (p > end) throw NOT_HANDLED;
}

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;

/** Skips a number (JSON's grammar); returns where it starts. */
function skipNumber(): number {
  const start = p;
  if (b[p] === 0x2d) p++;
  if (b[p] === 0x30) p++;
  else if (isDigit(b[p])) while (p < end && isDigit(b[p])) p++;
  else throw NOT_HANDLED;
  if (b[p] === 0x2e) {
    p++;
    if (!isDigit(b[p])) throw NOT_HANDLED;
    while (p < end && isDigit(b[p])) p++;
  }
  if (b[p] === 0x65 || b[p] === 0x45) {
    p++;
    if (b[p] === 0x2b || b[p] === 0x2d) p++;
    if (!isDigit(b[p])) throw NOT_HANDLED;
    while (p < end && isDigit(b[p])) p++;
  }
  if (p > end) throw NOT_HANDLED;
  return start;
}

function number(): number {
  const start = skipNumber();
  return Number(b.toString("latin1", start, p));
}

function skipValue(): void {
  if (p >= end) throw NOT_HANDLED;
  const c = b[p]!;
  if (c === QUOTE) skipString();
  else if (c === 0x7b) members(() => skipValue());
  else if (c === 0x5b) elements(() => skipValue());
  else if (c === 0x74) skipLiteral("true");
  else if (c === 0x66) skipLiteral("false");
  else if (c === 0x6e) skipLiteral("null");
  else skipNumber();
}

/** An object at p; `member(key)` reads each value (p at its first byte) and returns with p after it. */
function members(member: (key: Uint8Array | null) => void, keys: readonly Uint8Array[] = []): void {
  p++;
  ws();
  if (b[p] === 0x7d) {
    p++;
    return;
  }
  for (;;) {
    if (b[p] !== QUOTE) throw NOT_HANDLED;
    const k = skipString();
    // An escaped key may spell one of ours: the caller parses such a line.
    if (hasBackslash(k, p)) throw NOT_HANDLED;
    const key = keyOf(k + 1, p - 1, keys);
    ws();
    expect(0x3a);
    ws();
    member(key);
    ws();
    if (b[p] === 0x2c) {
      p++;
      ws();
      continue;
    }
    expect(0x7d);
    return;
  }
}

function elements(element: () => void): void {
  p++;
  ws();
  if (b[p] === 0x5d) {
    p++;
    return;
  }
  for (;;) {
    element();
    ws();
    if (b[p] === 0x2c) {
      p++;
      ws();
      continue;
    }
    expect(0x5d);
    return;
  }
}

function keyOf(start: number, stop: number, keys: readonly Uint8Array[]): Uint8Array | null {
  outer: for (const key of keys) {
    if (key.length !== stop - start) continue;
    for (let i = 0; i < key.length; i++) if (b[start + i] !== key[i]) continue outer;
    return key;
  }
  return null;
}

/** A string value at p, decoded; anything else is not handled. */
function stringValue(): string {
  if (b[p] !== QUOTE) throw NOT_HANDLED;
  const start = skipString();
  return decodeString(start, p);
}

interface Block {
  isText: boolean;
  text: string | undefined;
}

function contentBlock(): string | null {
  if (b[p] !== 0x7b) {
    // pi's `block.type` of a string, number, boolean or array is undefined (skipped); of null it throws.
    if (b[p] === 0x6e) throw NOT_HANDLED;
    skipValue();
    return null;
  }
  const block: Block = { isText: false, text: undefined };
  let textIsString = true;
  members(
    (key) => {
      if (key === K_TYPE) {
        if (b[p] === QUOTE) block.isText = stringValue() === "text";
        else {
          skipValue();
          block.isText = false;
        }
      } else if (key === K_TEXT) {
        if (b[p] === QUOTE) {
          block.text = stringValue();
          textIsString = true;
        } else {
          skipValue();
          textIsString = false;
        }
      } else skipValue();
    },
    [K_TYPE, K_TEXT],
  );
  if (!block.isText) return null;
  // pi joins whatever `text` holds (undefined, numbers, objects…): the caller parses those.
  if (!textIsString || block.text === undefined) throw NOT_HANDLED;
  return block.text;
}

/** The text message on the line [start, stop) of `bytes`, or null (the caller parses the line). */
export function skimTextMessage(bytes: Buffer, start: number, stop: number): SkimmedTextMessage | null {
  b = bytes;
  p = start;
  end = stop;
  let type: string | undefined;
  let id: string | null = null;
  let timestamp: string | undefined;
  let timestampOther = false;
  let message: { role?: string; content?: string | string[]; timestamp?: number } | undefined;
  try {
    ws();
    if (b[p] !== 0x7b) return null;
    members(
      (key) => {
        if (key === K_TYPE) type = stringValue();
        else if (key === K_ID) {
          if (b[p] === QUOTE) id = stringValue();
          else {
            skipValue();
            id = null;
          }
        } else if (key === K_TIMESTAMP) {
          if (b[p] === QUOTE) {
            timestamp = stringValue();
            timestampOther = false;
          } else {
            skipValue();
            timestampOther = true;
          }
        } else if (key === K_MESSAGE) {
          if (b[p] !== 0x7b) throw NOT_HANDLED;
          const m: NonNullable<typeof message> = {};
          message = m;
          members(
            (mk) => {
              if (mk === K_ROLE) m.role = stringValue();
              else if (mk === K_CONTENT) {
                if (b[p] === QUOTE) m.content = stringValue();
                else if (b[p] === 0x5b) {
                  const texts: string[] = [];
                  elements(() => {
                    const text = contentBlock();
                    if (text !== null) texts.push(text);
                  });
                  m.content = texts;
                } else throw NOT_HANDLED;
              } else if (mk === K_TIMESTAMP) {
                if (b[p] === 0x2d || isDigit(b[p])) m.timestamp = number();
                else {
                  skipValue();
                  m.timestamp = undefined;
                }
              } else skipValue();
            },
            [K_ROLE, K_CONTENT, K_TIMESTAMP],
          );
        } else skipValue();
      },
      [K_TYPE, K_ID, K_TIMESTAMP, K_MESSAGE],
    );
    ws();
    if (p !== end) return null;
  } catch {
    // NOT_HANDLED, or a kept string JSON.parse rejects: the caller parses the line (and skips it as pi does).
    return null;
  } finally {
    b = undefined as unknown as Buffer;
  }
  const m = message as { role?: string; content?: string | string[]; timestamp?: number } | undefined;
  if (type !== "message" || !m || m.content === undefined || (m.role !== "user" && m.role !== "assistant")) return null;
  let activity: number;
  if (typeof m.timestamp === "number") activity = m.timestamp;
  else if (timestampOther) return null;
  else activity = new Date(timestamp as string).getTime();
  const time = typeof timestamp === "string" ? new Date(timestamp).getTime() : Number.NaN;
  return { id, role: m.role, activity, time, text: typeof m.content === "string" ? m.content : m.content.join(" ") };
}
