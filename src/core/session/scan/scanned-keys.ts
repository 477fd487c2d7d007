// Which of the keys the index captures a key's bytes name (entry-scanner.ts
// and line-skimmer.ts read keys with these): one candidate by length and first
// byte, then one comparison; an escaped key is decoded first.

import { CAPTURED_KEYS } from "./line-fields.js";
import { bytesEqual, keyText, type SliceableBuffer } from "./scanned-values.js";

const encoder = new TextEncoder();
const CAPTURED_KEY_BYTES = CAPTURED_KEYS.map((k) => encoder.encode(k));
const KEY_MESSAGE = encoder.encode("message");
const KEY_ROLE = encoder.encode("role");
const KEY_TIMESTAMP = encoder.encode("timestamp");
const KEY_CONTENT = encoder.encode("content");
const KEY_USAGE = encoder.encode("usage");

/** Index into CAPTURED_KEYS, -2 for "message", -1 for other keys. */
export function topKeyIndex(b: SliceableBuffer, s: number, e: number, escaped: boolean): number {
  if (escaped) {
    const text = keyText(b, s, e, true);
    if (text === "message") return -2;
    return (CAPTURED_KEYS as readonly string[]).indexOf(text);
  }
  // The one candidate of that length and first byte, then one comparison.
  const c = b[s];
  let k: number;
  switch (e - s) {
    case 2: k = c === 0x69 ? 1 : -1; break; // id
    case 3: k = c === 0x63 ? 8 : -1; break; // cwd
    case 4: k = c === 0x74 ? 0 : c === 0x6e ? 6 : -1; break; // type, name
    case 5: k = c === 0x6c ? 5 : c === 0x75 ? 9 : -1; break; // label, usage
    case 7: return c === 0x6d ? (bytesEqual(b, s, e, KEY_MESSAGE) ? -2 : -1) : c === 0x76 && bytesEqual(b, s, e, CAPTURED_KEY_BYTES[7]!) ? 7 : -1; // message, version
    case 8: k = c === 0x70 ? 2 : c === 0x74 ? 4 : -1; break; // parentId, targetId
    case 9: k = c === 0x74 ? 3 : -1; break; // timestamp
    default: return -1;
  }
  return k >= 0 && bytesEqual(b, s, e, CAPTURED_KEY_BYTES[k]!) ? k : -1;
}

/** Index of a `message` member key: 0 role, 1 timestamp, 2 content, 3 usage, -1 other. */
export function messageKeyIndex(b: SliceableBuffer, s: number, e: number, escaped: boolean): number {
  if (escaped) {
    const text = keyText(b, s, e, true);
    return text === "role" ? 0 : text === "timestamp" ? 1 : text === "content" ? 2 : text === "usage" ? 3 : -1;
  }
  const c = b[s];
  switch (e - s) {
    case 4: return c === 0x72 && bytesEqual(b, s, e, KEY_ROLE) ? 0 : -1;
    case 9: return c === 0x74 && bytesEqual(b, s, e, KEY_TIMESTAMP) ? 1 : -1;
    case 7: return c === 0x63 && bytesEqual(b, s, e, KEY_CONTENT) ? 2 : -1;
    case 5: return c === 0x75 && bytesEqual(b, s, e, KEY_USAGE) ? 3 : -1;
    default: return -1;
  }
}
