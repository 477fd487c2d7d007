// A hand-written parser for the simple commands agents mostly run — words,
// '…' and "…" strings without expansions, `|`, `&&`, `||`, `;`, `&`,
// newlines, file redirections (`>`, `>>`, `<`, `&>`, `&>>`, `>&`, `<&`,
// `>|`, `N>`…) and heredocs with a quoted delimiter — that builds the very
// ShNode tree tree-sitter-bash builds for them, in a fraction of the time.
// It declines (returns undefined) everything else, and whatever it is unsure
// of: `$`, backticks, escapes, comments, brackets, braces, parentheses,
// keywords, assignments, `!`, non-ASCII outside quotes, the few shapes
// tree-sitter reads oddly, and anything it would call an error. Declined
// commands go to tree-sitter; a differential test (simple-bash.test.ts)
// holds the two equal on everything this accepts.
//
// Tree shapes it follows (tree-sitter-bash 0.25.1): `&&`/`||` make left-nested
// `list`s, `|` a flat `pipeline` binding tighter; redirections written after a
// command wrap the whole statement before them since the last terminator
// (`a && b > f` is redirected_statement(list(a && b), > f)), and every word
// after a redirection operator is one of its destinations.

import type { ShNode } from "./sh-node";

// Characters that end a bare word (tree-sitter-bash's SPECIAL_CHARACTERS) or
// make us decline: anything not allowed here and not a quote is declined.
const BARE = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) BARE[c] = 1;
for (const ch of "'\"<>{}[]()`$|&;\\#!") BARE[ch.charCodeAt(0)] = 0;

const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;

// Words tree-sitter may read as keywords (or the start of another construct) in command position.
const KEYWORDS = new Set([
  "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in",
  "function", "declare", "typeset", "export", "readonly", "local", "unset", "unsetenv",
]);

/** Three commands and the two `|` between them. */
const LONG_PIPELINE = 5;
const NUMBER = /^-?(?:0x)?[0-9]+$/;
const HEREDOC_DELIMITER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMMAND_NAME = /^[A-Za-z_./~][A-Za-z0-9_./~-]*$/;

