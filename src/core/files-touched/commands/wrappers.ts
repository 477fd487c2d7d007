// Commands that run another command (sudo, env, time, nohup, nice, timeout,
// xargs, find -exec, bash -c, eval) and the builtins that move the shell's
// current directory (cd, pushd, popd).

import { looksLikeFile } from "../paths";
import type { Arg } from "../shell-words";
import type { CommandContext, CommandHandler } from "./context";
import { argText } from "./context";
import { has, parseOptions, values, type OptionSpec } from "./options";

const UNKNOWN: Arg = { known: false, raw: "" };
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** `NAME=value`, also when the value is only known at run time (`PATH="$PATH"`). */
function isAssignment(arg: Arg | undefined): boolean {
  if (!arg) return false;
  return ASSIGNMENT.test(arg.known ? arg.value : arg.raw);
}

/** A wrapper: skip its own options (POSIX style: they end at the command), run the rest. */
function wrapper(spec: OptionSpec, skipBeforeCommand = 0): CommandHandler {
  return (args, cx) => {
    const parsed = parseOptions(args, { ...spec, stopAtFirstOperand: true });
    cx.run(parsed.rest.slice(skipBeforeCommand));
  };
}

function sudoCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "ughpCDrtUTR",
    longWithValue: ["user", "group", "host", "prompt", "close-from", "chdir", "role", "type", "other-user", "command-timeout", "chroot"],
    aliases: { chdir: "D" },
    stopAtFirstOperand: true,
  });
  let rest = parsed.rest;
  while (rest.length > 0 && isAssignment(rest[0])) rest = rest.slice(1);
  const dir = values(parsed, "D")[0];
  if (dir) cx.withDirectory(dir, () => cx.run(rest));
  else cx.run(rest);
}

function envCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "uCS",
    longWithValue: ["unset", "chdir", "split-string", "block-signal", "default-signal", "ignore-signal"],
    aliases: { unset: "u", chdir: "C", "split-string": "S" },
    stopAtFirstOperand: true,
  });
  let rest = parsed.rest;
  while (rest.length > 0 && isAssignment(rest[0])) rest = rest.slice(1);
  const split = values(parsed, "S")[0];
  const run = () => {
    if (split) {
      const text = argText(split);
      const restText = rest.map((a) => (a.known ? quote(a.value) : undefined));
      if (text === undefined || restText.includes(undefined)) return;
      cx.runScript({ known: true, value: [text, ...restText].join(" ") });
    } else cx.run(rest);
  };
  const dir = values(parsed, "C")[0];
  if (dir) cx.withDirectory(dir, run);
  else run();
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function commandBuiltin(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { stopAtFirstOperand: true });
  if (has(parsed, "v", "V")) return;
  cx.run(parsed.rest);
}

function timeoutCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "sk",
    longWithValue: ["signal", "kill-after"],
    stopAtFirstOperand: true,
  });
  cx.run(parsed.rest.slice(1));
}

function niceCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { shortWithValue: "n", longWithValue: ["adjustment"], numericOptions: true, stopAtFirstOperand: true });
  cx.run(parsed.rest);
}

// xargs appends arguments read from stdin (unknown) or substitutes them for
// the -I string: the command's literal arguments still count.
function xargsCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "IinPLdsEeaS",
    longWithValue: ["max-args", "max-procs", "max-lines", "delimiter", "max-chars", "eof", "arg-file", "replace", "process-slot-var"],
    aliases: { "arg-file": "a", replace: "I", "max-args": "n" },
    stopAtFirstOperand: true,
  });
  for (const f of values(parsed, "a")) cx.read(f);
  const replace = argText(values(parsed, "I")[0]) ?? (has(parsed, "i") ? "{}" : undefined);
  const command = parsed.rest.length > 0 ? parsed.rest : [{ known: true as const, value: "echo" }];
  if (replace !== undefined && replace !== "") {
    cx.run(command.map((a) => (a.known && a.value.includes(replace) ? UNKNOWN : a)));
  } else {
    cx.run([...command, UNKNOWN]);
  }
}

