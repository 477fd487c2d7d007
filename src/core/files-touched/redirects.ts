// Redirections: which operator, which file. `>`/`>|`/`&>`/`N>` write, `>>`/
// `&>>` append (an edit), `<` reads; duplications (`2>&1`, `>&-`, `<&3`) and
// `/dev/*` name no file; heredoc and here-string bodies are data.

import type { ShNode } from "./bash-syntax";
import { expandWord, type Arg, type Vars } from "./shell-words";

const WRITE_OPS = new Set([">", ">|", "&>"]);
const APPEND_OPS = new Set([">>", "&>>"]);

export interface RedirectParts {
  /** file_redirect nodes that apply to the command. */
  redirects: ShNode[];
  /**
   * Words the grammar attached to a redirect but that are arguments of the
   * command: in `echo hi > out more`, tree-sitter-bash gives the redirect two
   * destinations; only the first is the file.
   */
  extraArgs: ShNode[];
  /**
   * Statements written on the heredoc's line after `<<EOF` (`cat <<EOF | tee f`,
   * `cat <<EOF > f && next`): the grammar nests them in the heredoc node.
   */
  following: ShNode[];
}

export function splitRedirects(nodes: readonly ShNode[]): RedirectParts {
  const parts: RedirectParts = { redirects: [], extraArgs: [], following: [] };
  for (const node of nodes) {
    if (node.type === "file_redirect") {
      parts.redirects.push(node);
      const destinations = node.children.filter((c) => c.field === "destination");
      parts.extraArgs.push(...destinations.slice(1));
    } else if (node.type === "heredoc_redirect") {
      for (const child of node.children) {
        if (child.type === "file_redirect") parts.redirects.push(child);
        else if (child.field === "argument") parts.extraArgs.push(child);
        else if (child.named && !child.type.startsWith("heredoc_") && child.type !== "ERROR") parts.following.push(child);
      }
    }
  }
  return parts;
}

export function redirectAction(node: ShNode, vars: Vars): { op: "R" | "W" | "E"; target: Arg } | undefined {
  if (node.type !== "file_redirect") return undefined;
  const operator = node.children.find((c) => !c.named)?.type;
  const destination = node.children.find((c) => c.field === "destination");
  if (!operator || !destination) return undefined;
  let op: "R" | "W" | "E" | undefined;
  if (operator === "<") op = "R";
  else if (WRITE_OPS.has(operator)) op = "W";
  else if (APPEND_OPS.has(operator)) op = "E";
  else if (operator === ">&" && destination.type !== "number" && destination.text !== "-") op = "W";
  if (!op) return undefined;
  const targets = expandWord(destination, vars);
  const target = targets.length === 1 ? targets[0] : undefined; // several words: "ambiguous redirect"
  if (!target || !target.known || target.value === "" || target.value.startsWith("/dev/") || target.value === "/dev") return undefined;
  return { op, target };
}
