// git subcommands that change files in the work tree: mv, rm (not --cached),
// checkout -- FILE, restore FILE (not --staged alone), apply (reads the patch).
// Other subcommands (status, diff, add, commit, …) name no file operations.

import type { Arg } from "../shell-words";
import type { CommandContext, CommandHandler } from "./context";
import { argText } from "./context";
import { has, parseOptions } from "./options";
import { looksLikeFile } from "../paths";

function gitMv(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {});
  const ops = parsed.operands;
  if (ops.length < 2) return;
  const dest = ops[ops.length - 1]!;
  const sources = ops.slice(0, -1);
  const destText = argText(dest) ?? "";
  const into = sources.length > 1 || destText.endsWith("/") || destText === "." || cx.isKnownDirectory(dest) ? true : "maybe";
  for (const src of sources) cx.move(src, dest, into);
}

function gitRm(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { shortWithValue: "", longWithValue: ["pathspec-from-file"] });
  if (has(parsed, "cached", "n", "dry-run")) return;
  const recursive = has(parsed, "r");
  for (const op of parsed.operands) {
    if (recursive) cx.deleteTree(op);
    else cx.delete(op);
  }
}

// `git checkout [<tree-ish>] -- <paths>` restores files; without `--` the
// words are branches unless they look like files.
function gitCheckout(args: Arg[], cx: CommandContext): void {
  const dashdash = args.findIndex((a) => argText(a) === "--");
  if (dashdash >= 0) {
    for (const f of args.slice(dashdash + 1)) if (looksLikeFile(argText(f) ?? "")) cx.write(f);
    return;
  }
  const parsed = parseOptions(args, { shortWithValue: "bBU", longWithValue: ["conflict", "orphan", "pathspec-from-file"] });
  if (has(parsed, "b", "B", "orphan")) return;
  const files = parsed.operands.filter((a) => looksLikeFile(argText(a) ?? ""));
  for (const f of files) cx.write(f);
}

function gitRestore(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "s",
    longWithValue: ["source", "conflict", "pathspec-from-file"],
    aliases: { staged: "S", worktree: "W", source: "s" },
  });
  if (has(parsed, "S") && !has(parsed, "W")) return;
  for (const f of parsed.operands) if (looksLikeFile(argText(f) ?? "")) cx.write(f);
}

function gitApply(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "pC",
    longWithValue: ["exclude", "include", "directory", "whitespace", "build-fake-ancestor"],
  });
  for (const patch of parsed.operands) cx.read(patch);
}

const subcommands: Record<string, CommandHandler> = {
  mv: gitMv,
  rm: gitRm,
  checkout: gitCheckout,
  restore: gitRestore,
  apply: gitApply,
  am: gitApply,
};

// Global options before the subcommand; `-C DIR` changes what relative paths mean.
export function gitCommand(args: Arg[], cx: CommandContext): void {
  let dir: Arg | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const text = argText(args[i]);
    if (text === "-C") dir = args[++i];
    else if (text === "-c" || text === "--git-dir" || text === "--work-tree" || text === "--namespace" || text === "--exec-path") i++;
    else if (text === undefined || !text.startsWith("-")) break;
  }
  const sub = argText(args[i]);
  const handler = sub === undefined ? undefined : subcommands[sub];
  if (!handler) return;
  const rest = args.slice(i + 1);
  if (dir) cx.withDirectory(dir, () => handler(rest, cx));
  else handler(rest, cx);
}
