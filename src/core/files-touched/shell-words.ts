// Turns a word of the syntax tree into the argument(s) bash would pass:
// quotes and escapes resolved, brace expansion done, variables bound by the
// walker (for-loop values, literal assignments) substituted. Anything only
// known at run time — `$X` without a literal binding, `$(…)`, backticks,
// `$((…))`, globs that would match files, `~user` — makes the argument
// unknown: it still counts as an argument, but names no path.

import type { ShNode } from "./bash-syntax";
import { expandBraces, type QChar } from "./brace-expansion";

export type Arg = { known: true; value: string } | { known: false; raw: string };

/** Variables with a literal value; `null` marks one assigned something unknown. */
export type Vars = Map<string, string | null>;

const MAX_EXPANSIONS = 256;

class Unknown extends Error {}

function pushText(out: QChar[], text: string, quoted: boolean): void {
  for (const ch of text) out.push({ ch, quoted });
}

// Backslash escapes of an unquoted word: `\x` is a quoted x, `\<newline>` vanishes.
function pushUnquotedWord(out: QChar[], text: string): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      const next = text[i + 1]!;
      i++;
      if (next === "\n") continue;
      out.push({ ch: next, quoted: true });
      continue;
    }
    out.push({ ch, quoted: false });
  }
}

// Inside double quotes a backslash only escapes $ ` " \ and newline.
function pushDoubleQuotedText(out: QChar[], text: string): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (next === "$" || next === "`" || next === '"' || next === "\\") {
        out.push({ ch: next, quoted: true });
        i++;
        continue;
      }
      if (next === "\n") {
        i++;
        continue;
      }
    }
    out.push({ ch, quoted: true });
  }
}

const ANSI_C_ESCAPES: Record<string, string> = {
  a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
  "\\": "\\", "'": "'", '"': '"', "?": "?",
};

function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\" || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[i + 1]!;
    if (next in ANSI_C_ESCAPES) {
      out += ANSI_C_ESCAPES[next];
      i++;
      continue;
    }
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(body.slice(i + 1));
    if (hex) {
      out += String.fromCharCode(parseInt(hex[1]!, 16));
      i += hex[0].length;
      continue;
    }
    const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1));
    if (oct) {
      out += String.fromCharCode(parseInt(oct[0], 8));
      i += oct[0].length;
      continue;
    }
    out += ch;
  }
  return out;
}

function lookup(name: string, vars: Vars, quoted: boolean): string {
  const value = vars.get(name);
  if (value === undefined || value === null) throw new Unknown();
  // Unquoted values are split into fields and globbed; keep only the plain case.
  if (!quoted && /[\s*?[\]]/.test(value)) throw new Unknown();
  return value;
}

function pushExpansion(out: QChar[], node: ShNode, vars: Vars, quoted: boolean): void {
  if (node.type === "simple_expansion") {
    const name = node.children.find((c) => c.type === "variable_name");
    if (!name) throw new Unknown();
    pushText(out, lookup(name.text, vars, quoted), true);
    return;
  }
  // `${name}` only: every other form (`${x:-y}`, `${x%.*}`, `${#x}`, `${a[0]}`) is unknown.
  const inner = node.children.filter((c) => c.named);
  if (inner.length === 1 && inner[0]!.type === "variable_name" && node.text === `\${${inner[0]!.text}}`) {
    pushText(out, lookup(inner[0]!.text, vars, quoted), true);
    return;
  }
  throw new Unknown();
}