/** Blanks before a heredoc's end line (any Unicode space, to be safe). */
function isBlankAtLineStart(c: number): boolean {
  return c === SPACE || c === TAB || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

class Decline extends Error {}
const DECLINE = new Decline();

type Terminator = ";" | "&" | "\n" | "";

class SimpleBashParser {
  private src = "";
  private i = 0;
  /**
   * The last statement ended with a pipeline of three or more commands.
   * tree-sitter misreads one followed by `&&`/`||` (`a | b | c && d` becomes
   * a | (b | c && d)) or by a newline and a later redirection (the newline is
   * read as a blank): both are left to it.
   */
  private longPipeline = false;

  parse(source: string): ShNode {
    this.src = source;
    this.i = 0;
    this.longPipeline = false;
    return this.program();
  }

  private node(type: string, named: boolean, start: number, end: number, children: ShNode[] = [], field: string | null = null): ShNode {
    return { type, named, field, text: this.src.slice(start, end), start, end, children };
  }

  private code(at = this.i): number {
    return at < this.src.length ? this.src.charCodeAt(at) : -1;
  }

  private skipBlanks(): void {
    for (let c = this.code(); c === SPACE || c === TAB; c = this.code()) this.i++;
  }

  private skipBlanksAndNewlines(): void {
    for (let c = this.code(); c === SPACE || c === TAB || c === NEWLINE; c = this.code()) this.i++;
  }

  program(): ShNode {
    const children: ShNode[] = [];
    this.skipBlanksAndNewlines();
    while (this.i < this.src.length) {
      children.push(this.statement());
      this.skipBlanks();
      const t = this.terminator();
      if (t === "") break;
      if (t !== "\n") children.push(this.node(t, false, this.i - 1, this.i));
      this.skipBlanksAndNewlines();
      if (t === "\n" && this.longPipeline && this.i < this.src.length) throw DECLINE;
    }
    if (this.i < this.src.length || children.length === 0) throw DECLINE;
    // The program starts at its first statement but ends with the source (trailing blanks included).
    return this.node("program", true, children[0]!.start, this.src.length, children);
  }

  /** Consumes `;`, `&` or a newline; "" at the end; declines anything else. */
  private terminator(): Terminator {
    const c = this.code();
    if (c === -1) return "";
    if (c === NEWLINE) {
      this.i++;
      return "\n";
    }
    if (c === 0x3b /* ; */ && this.code(this.i + 1) !== 0x3b) {
      this.i++;
      return ";";
    }
    if (c === 0x26 /* & */ && this.code(this.i + 1) !== 0x26 && this.code(this.i + 1) !== 0x3e) {
      this.i++;
      return "&";
    }
    throw DECLINE;
  }

  /** One statement up to a terminator: commands joined by `|`, `&&`, `||`, with redirections. */
  private statement(): ShNode {
    let left: ShNode | undefined;
    let listOp: ShNode | undefined;
    let pipe: ShNode[] = [];
    const close = (): ShNode => {
      const right = pipe.length === 1 ? pipe[0]! : this.node("pipeline", true, pipe[0]!.start, pipe[pipe.length - 1]!.end, pipe);
      return left && listOp ? this.node("list", true, left.start, right.end, [left, listOp, right]) : right;
    };
    for (;;) {
      pipe.push(this.command());
      if (this.atRedirect()) {
        const body = close();
        body.field = "body";
        const redirects: ShNode[] = [];
        while (this.atRedirect()) {
          if (this.code() === 0x3c && this.code(this.i + 1) === 0x3c) {
            redirects.push(this.heredoc()); // always the last: its body follows the line
            break;
          }
          redirects.push(this.redirect());
        }
        left = listOp = undefined;
        pipe = [this.node("redirected_statement", true, body.start, redirects[redirects.length - 1]!.end, [body, ...redirects])];
      }
      this.skipBlanks();
      const c = this.code();
      const next = this.code(this.i + 1);
      if (c === 0x7c /* | */ && next !== 0x26) {
        const op = next === 0x7c ? "||" : "|";
        const opNode = this.node(op, false, this.i, this.i + op.length);
        this.i += op.length;
        if (op === "|") pipe.push(opNode);
        else {
          if (pipe.length >= LONG_PIPELINE) throw DECLINE; // see longPipeline
          left = close();
          listOp = opNode;
          pipe = [];
        }
      } else if (c === 0x26 /* & */ && next === 0x26) {
        if (pipe.length >= LONG_PIPELINE) throw DECLINE; // see longPipeline
        left = close();
        listOp = this.node("&&", false, this.i, this.i + 2);
        this.i += 2;
        pipe = [];
      } else {
        this.longPipeline = pipe.length >= LONG_PIPELINE;
        return close();
      }
      this.skipBlanksAndNewlines();
    }
  }

  /** A command: a name and its arguments, up to an operator, a terminator or a redirection. */
  private command(): ShNode {
    this.skipBlanks();
    if (this.atRedirect()) throw DECLINE; // redirections before the name: left to tree-sitter
    const name = this.word();
    if (!name) throw DECLINE;
    // In command position tree-sitter's scanner reads `x=`, `x:`, `x%`, `x@`, `-2>`… as
    // variable names or descriptors: only plain names are taken.
    if (name.type !== "word" || !COMMAND_NAME.test(name.text) || KEYWORDS.has(name.text)) throw DECLINE;
    const children: ShNode[] = [this.node("command_name", true, name.start, name.end, [name], "name")];
    for (;;) {
      this.skipBlanks();
      if (this.atRedirect()) break;
      const arg = this.word();
      if (!arg) break;
      if (arg.text.charCodeAt(0) === 0x3d /* = */) throw DECLINE; // `==`, `=~` are operators there
      arg.field = "argument";
      children.push(arg);
    }
    return this.node("command", true, name.start, children[children.length - 1]!.end, children);
  }

  /** Digits right before `<` or `>` (a file descriptor), or a redirection operator. */
  private atRedirect(): boolean {
    let j = this.i;
    while (this.code(j) >= 0x30 && this.code(j) <= 0x39) j++;
    const c = this.code(j);
    if (c === 0x3c || c === 0x3e) {
      // `0>`, `02>`: the scanner does not read these as descriptors (an argument, or an error).
      if (j > this.i && this.code() === 0x30) throw DECLINE;
      return true;
    }
    return j === this.i && c === 0x26 && this.code(j + 1) === 0x3e; // &> and &>>
  }

  private redirect(): ShNode {
    this.skipBlanks();
    const start = this.i;
    const children: ShNode[] = [];
    let j = this.i;
    while (this.code(j) >= 0x30 && this.code(j) <= 0x39) j++;
    if (j > this.i) {
      children.push(this.node("file_descriptor", true, this.i, j, [], "descriptor"));
      this.i = j;
    }
    const op = this.redirectOperator();
    children.push(this.node(op, false, this.i, this.i + op.length));
    this.i += op.length;
    for (;;) {
      this.skipBlanks();
      if (this.atRedirect()) break;
      const destination = this.word();
      if (!destination) break;
      destination.field = "destination";
      children.push(destination);
    }
    if (children[children.length - 1]!.field !== "destination") throw DECLINE;
    return this.node("file_redirect", true, start, children[children.length - 1]!.end, children, "redirect");
  }

  private redirectOperator(): string {
    const c = this.code();
    const next = this.code(this.i + 1);
    const after = this.code(this.i + 2);
    if (c === 0x3e /* > */) {
      if (next === 0x3e) return ">>";
      if (next === 0x7c) return ">|";
      if (next === 0x26 && after !== 0x2d /* - */) return ">&";
      if (next !== 0x26 && next !== 0x28 /* ( */) return ">";
    } else if (c === 0x3c /* < */) {
      if (next === 0x26 && after !== 0x2d) return "<&";
      if (next !== 0x26 && next !== 0x3c && next !== 0x28) return "<";
    } else if (c === 0x26 && next === 0x3e) {
      return after === 0x3e ? "&>>" : "&>";
    }
    throw DECLINE;
  }

  /**
   * A word: bare runs and quoted strings with nothing between them; one part
   * is the part itself, several a concatenation. Undefined at an operator,
   * a terminator or the end.
   */
  private word(): ShNode | undefined {
    const start = this.i;
    // Most words are one part: the array is made only for a concatenation.
    let first: ShNode | undefined;
    let parts: ShNode[] | undefined;
    for (;;) {
      const c = this.code();
      let part: ShNode;
      if (c === 0x27 /* ' */) {
        const end = this.src.indexOf("'", this.i + 1);
        if (end < 0) throw DECLINE;
        part = this.node("raw_string", true, this.i, end + 1);
        this.i = end + 1;
      } else if (c === 0x22 /* " */) {
        part = this.doubleQuoted();
      } else if (c >= 0 && c < 128 && BARE[c] === 1) {
        const from = this.i;
        let d = c;
        while (d >= 0 && d < 128 && BARE[d] === 1) d = this.code(++this.i);
        part = this.node("word", true, from, this.i);
        if (NUMBER.test(part.text)) {
          // A number inside a concatenation is left to tree-sitter.
          if (first || d === 0x27 || d === 0x22) throw DECLINE;
          part.type = "number";
        }
      } else {
        break;
      }
      if (!first) first = part;
      else (parts ??= [first]).push(part);
    }
    const c = this.code();
    if (!first) {
      // Only an operator, a blank or the end may follow; anything else is declined.
      if (c === -1 || c === SPACE || c === TAB || c === NEWLINE || c === 0x7c || c === 0x26 || c === 0x3b || c === 0x3c || c === 0x3e) return undefined;
      throw DECLINE;
    }
    // Not before `<`/`>` either: tree-sitter's scanner may read `-2>`, `_1>` as a file descriptor (digits alone are one: atRedirect).
    if (!(c === -1 || c === SPACE || c === TAB || c === NEWLINE || c === 0x7c || c === 0x26 || c === 0x3b)) throw DECLINE;
    if (parts) return this.node("concatenation", true, start, this.i, parts);
    if (first.text.length === 1 && "*@?-_".includes(first.text) && this.digitOrInputFollows()) {
      throw DECLINE; // tree-sitter drops a lone `-` before `2>` or `<<`: such words there are left to it
    }
    return first;
  }

  private digitOrInputFollows(): boolean {
    let j = this.i;
    while (this.code(j) === SPACE || this.code(j) === TAB) j++;
    return (this.code(j) >= 0x30 && this.code(j) <= 0x39) || this.code(j) === 0x3c;
  }

  /**
   * `<< 'EOF'` or `<<"EOF"` ending its line, a body, and a line that is exactly
   * the delimiter. tree-sitter ends a body at the first line that starts with
   * the delimiter after optional blanks, and starts it after leading blanks:
   * bodies where that differs from bash are declined, as are unquoted
   * delimiters (expansions in the body), `<<-`, and `\` before a line break.
   */
  private heredoc(): ShNode {
    const start = this.i;
    const op = this.node("<<", false, start, start + 2);
    this.i += 2;
    this.skipBlanks();
    const quote = this.code();
    if (quote !== 0x27 && quote !== 0x22) throw DECLINE;
    const close = this.src.indexOf(String.fromCharCode(quote), this.i + 1);
    const delimiter = close < 0 ? "" : this.src.slice(this.i + 1, close);
    if (!HEREDOC_DELIMITER.test(delimiter)) throw DECLINE;
    const startNode = this.node("heredoc_start", true, this.i, close + 1);
    this.i = close + 1;
    this.skipBlanks();
    if (this.code() !== NEWLINE) throw DECLINE;
    const bodyStart = this.i + 1;
    let lineStart = bodyStart;
    for (;;) {
      if (lineStart >= this.src.length) throw DECLINE;
      let lineEnd = this.src.indexOf("\n", lineStart);
      if (lineEnd < 0) lineEnd = this.src.length;
      if (lineEnd - lineStart === delimiter.length && this.src.startsWith(delimiter, lineStart)) break;
      let k = lineStart;
      while (k < lineEnd && isBlankAtLineStart(this.code(k))) k++;
      if (this.src.startsWith(delimiter, k) || this.code(lineEnd - 1) === 0x5c /* \ */) throw DECLINE;
      lineStart = lineEnd + 1;
    }
    if (lineStart === bodyStart || /\s/.test(this.src[bodyStart]!)) throw DECLINE;
    const body = this.node("heredoc_body", true, bodyStart, lineStart);
    const end = this.node("heredoc_end", true, lineStart, lineStart + delimiter.length);
    this.i = end.end;
    return this.node("heredoc_redirect", true, start, end.end, [op, startNode, body, end], "redirect");
  }

  /** "…" with no `$` (but a last one), backtick or line break inside: one string_content (or none). */
  private doubleQuoted(): ShNode {
    const start = this.i;
    let j = this.i + 1;
    // A `$` right before the closing quote (`"^x$"`, a regex anchor) is a token of its own.
    let dollar = false;
    for (;;) {
      const c = this.code(j);
      if (c === 0x24 /* $ */ && this.code(j + 1) === 0x22) {
        dollar = true;
        break;
      }
      if (c === -1 || c === 0x24 || c === 0x60 /* ` */ || c === NEWLINE || c === 0x0d) throw DECLINE;
      if (c === 0x22) break;
      if (c === 0x5c /* \ */) {
        const next = this.code(j + 1);
        if (next === -1 || next === NEWLINE || next === 0x0d) throw DECLINE;
        j += 2;
        continue;
      }
      j++;
    }
    const children = [this.node('"', false, start, start + 1)];
    if (j > start + 1) children.push(this.node("string_content", true, start + 1, j));
    if (dollar) children.push(this.node("$", false, j, ++j));
    children.push(this.node('"', false, j, j + 1));
    this.i = j + 1;
    return this.node("string", true, start, j + 1, children);
  }
}

// One parser, reused: a new object per command would give V8 a hidden class
// that dies with it at the next full GC, taking the optimised code along.
const parser = new SimpleBashParser();

/** The tree tree-sitter-bash gives `source`, when the command is simple enough to be sure; undefined otherwise. */
export function parseSimpleBash(source: string): ShNode | undefined {
  // Control characters other than tab and newline (a carriage return among them) are left to tree-sitter.
  for (let k = 0; k < source.length; k++) {
    const c = source.charCodeAt(k);
    if ((c < 0x20 && c !== TAB && c !== NEWLINE) || c === 0x7f) return undefined;
  }
  try {
    return parser.parse(source);
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}