// find START… EXPRESSION: `-exec CMD {} ;`/`+` runs CMD with `{}` unknown
// (or the start path itself when it is a single file), `-delete` deletes only
// a start path that is a file; `-fprint FILE` writes FILE.
function findCommand(args: Arg[], cx: CommandContext): void {
  let i = 0;
  while (i < args.length) {
    const text = argText(args[i]);
    if (text === "-H" || text === "-L" || text === "-P") i++;
    else if (text !== undefined && /^-(D|O\d*)$/.test(text)) i += text === "-D" ? 2 : 1;
    else break;
  }
  const starts: Arg[] = [];
  while (i < args.length) {
    const text = argText(args[i]);
    if (text !== undefined && (text.startsWith("-") || text === "(" || text === "!")) break;
    starts.push(args[i]!);
    i++;
  }
  const single = starts.length === 1 && looksLikeFile(argText(starts[0]) ?? "") ? starts[0] : undefined;
  for (; i < args.length; i++) {
    const text = argText(args[i]);
    if (text === "-exec" || text === "-execdir" || text === "-ok" || text === "-okdir") {
      const command: Arg[] = [];
      for (i++; i < args.length; i++) {
        const word = argText(args[i]);
        if (word === ";" || (word === "+" && argText(args[i - 1]) === "{}")) break;
        command.push(args[i]!);
      }
      const run = () => cx.run(command.map((a) => (a.known && a.value.includes("{}") ? (single && a.value === "{}" ? single : UNKNOWN) : a)));
      if (text === "-execdir" || text === "-okdir") cx.withDirectory(undefined, run);
      else run();
    } else if (text === "-delete") {
      if (single) cx.delete(single);
    } else if (text === "-fprint" || text === "-fprint0" || text === "-fls" || text === "-fprintf") {
      cx.write(args[++i]);
      if (text === "-fprintf") i++;
    }
  }
}

// bash/sh -c 'SCRIPT' [arg0 args…]: the script is parsed like the outer command.
// Without -c the first operand is a script file: what it does is unknown.
function shellCommand(args: Arg[], cx: CommandContext): void {
  let commandMode = false;
  for (let i = 0; i < args.length; i++) {
    const text = argText(args[i]);
    if (text === "--" || text === "-") {
      if (commandMode) cx.runScript(args[i + 1]);
      return;
    }
    if (text === undefined || !/^[-+]/.test(text)) {
      if (commandMode) cx.runScript(args[i]);
      return;
    }
    if (text.startsWith("--")) {
      if (text === "--rcfile" || text === "--init-file") i++;
      continue;
    }
    // A cluster like -euo takes one value per o/O (`-euo pipefail`).
    for (const letter of text.slice(1)) {
      if (letter === "c") commandMode = true;
      else if (letter === "o" || letter === "O") i++;
    }
  }
}

// watch runs its arguments joined with spaces through `sh -c`.
function watchCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { shortWithValue: "nq", longWithValue: ["interval", "differences"], stopAtFirstOperand: true });
  if (parsed.rest.length === 0 || parsed.rest.some((a) => !a.known)) return;
  cx.runScript({ known: true, value: parsed.rest.map((a) => argText(a)).join(" ") });
}

function evalCommand(args: Arg[], cx: CommandContext): void {
  if (args.length === 0 || args.some((a) => !a.known)) return;
  cx.runScript({ known: true, value: args.map((a) => argText(a)).join(" ") }, true);
}

function cdCommand(args: Arg[], cx: CommandContext): void {
  const operands = args.filter((a) => !/^-[LPe@]+$/.test(argText(a) ?? ""));
  cx.chdir(operands[0] ?? { known: true, value: "~" });
}

function pushdCommand(args: Arg[], cx: CommandContext): void {
  const operands = args.filter((a) => argText(a) !== "-n");
  const first = argText(operands[0]);
  if (operands.length === 0 || first === undefined || /^[+-]\d+$/.test(first)) cx.chdir(undefined);
  else cx.pushd(operands[0]);
}

export const wrapperCommands: Record<string, CommandHandler> = {
  sudo: sudoCommand,
  doas: wrapper({ shortWithValue: "uC" }),
  env: envCommand,
  command: commandBuiltin,
  builtin: wrapper({}),
  exec: wrapper({ shortWithValue: "a" }),
  time: wrapper({ shortWithValue: "fo", longWithValue: ["format", "output"] }),
  nohup: wrapper({}),
  nice: niceCommand,
  timeout: timeoutCommand,
  stdbuf: wrapper({ shortWithValue: "ioe", longWithValue: ["input", "output", "error"] }),
  ionice: wrapper({ shortWithValue: "cnp" }),
  watch: watchCommand,
  npx: wrapper({ shortWithValue: "pc", longWithValue: ["package", "call"] }),
  bunx: wrapper({ shortWithValue: "p", longWithValue: ["package"] }),
  pnpx: wrapper({}),
  xargs: xargsCommand,
  find: findCommand,
  bash: shellCommand,
  sh: shellCommand,
  zsh: shellCommand,
  dash: shellCommand,
  ksh: shellCommand,
  eval: evalCommand,
  cd: cdCommand,
  pushd: pushdCommand,
  popd: (_args, cx) => cx.popd(),
};
