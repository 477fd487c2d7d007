// Where a JSON text is broken, found by our own scan: V8's JSON.parse messages
// sometimes give no position and quote a slice of the input (which may hold a
// key), so neither is shown to the user. Only called after JSON.parse failed.

export interface JsonSyntaxProblem {
  /** 0-based offset into the text. */
  position: number;
  reason: string;
}

const MAX_DEPTH = 2000;
const STRUCTURAL = /^[{}[\]:,"]$/;

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(reason: string, position = this.pos): never {
    throw new JsonProblem({ position, reason });
  }

  skipWhitespace(): void {
    while (this.pos < this.text.length && " \t\n\r".includes(this.text[this.pos] as string)) this.pos++;
  }

  describeHere(): string {
    if (this.pos >= this.text.length) return "unexpected end of input";
    const ch = this.text[this.pos] as string;
    return STRUCTURAL.test(ch) ? `unexpected '${ch}'` : "unexpected character";
  }

  value(depth: number): void {
    if (depth > MAX_DEPTH) this.fail("nesting too deep");
    this.skipWhitespace();
    const ch = this.text[this.pos];
    if (ch === "{") return this.object(depth);
    if (ch === "[") return this.array(depth);
    if (ch === '"') return this.string();
    if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) return this.number();
    for (const word of ["true", "false", "null"]) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    this.fail(ch === undefined ? "unexpected end of input" : `expected a value, ${this.describeHere()}`);
  }

  object(depth: number): void {
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] !== '"') this.fail(`expected a double-quoted property name, ${this.describeHere()}`);
      this.string();
      this.skipWhitespace();
      if (this.text[this.pos] !== ":") this.fail(`expected ':' after a property name, ${this.describeHere()}`);
      this.pos++;
      this.value(depth + 1);
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === ",") {
        this.pos++;
        continue;
      }
      if (next === "}") {
        this.pos++;
        return;
      }
      this.fail(`expected ',' or '}' after a property value, ${this.describeHere()}`);
    }
  }

  array(depth: number): void {
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === ",") {
        this.pos++;
        continue;
      }
      if (next === "]") {
        this.pos++;
        return;
      }
      this.fail(`expected ',' or ']' after an array element, ${this.describeHere()}`);
    }
  }

  string(): void {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos] as string;
      if (ch === '"') {
        this.pos++;
        return;
      }
      if (ch === "\\") {
        const esc = this.text[this.pos + 1];
        if (esc === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) this.fail("bad \\u escape in a string");
          this.pos += 6;
          continue;
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) this.fail("bad escape in a string");
        this.pos += 2;
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) this.fail("control character (e.g. a raw line break) inside a string");
      this.pos++;
    }
    this.fail("unterminated string", start);
  }

  number(): void {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos));
    if (!match || match[0] === "" || match[0] === "-") this.fail("bad number");
    this.pos += match[0].length;
  }
}

class JsonProblem extends Error {
  constructor(readonly problem: JsonSyntaxProblem) {
    super(problem.reason);
  }
}

export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.skipWhitespace();
    if (scanner.pos >= text.length) return { position: text.length, reason: "the file is empty" };
    scanner.value(0);
    scanner.skipWhitespace();
    if (scanner.pos < text.length) return { position: scanner.pos, reason: "unexpected text after the JSON value" };
    return undefined;
  } catch (error) {
    if (error instanceof JsonProblem) return error.problem;
    throw error;
  }
}

/** 1-based line and column (in UTF-16 code units) of an offset. */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(position, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
