// JSON lines that parse to what JSON.stringify would give but are not written
// as JSON.stringify writes them: white space between tokens, escapes it never
// makes (`\/`, `\u0041`, upper-case hex, escaped surrogate pairs), numbers in
// other forms (`1.0`, `1e0`, `-0`, `1e400`), keys written twice (JSON.parse
// keeps the last) or with escaped letters, raw bytes that are not UTF-8. For
// tests of code that reads JSON from its bytes and must fall back to parsing
// wherever the bytes are not canonical. `variation` 0 writes JSON.stringify's
// bytes; `notUtf8` is the chance of a raw 0xff byte in a string, on its own.

import type { SeededRandom } from "./seeded-random.js";

export interface HostileWriter {
  line(value: unknown): Buffer;
}

const hex4 = (code: number, upper: boolean): string => {
  const h = code.toString(16).padStart(4, "0");
  return `\\u${upper ? h.toUpperCase() : h}`;
};

export function hostileWriter(rng: SeededRandom, variation: number, notUtf8 = variation * 0.2): HostileWriter {
  const odd = (): boolean => variation > 0 && rng.chance(variation);
  const space = (): string => (odd() ? rng.pick([" ", "\t", "  "]) : "");
  const chunks: (string | Buffer)[] = [];

  function writeString(text: string, isKey: boolean): void {
    let out = "";
    const canonical = JSON.stringify(text);
    // Walk JSON.stringify's own escaping, replacing single characters now and then.
    for (let i = 1; i < canonical.length - 1; i++) {
      const c = canonical[i]!;
      if (c === "\\") {
        const next = canonical[i + 1]!;
        const length = next === "u" ? 6 : 2;
        const escape = canonical.slice(i, i + length);
        i += length - 1;
        if (odd() && next !== "u") {
          const code = JSON.parse(`"${escape}"`).charCodeAt(0) as number;
          out += hex4(code, rng.chance(0.5));
        } else if (odd() && next === "u") {
          out += escape.toUpperCase().replace("\\U", "\\u");
        } else {
          out += escape;
        }
        continue;
      }
      const code = c.charCodeAt(0);
      if (code >= 0xd800 && code <= 0xdbff && odd()) {
        // An escaped surrogate pair (JSON.stringify writes the character itself).
        out += hex4(code, false) + hex4(canonical.charCodeAt(i + 1), false);
        i++;
      } else if (c === "/" && odd()) {
        out += "\\/";
      } else if (odd() && rng.chance(isKey ? 0.5 : 0.2)) {
        out += hex4(code, rng.chance(0.5));
      } else {
        out += c;
      }
    }
    chunks.push(`"${out}"`);
    if (!isKey && notUtf8 > 0 && rng.chance(notUtf8)) {
      // A byte that is not UTF-8 inside the string (decoded as U+FFFD).
      const last = chunks.pop() as string;
      chunks.push(last.slice(0, -1), Buffer.from([0xff]), '"');
    }
  }

  function writeNumber(n: number): void {
    if (odd()) {
      // The same number written otherwise (toPrecision(17) reads back as the same double).
      const plain = JSON.stringify(n);
      const forms = [n.toPrecision(17)];
      if (!plain.includes("e")) forms.push(`${plain}e0`, `${plain}E+0`, plain.includes(".") ? `${plain}0` : `${plain}.0`);
      if (n === 0) forms.push("-0");
      chunks.push(rng.pick(forms));
    } else {
      chunks.push(JSON.stringify(n));
    }
  }

  function write(value: unknown): void {
    if (value === null || typeof value === "boolean") chunks.push(JSON.stringify(value));
    else if (typeof value === "number") writeNumber(value);
    else if (typeof value === "string") writeString(value, false);
    else if (Array.isArray(value)) {
      chunks.push("[", space());
      value.forEach((v, i) => {
        if (i > 0) chunks.push(space(), ",", space());
        write(v === undefined ? null : v);
      });
      chunks.push(space(), "]");
    } else if (typeof value === "object") {
      const members = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      // A key written twice: before its own member (that one wins) or after it (this one wins).
      if (members.length > 0 && odd() && rng.chance(0.5)) {
        const [key] = rng.pick(members);
        const junk = rng.pick<unknown>([null, 0, "dup", [], {}, [{ type: "text", text: "dup" }], "toolCall", "text", "assistant", "user", "toolResult"]);
        members.splice(rng.int(0, members.length), 0, [key, junk]);
      }
      chunks.push("{", space());
      members.forEach(([k, v], i) => {
        if (i > 0) chunks.push(space(), ",", space());
        writeString(k, true);
        chunks.push(space(), ":", space());
        write(v);
      });
      chunks.push(space(), "}");
    } else {
      chunks.push("null");
    }
  }

  return {
    line(value) {
      chunks.length = 0;
      chunks.push(space());
      write(value);
      chunks.push(space());
      return Buffer.concat(chunks.map((c) => (typeof c === "string" ? Buffer.from(c, "utf8") : c)));
    },
  };
}
