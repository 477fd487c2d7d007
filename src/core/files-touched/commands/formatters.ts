// Formatters and fixers that rewrite the files they are given in place (E):
// prettier --write, eslint --fix, black, gofmt -w, rustfmt, ruff format /
// ruff check --fix, isort, clang-format -i, shfmt -w, autopep8 -i, yapf -i.
// Check-only modes only read. Directory operands name no files.

import { looksLikeFile } from "../paths";
import type { Arg } from "../shell-words";
import type { CommandContext, CommandHandler } from "./context";
import { argText } from "./context";
import { has, parseOptions, type OptionSpec } from "./options";

function files(operands: readonly Arg[]): Arg[] {
  return operands.filter((a) => looksLikeFile(argText(a) ?? ""));
}

/** A formatter: E on file operands when `writes(parsed)`, else R. */
function formatter(spec: OptionSpec, writes: (parsed: ReturnType<typeof parseOptions>) => boolean): CommandHandler {
  return (args, cx) => {
    const parsed = parseOptions(args, spec);
    const targets = files(parsed.operands);
    for (const f of targets) {
      if (writes(parsed)) cx.edit(f);
      else cx.read(f);
    }
  };
}

function ruffCommand(args: Arg[], cx: CommandContext): void {
  const [sub, ...rest] = args;
  const parsed = parseOptions(rest, { longWithValue: ["config", "select", "ignore", "extend-select", "line-length", "target-version", "exclude", "output-format"] });
  const targets = files(parsed.operands);
  const writes = argText(sub) === "format" ? !has(parsed, "check", "diff") : argText(sub) === "check" && has(parsed, "fix") && !has(parsed, "diff");
  for (const f of targets) {
    if (writes) cx.edit(f);
    else cx.read(f);
  }
}

export const formatterCommands: Record<string, CommandHandler> = {
  prettier: formatter(
    { longWithValue: ["config", "ignore-path", "parser", "plugin", "print-width", "tab-width", "trailing-comma", "end-of-line", "log-level", "cache-location", "stdin-filepath"] },
    (p) => has(p, "write", "w"),
  ),
  eslint: formatter(
    { shortWithValue: "cfo", longWithValue: ["config", "format", "output-file", "ext", "rule", "plugin", "parser", "env", "global", "ignore-path", "ignore-pattern", "max-warnings", "resolve-plugins-relative-to", "rulesdir", "cache-location"] },
    (p) => has(p, "fix"),
  ),
  black: formatter({ shortWithValue: "lt", longWithValue: ["line-length", "target-version", "config", "include", "exclude", "extend-exclude"] }, (p) => !has(p, "check", "diff")),
  isort: formatter({ longWithValue: ["settings-path", "profile", "line-length"] }, (p) => !has(p, "check-only", "check", "c", "diff")),
  gofmt: formatter({}, (p) => has(p, "w")),
  rustfmt: formatter({ longWithValue: ["edition", "config-path", "config", "emit"] }, (p) => !has(p, "check")),
  "clang-format": formatter({ longWithValue: ["style"] }, (p) => has(p, "i")),
  shfmt: formatter({ shortWithValue: "iln", longWithValue: ["indent", "language-dialect"] }, (p) => has(p, "w", "write")),
  autopep8: formatter({ longWithValue: ["max-line-length", "select", "ignore"] }, (p) => has(p, "i", "in-place")),
  yapf: formatter({ longWithValue: ["style"] }, (p) => has(p, "i", "in-place")),
  ruff: ruffCommand,
};
