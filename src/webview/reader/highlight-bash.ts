// A small bash highlighter for the reader: command words, flags, strings,
// variables, operators and comments as classed spans (text only, never HTML).
import { h } from "../dom";

type TokenClass = "cmd" | "flag" | "str" | "var" | "op" | "comment" | "";

const TOKEN = /(#[^\n]*)|('(?:[^'])*'?|"(?:\\.|[^"\\])*"?)|(\$\{[^}]*\}?|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9#?@*$!-])|(\|\||&&|;;|[|;&<>]+|\n)|(\s+)|([^\s|;&<>'"$#]+|[$#'"])/g;

export function bashTokens(command: string): { text: string; cls: TokenClass }[] {
  const out: { text: string; cls: TokenClass }[] = [];
  let expectCommand = true;
  for (const m of command.matchAll(TOKEN)) {
    const [text, comment, str, variable, op, space] = m;
    if (comment !== undefined && (out.length === 0 || /\s$/.test(out[out.length - 1]!.text))) {
      out.push({ text, cls: "comment" });
    } else if (str !== undefined) {
      out.push({ text, cls: "str" });
      expectCommand = false;
    } else if (variable !== undefined) {
      out.push({ text, cls: "var" });
      expectCommand = false;
    } else if (op !== undefined) {
      out.push({ text, cls: "op" });
      expectCommand = !/^[<>]+$/.test(op);
    } else if (space !== undefined) {
      out.push({ text, cls: "" });
    } else if (expectCommand && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
      out.push({ text, cls: "cmd" });
      expectCommand = false;
    } else {
      out.push({ text, cls: text.startsWith("-") ? "flag" : "" });
    }
  }
  return out;
}

export function highlightedBash(command: string): HTMLElement {
  const code = h("code", { className: "language-bash" });
  for (const token of bashTokens(command)) {
    code.append(token.cls ? h("span", { className: `sh-${token.cls}`, text: token.text }) : document.createTextNode(token.text));
  }
  return h("pre", { className: "bash-command" }, code);
}