function pushNode(out: QChar[], node: ShNode, vars: Vars): void {
  switch (node.type) {
    case "word":
      pushUnquotedWord(out, node.text);
      return;
    case "number":
      pushText(out, node.text, false);
      return;
    case "raw_string":
      pushText(out, node.text.slice(1, -1), true);
      return;
    case "ansi_c_string":
      pushText(out, decodeAnsiC(node.text.slice(2, -1)), true);
      return;
    case "translated_string":
      for (const c of node.children) if (c.type === "string") pushNode(out, c, vars);
      return;
    case "string": {
      // The grammar leaves some text (newlines) between string_content children: keep it.
      let pos = node.start + 1;
      const gap = (upTo: number) => {
        if (upTo > pos) pushDoubleQuotedText(out, node.text.slice(pos - node.start, upTo - node.start));
      };
      for (const c of node.children) {
        if (c.type === '"') continue;
        gap(c.start);
        if (c.type === "string_content") pushDoubleQuotedText(out, c.text);
        else if (c.type === "simple_expansion" || c.type === "expansion") pushExpansion(out, c, vars, true);
        else if (c.named) throw new Unknown();
        else pushText(out, c.text, true);
        pos = Math.max(pos, c.end);
      }
      gap(node.end - 1);
      return;
    }
    case "simple_expansion":
    case "expansion":
      pushExpansion(out, node, vars, false);
      return;
    case "concatenation":
      for (const c of node.children) pushNode(out, c, vars);
      return;
    case "brace_expression":
      pushText(out, node.text, false);
      return;
    case "command_substitution":
    case "process_substitution":
    case "arithmetic_expansion":
    case "extglob_pattern":
      throw new Unknown();
    default:
      if (node.children.some((c) => c.named && c.type !== "word" && c.type !== "number")) throw new Unknown();
      pushUnquotedWord(out, node.text);
  }
}

function finish(chars: QChar[], raw: string): Arg {
  for (const c of chars) {
    if (!c.quoted && (c.ch === "*" || c.ch === "?" || c.ch === "[")) return { known: false, raw };
  }
  // Tilde expansion: only a leading unquoted `~` alone or before `/`.
  if (chars.length > 0 && chars[0]!.ch === "~" && !chars[0]!.quoted) {
    if (chars.length > 1 && chars[1]!.ch !== "/") return { known: false, raw };
  }
  return { known: true, value: chars.map((c) => c.ch).join("") };
}

// Nothing to resolve: no escape, brace, glob character or leading tilde.
const SPECIAL = /[\\{*?[]/;

/** The text of a word, '…' or "…" with nothing to expand (`first`: nothing before it, so a leading `~` would expand); undefined otherwise. */
function plainText(node: ShNode, first: boolean): string | undefined {
  switch (node.type) {
    case "raw_string":
      return node.text.slice(1, -1);
    case "word":
    case "number":
      return (first && node.text[0] === "~") || SPECIAL.test(node.text) ? undefined : node.text;
    case "string": {
      // "…" holding only text without a backslash: every character is quoted as written.
      const [open, content, close] = node.children;
      if (node.children.length === 2 && open?.type === '"' && content?.type === '"') return "";
      if (node.children.length !== 3 || open?.type !== '"' || content?.type !== "string_content" || close?.type !== '"') return undefined;
      if (content.start !== node.start + 1 || content.end !== node.end - 1 || content.text.includes("\\")) return undefined;
      return content.text;
    }
    default:
      return undefined;
  }
}

/** The argument of a word or string with nothing to expand, without the per-character pass (most arguments). */
function plainArg(node: ShNode): Arg | undefined {
  if (node.type === "concatenation") {
    let value = "";
    for (let i = 0; i < node.children.length; i++) {
      const part = plainText(node.children[i]!, value === "");
      if (part === undefined) return undefined;
      value += part;
    }
    return { known: true, value };
  }
  const value = plainText(node, true);
  return value === undefined ? undefined : { known: true, value };
}

/** The argument(s) one word of the syntax tree becomes. */
export function expandWord(node: ShNode, vars: Vars): Arg[] {
  const plain = plainArg(node);
  return plain ? [plain] : expandWordByChars(node, vars);
}

/** expandWord, appended to `out` (the walker's argument list). */
export function pushExpandedWord(out: Arg[], node: ShNode, vars: Vars): void {
  const plain = plainArg(node);
  if (plain) out.push(plain);
  else for (const arg of expandWordByChars(node, vars)) out.push(arg);
}

/** expandWord character by character (exported for the test that checks plainArg against it). */
export function expandWordByChars(node: ShNode, vars: Vars): Arg[] {
  const chars: QChar[] = [];
  try {
    pushNode(chars, node, vars);
  } catch (error) {
    if (error instanceof Unknown) return [{ known: false, raw: node.text }];
    throw error;
  }
  const expanded = expandBraces(chars, MAX_EXPANSIONS);
  if (expanded === undefined) return [{ known: false, raw: node.text }];
  return expanded.map((word) => finish(word, node.text));
}

/** A word that must stay one literal string (assignment values, `case` words). */
export function literalWord(node: ShNode, vars: Vars): string | undefined {
  const args = expandWord(node, vars);
  if (args.length !== 1 || !args[0]!.known) return undefined;
  return args[0]!.value;
}
