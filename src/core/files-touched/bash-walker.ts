// Walks a bash syntax tree in execution order and records file actions.
//
// Shell semantics kept: lists and `&&`/`||` run in the same shell (a `cd`
// carries on); pipelines, subshells, `$(…)`, `<(…)`, `&` and `bash -c` run in
// a child shell (a `cd` there does not); if/case branches and loop bodies are
// alternatives, after which the directory is known only when they agree.
// Function bodies are analysed where they are defined, in a child state.
// Heredoc and here-string bodies are data.

import type { ShNode } from "./bash-syntax";
import { expandWord, literalWord, pushExpandedWord, type Arg } from "./shell-words";
import { assignState, cloneState, mergeStates, type ShellState } from "./shell-state";
import { redirectAction, splitRedirects, type RedirectParts } from "./redirects";
import { CommandRunner } from "./command-runner";
import type { WalkerHost } from "./walker-host";

export type { WalkerHost } from "./walker-host";

const STATEMENT_CONTAINERS = new Set(["program", "compound_statement", "do_group", "else_clause"]);
const CHILD_SHELLS = new Set(["subshell", "command_substitution", "process_substitution"]);
const MAX_LOOP_VALUES = 64;
/** splitRedirects of no redirections (read only). */
const NO_REDIRECTS: RedirectParts = { redirects: [], extraArgs: [], following: [] };

export class BashWalker {
  private readonly runner: CommandRunner;

  constructor(host: WalkerHost, depth: number) {
    this.runner = new CommandRunner(host, depth);
  }

  walk(node: ShNode, state: ShellState): void {
    if (STATEMENT_CONTAINERS.has(node.type)) {
      this.walkBackgroundAware(node.children, state);
      return;
    }
    switch (node.type) {
      case "list":
        this.walkBackgroundAware(node.children, state);
        return;
      case "negated_command":
        for (const child of node.children) if (child.named) this.walk(child, state);
        return;
      case "pipeline":
        for (const child of node.children) if (child.named) this.walk(child, cloneState(state));
        return;
      case "subshell":
        this.walkBackgroundAware(node.children, cloneState(state));
        return;
      case "redirected_statement":
        this.walkRedirected(node, state);
        return;
      case "command":
        this.walkCommand(node, state, [], []);
        return;
      case "variable_assignment":
        this.assign(node, state);
        return;
      case "variable_assignments":
      case "declaration_command":
        this.walkSubstitutions(node, state);
        for (const child of node.children) if (child.type === "variable_assignment") this.assign(child, state);
        return;
      case "unset_command":
        for (const child of node.children) if (child.named) state.vars.set(child.text, null);
        return;
      case "if_statement":
        this.walkIf(node, state);
        return;
      case "case_statement":
        this.walkCase(node, state);
        return;
      case "for_statement":
        this.walkFor(node, state);
        return;
      case "while_statement":
      case "c_style_for_statement":
        this.walkLoop(node, state);
        return;
      case "function_definition":
        for (const child of node.children) if (child.field === "body") this.walk(child, cloneState(state));
        return;
      case "comment":
      case "ERROR":
        return;
      default:
        this.walkSubstitutions(node, state);
    }
  }

