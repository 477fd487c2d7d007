// Commands that create, copy, move and delete files.
//
// Decisions: a recursive copy of a directory names no files (`cp -r src dst`);
// a recursive delete deletes what the session already knows under it (the
// ledger decides) and names no new files; `rm -f file` deletes file. Whether
// an operand of a recursive command is a directory is judged from its
// spelling (see looksLikeFile) and from what the session knows.

import { basename, looksLikeFile } from "../paths";
import type { Arg } from "../shell-words";
import type { CommandContext, CommandHandler } from "./context";
import { argText, isDevicePath } from "./context";
import { has, parseOptions, values } from "./options";

function isDirSpelling(arg: Arg): boolean {
  const text = argText(arg);
  return text !== undefined && (text.endsWith("/") || text === "." || text === ".." || text === "~");
}

function childOf(dir: Arg, file: Arg): Arg {
  const d = argText(dir);
  const f = argText(file);
  if (d === undefined || f === undefined) return { known: false, raw: "" };
  return { known: true, value: `${d.replace(/\/+$/, "")}/${basename(f)}` };
}

function mvCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "tS",
    longWithValue: ["target-directory", "suffix", "backup"],
    aliases: { "target-directory": "t", "no-target-directory": "T" },
  });
  const target = values(parsed, "t")[0];
  if (target) {
    for (const src of parsed.operands) cx.move(src, target, true);
    return;
  }
  const ops = parsed.operands;
  if (ops.length < 2) return;
  const dest = ops[ops.length - 1]!;
  const sources = ops.slice(0, -1);
  const into: boolean | "maybe" = has(parsed, "T") ? false : sources.length > 1 || isDirSpelling(dest) || cx.isKnownDirectory(dest) ? true : "maybe";
  for (const src of sources) cx.move(src, dest, into);
}

function cpCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "tS",
    longWithValue: ["target-directory", "suffix", "backup", "sparse", "reflink", "preserve", "no-preserve"],
    aliases: { "target-directory": "t", "no-target-directory": "T", recursive: "r", archive: "a" },
  });
  const recursive = has(parsed, "r", "R", "a");
  let sources = parsed.operands;
  let dest = values(parsed, "t")[0];
  let intoDir = dest !== undefined;
  if (!dest) {
    if (sources.length < 2) return;
    dest = sources[sources.length - 1]!;
    sources = sources.slice(0, -1);
    intoDir = !has(parsed, "T") && (sources.length > 1 || isDirSpelling(dest) || cx.isKnownDirectory(dest));
  }
  for (const src of sources) {
    const text = argText(src);
    // A source known only at run time still overwrites a named destination file.
    if (text === undefined) {
      if (!recursive && !intoDir && !isDevicePath(dest)) cx.write(dest);
      continue;
    }
    if (recursive && (!looksLikeFile(text) || cx.isKnownDirectory(src))) continue;
    cx.read(src);
    if (!isDevicePath(dest)) cx.write(intoDir ? childOf(dest, src) : dest);
  }
}

function installCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "tgmoSM",
    longWithValue: ["target-directory", "group", "mode", "owner", "suffix", "backup", "strip-program"],
    aliases: { "target-directory": "t", directory: "d" },
  });
  if (has(parsed, "d")) {
    for (const dir of parsed.operands) cx.directory(dir);
    return;
  }
  let sources = parsed.operands;
  let dest = values(parsed, "t")[0];
  let intoDir = dest !== undefined;
  if (!dest) {
    if (sources.length < 2) return;
    dest = sources[sources.length - 1]!;
    sources = sources.slice(0, -1);
    intoDir = sources.length > 1 || isDirSpelling(dest) || cx.isKnownDirectory(dest);
  }
  for (const src of sources) {
    cx.read(src);
    cx.write(intoDir ? childOf(dest, src) : dest);
  }
}

function rmCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { aliases: { recursive: "r", force: "f", dir: "d" } });
  const recursive = has(parsed, "r", "R");
  for (const op of parsed.operands) {
    if (recursive) cx.deleteTree(op);
    else if (!has(parsed, "d") || looksLikeFile(argText(op) ?? "")) cx.delete(op);
  }
}

function lnCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "tS",
    longWithValue: ["target-directory", "suffix", "backup"],
    aliases: { "target-directory": "t", "no-target-directory": "T" },
  });
  const dir = values(parsed, "t")[0];
  const ops = parsed.operands;
  if (dir) {
    for (const target of ops) cx.write(childOf(dir, target));
    return;
  }
  if (ops.length === 1) {
    const target = argText(ops[0]);
    if (target !== undefined) cx.write({ known: true, value: basename(target) });
    return;
  }
  const link = ops[ops.length - 1]!;
  const targets = ops.slice(0, -1);
  const intoDir = !has(parsed, "T") && (targets.length > 1 || isDirSpelling(link) || cx.isKnownDirectory(link));
  for (const target of targets) cx.write(intoDir ? childOf(link, target) : link);
}

function touchCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "dtr",
    longWithValue: ["date", "reference", "time"],
    aliases: { date: "d", reference: "r" },
  });
  for (const ref of values(parsed, "r")) cx.read(ref);
  for (const f of parsed.operands) if (!isDevicePath(f)) cx.write(f);
}

function truncateCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "sro",
    longWithValue: ["size", "reference", "io-blocks"],
    aliases: { size: "s", reference: "r" },
  });
  for (const ref of values(parsed, "r")) cx.read(ref);
  for (const f of parsed.operands) if (!isDevicePath(f)) cx.write(f);
}

function ddCommand(args: Arg[], cx: CommandContext): void {
  for (const arg of args) {
    const text = argText(arg);
    if (text === undefined) continue;
    const m = /^(if|of)=(.*)$/s.exec(text);
    if (!m) continue;
    const file: Arg = { known: true, value: m[2]! };
    if (isDevicePath(file) || m[2] === "") continue;
    if (m[1] === "if") cx.read(file);
    else cx.write(file);
  }
}

function teeCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { longWithValue: ["output-error"], aliases: { append: "a" } });
  const append = has(parsed, "a");
  for (const f of parsed.operands) {
    if (isDevicePath(f)) continue;
    if (append) cx.edit(f);
    else cx.write(f);
  }
}

function mkdirCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { shortWithValue: "mZ", longWithValue: ["mode", "context"] });
  for (const dir of parsed.operands) cx.directory(dir);
}

function unlinkCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {});
  for (const f of parsed.operands) cx.delete(f);
}

export const fileOpCommands: Record<string, CommandHandler> = {
  mv: mvCommand,
  cp: cpCommand,
  install: installCommand,
  rm: rmCommand,
  trash: rmCommand,
  "trash-put": rmCommand,
  unlink: unlinkCommand,
  shred: (args, cx) => {
    const parsed = parseOptions(args, { shortWithValue: "ns", longWithValue: ["iterations", "size", "random-source"] });
    for (const f of parsed.operands) {
      if (has(parsed, "u", "remove")) cx.delete(f);
      else cx.write(f);
    }
  },
  ln: lnCommand,
  touch: touchCommand,
  truncate: truncateCommand,
  dd: ddCommand,
  tee: teeCommand,
  mkdir: mkdirCommand,
};