  /** Statements in order; one followed by `&` runs in the background, in a child shell. */
  private walkBackgroundAware(children: readonly ShNode[], state: ShellState): void {
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!child.named) continue;
      const background = children[i + 1]?.type === "&";
      this.walk(child, background ? cloneState(state) : state);
    }
  }

  /** Runs the commands inside `$(…)` and `<(…)` found anywhere under `node`. */
  walkSubstitutions(node: ShNode, state: ShellState): void {
    for (const child of node.children) {
      if (child.type === "command_substitution" || child.type === "process_substitution") {
        this.walkBackgroundAware(child.children, cloneState(state));
      } else if (child.type !== "heredoc_body" && child.type !== "herestring_redirect" && !CHILD_SHELLS.has(node.type)) {
        this.walkSubstitutions(child, state);
      }
    }
  }

  private assign(node: ShNode, state: ShellState): void {
    this.walkSubstitutions(node, state);
    const name = node.children.find((c) => c.field === "name");
    const value = node.children.find((c) => c.field === "value");
    if (!name || name.type !== "variable_name") return;
    if (node.children.some((c) => c.type === "+=")) {
      state.vars.set(name.text, null);
      return;
    }
    state.vars.set(name.text, value ? (literalWord(value, state.vars) ?? null) : "");
  }

  private walkRedirected(node: ShNode, state: ShellState): void {
    const body = node.children.find((c) => c.field === "body");
    const redirectNodes = node.children.filter((c) => c.field === "redirect");
    if (body && (body.type === "list" || body.type === "pipeline")) {
      // tree-sitter-bash hangs `a && b > f` and `a | b > f` on the whole list;
      // in bash the redirection belongs to the last command only.
      this.walk(attachToLast(body, redirectNodes), state);
      return;
    }
    const { redirects, extraArgs, following } = splitRedirects(redirectNodes);
    if (body?.type === "command") {
      this.walkCommand(body, state, redirects, extraArgs);
    } else {
      for (const r of redirects) this.redirect(r, state);
      if (body) this.walk(body, state);
    }
    for (const next of following) this.walk(next, next.type === "pipeline" ? cloneState(state) : state);
  }

  private redirect(node: ShNode, state: ShellState): void {
    this.walkSubstitutions(node, state);
    const action = redirectAction(node, state.vars);
    if (action) this.runner.touch(action.op, action.target, state);
  }

  private walkCommand(node: ShNode, state: ShellState, outerRedirects: ShNode[], extraArgs: ShNode[]): void {
    this.walkSubstitutions(node, state);
    for (const a of extraArgs) this.walkSubstitutions(a, state);
    let nameNode: ShNode | undefined;
    const argNodes: ShNode[] = [];
    const redirectNodes: ShNode[] = [];
    for (const child of node.children) {
      if (child.field === "name") nameNode = child.children.find((c) => c.named) ?? child;
      else if (child.field === "argument") argNodes.push(child);
      else if (child.field === "redirect") redirectNodes.push(child);
      else if (child.named && child.type !== "variable_assignment" && child.type !== "herestring_redirect" && child.type !== "comment") {
        // `time ( … )`, `time { …; }`: the grammar hangs the timed block here.
        this.walk(child, CHILD_SHELLS.has(child.type) ? cloneState(state) : state);
      }
    }
    const { redirects, extraArgs: moreArgs } = redirectNodes.length > 0 ? splitRedirects(redirectNodes) : NO_REDIRECTS;
    for (const r of redirects) this.redirect(r, state);
    for (const r of outerRedirects) this.redirect(r, state);
    if (!nameNode) return;
    const words: Arg[] = [];
    pushExpandedWord(words, nameNode, state.vars);
    for (const w of argNodes) pushExpandedWord(words, w, state.vars);
    for (const w of moreArgs) pushExpandedWord(words, w, state.vars);
    for (const w of extraArgs) pushExpandedWord(words, w, state.vars);
    this.runner.run(words, state);
  }

  private walkIf(node: ShNode, state: ShellState): void {
    // Conditions always run; then exactly one body (or none without an else).
    const branches: ShellState[] = [];
    let current: ShellState | undefined;
    const finishBranch = () => {
      if (current) branches.push(current);
      current = undefined;
    };
    for (const child of node.children) {
      if (child.type === "then") current = cloneState(state);
      else if (child.type === "elif_clause") {
        finishBranch();
        // Its condition and body both belong to this alternative.
        const clause = cloneState(state);
        for (const c of child.children) if (c.named) this.walk(c, clause);
        branches.push(clause);
      } else if (child.type === "else_clause") {
        finishBranch();
        const clause = cloneState(state);
        this.walk(child, clause);
        branches.push(clause);
      } else if (child.named) {
        this.walk(child, current ?? state);
      }
    }
    finishBranch();
    if (!node.children.some((c) => c.type === "else_clause")) branches.push(cloneState(state));
    assignState(state, mergeStates(branches));
  }

  private walkCase(node: ShNode, state: ShellState): void {
    this.walkSubstitutions({ ...node, children: node.children.filter((c) => c.field === "value") }, state);
    const branches: ShellState[] = [cloneState(state)];
    for (const item of node.children) {
      if (item.type !== "case_item") continue;
      const branch = cloneState(state);
      for (const c of item.children) if (c.named && c.field !== "value") this.walk(c, branch);
      branches.push(branch);
    }
    assignState(state, mergeStates(branches));
  }

  private walkFor(node: ShNode, state: ShellState): void {
    const variable = node.children.find((c) => c.field === "variable")?.text;
    const body = node.children.find((c) => c.field === "body");
    const valueNodes = node.children.filter((c) => c.field === "value");
    for (const v of valueNodes) this.walkSubstitutions(v, state);
    if (!body || variable === undefined) return;
    const values = valueNodes.flatMap((v) => expandWord(v, state.vars));
    if (valueNodes.length > 0 && values.length <= MAX_LOOP_VALUES) {
      for (const value of values) {
        state.vars.set(variable, value.known ? value.value : null);
        this.walk(body, state);
      }
      return;
    }
    const once = cloneState(state);
    once.vars.set(variable, null);
    this.walk(body, once);
    assignState(state, mergeStates([state, once]));
  }

  private walkLoop(node: ShNode, state: ShellState): void {
    const once = cloneState(state);
    for (const child of node.children) if (child.named) this.walk(child, once);
    assignState(state, mergeStates([state, once]));
  }
}

/** `body` with its last command wrapped in a redirected_statement carrying `redirects`. */
function attachToLast(body: ShNode, redirects: readonly ShNode[]): ShNode {
  const children = [...body.children];
  let i = children.length - 1;
  while (i >= 0 && (!children[i]!.named || children[i]!.type === "comment")) i--;
  if (i < 0) return body;
  const last = children[i]!;
  children[i] =
    last.type === "list" || last.type === "pipeline"
      ? attachToLast(last, redirects)
      : {
          type: "redirected_statement",
          named: true,
          field: last.field,
          text: last.text,
          start: last.start,
          end: last.end,
          children: [{ ...last, field: "body" }, ...redirects],
        };
  return { ...body, children };
}
