// Stream editors that may edit in place: sed, perl, awk/gawk, and patch.
// In place → E on each file (and W on the backup a suffix leaves);
// otherwise they only read their file operands.

import { basename } from "../paths";
import type { Arg } from "../shell-words";
import type { CommandContext, CommandHandler } from "./context";
import { argText, isDevicePath } from "./context";

function files(args: readonly Arg[]): Arg[] {
  return args.filter((a) => !isDevicePath(a) && argText(a) !== "-");
}

/** The backup name a suffix gives: `.bak` → `f.bak`; with `*`, `*` stands for the file name. */
function backupOf(file: Arg, suffix: string): Arg | undefined {
  const path = argText(file);
  if (path === undefined || suffix === "") return undefined;
  if (!suffix.includes("*")) return { known: true, value: `${path}${suffix}` };
  const name = basename(path);
  const backup = suffix.replaceAll("*", name);
  if (backup.includes("/")) return { known: true, value: backup };
  const slash = path.lastIndexOf("/");
  return { known: true, value: slash < 0 ? backup : `${path.slice(0, slash + 1)}${backup}` };
}

function inPlace(targets: readonly Arg[], suffix: string, cx: CommandContext): void {
  for (const f of files(targets)) {
    cx.edit(f);
    const backup = backupOf(f, suffix);
    if (backup) cx.write(backup);
  }
}

// GNU sed: -i[SUF] / --in-place[=SUF] (the suffix is glued to the option, so
// `-ie` means suffix "e"). BSD sed: `-i ''` or `-i .bak` as a separate word.
function sedCommand(args: Arg[], cx: CommandContext): void {
  let suffix: string | undefined;
  let scriptGiven = false;
  const operands: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const text = argText(arg);
    if (text === undefined || text === "-" || !text.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (text === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (text.startsWith("--")) {
      const [name, value] = text.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (name === "in-place") suffix = value ?? "";
      else if (name === "expression") {
        scriptGiven = true;
        if (value === undefined) i++;
      } else if (name === "file") {
        scriptGiven = true;
        cx.read(value === undefined ? args[++i] : { known: true, value });
      } else if (name === "line-length" && value === undefined) i++;
      continue;
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j]!;
      if (letter === "i") {
        suffix = text.slice(j + 1);
        if (suffix === "") {
          // BSD form: the next word is the suffix when it is empty or starts with a dot.
          const next = argText(args[i + 1]);
          if (next !== undefined && (next === "" || (next.startsWith(".") && !next.includes(" ") && args.length > i + 2))) {
            suffix = next;
            i++;
          }
        }
        break;
      }
      if (letter === "e" || letter === "f" || letter === "l") {
        const value = j + 1 < text.length ? { known: true as const, value: text.slice(j + 1) } : args[++i];
        if (letter === "f") cx.read(value);
        if (letter !== "l") scriptGiven = true;
        break;
      }
    }
  }
  const targets = scriptGiven ? operands : operands.slice(1);
  if (suffix !== undefined) inPlace(targets, suffix, cx);
  else for (const f of files(targets)) cx.read(f);
}

// perl: -i[SUF] (suffix glued, the rest of the cluster), -e/-E CODE, -n/-p
// loop over the file operands. Without -e the first operand is the script and
// the rest are the script's own arguments: nothing is known about them.
function perlCommand(args: Arg[], cx: CommandContext): void {
  let suffix: string | undefined;
  let code = false;
  let loop = false;
  let i = 0;
  for (; i < args.length; i++) {
    const text = argText(args[i]);
    if (text === undefined || !text.startsWith("-") || text === "-") break;
    if (text === "--") {
      i++;
      break;
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j]!;
      if (letter === "i") {
        suffix = text.slice(j + 1);
        break;
      }
      if (letter === "e" || letter === "E") {
        code = true;
        if (j + 1 === text.length) i++;
        break;
      }
      if (letter === "n" || letter === "p") loop = true;
      if ("IMmdDxCF0l".includes(letter)) {
        // Options with a glued value (-I dir, -Mmod, -0777, -F:, -l012).
        if ((letter === "I" || letter === "M" || letter === "m") && j + 1 === text.length) i++;
        break;
      }
    }
  }
  if (!code) return;
  const operands = args.slice(i);
  if (suffix !== undefined) inPlace(operands, suffix, cx);
  else if (loop) for (const f of files(operands)) cx.read(f);
}

// awk/gawk: the program is the first operand unless -f gave it; `-i inplace`
// (gawk's in-place extension) edits the files; `-v inplace::suffix=.bak` or
// `INPLACE_SUFFIX` leaves backups. `var=value` operands are assignments.
function awkCommand(args: Arg[], cx: CommandContext): void {
  let programFromFile = false;
  let inplace = false;
  let suffix = "";
  const operands: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const text = argText(arg);
    if (text === undefined || !text.startsWith("-") || text === "-") {
      operands.push(arg);
      continue;
    }
    if (text === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    const long = /^--([a-z-]+)(?:=(.*))?$/s.exec(text);
    const short = /^-([a-zA-Z])(.*)$/s.exec(text);
    const name = long ? long[1]! : short ? short[1]! : "";
    const glued = long ? long[2] : short && short[2] !== "" ? short[2] : undefined;
    const takesValue = ["f", "file", "v", "assign", "F", "field-separator", "i", "include", "l", "load", "E", "exec"].includes(name);
    if (!takesValue) continue;
    const value = glued !== undefined ? glued : argText(args[++i]);
    if (name === "f" || name === "file" || name === "E" || name === "exec") {
      programFromFile = true;
      cx.read(glued !== undefined ? { known: true, value: glued } : args[i]);
    } else if ((name === "i" || name === "include") && (value === "inplace" || value === "inplace.awk")) {
      inplace = true;
    } else if (name === "v" || name === "assign") {
      const m = /^(?:inplace::suffix|INPLACE_SUFFIX)=(.*)$/s.exec(value ?? "");
      if (m) suffix = m[1]!;
    }
  }
  const targets = (programFromFile ? operands : operands.slice(1)).filter((a) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(argText(a) ?? ""));
  if (inplace) inPlace(targets, suffix, cx);
  else for (const f of files(targets)) cx.read(f);
}

// patch [options] [originalfile [patchfile]]; `-i F` reads the patch,
// `-o F` writes the result elsewhere, `-b`/`-z SUF` leave backups.
// Files named only inside the patch are unknown.
function patchCommand(args: Arg[], cx: CommandContext): void {
  const operands: Arg[] = [];
  let output: Arg | undefined;
  let dryRun = false;
  let reverseOrBackup = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const text = argText(arg);
    if (text === undefined || !text.startsWith("-") || text === "-") {
      operands.push(arg);
      continue;
    }
    if (text === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    const m = /^(--[a-z-]+|-[a-zA-Z])(?:=?(.*))?$/s.exec(text);
    const name = m?.[1] ?? text;
    const glued = m?.[2] !== undefined && m[2] !== "" ? m[2] : undefined;
    const next = (): Arg | undefined => (glued !== undefined ? { known: true, value: glued } : args[++i]);
    if (name === "-i" || name === "--input") cx.read(next());
    else if (name === "-o" || name === "--output") output = next();
    else if (name === "--dry-run") dryRun = true;
    else if (name === "-b" || name === "--backup") reverseOrBackup = true;
    else if (["-p", "-d", "--directory", "-D", "--ifdef", "-F", "--fuzz", "-r", "--reject-file", "-V", "--version-control", "-z", "--suffix", "-B", "--prefix", "-Y", "--basename-prefix", "--quoting-style", "--reject-format", "--read-only"].includes(name) && glued === undefined && !/^--.*=/.test(text)) {
      if (!/^-p\d+$/.test(text)) i++;
    }
  }
  const [original, patchFile] = operands;
  if (patchFile) cx.read(patchFile);
  if (dryRun || !original) return;
  if (output && !isDevicePath(output)) {
    cx.read(original);
    cx.write(output);
  } else {
    cx.edit(original);
    if (reverseOrBackup) cx.write(backupOf(original, ".orig"));
  }
}

export const editorCommands: Record<string, CommandHandler> = {
  sed: sedCommand,
  gsed: sedCommand,
  perl: perlCommand,
  awk: awkCommand,
  gawk: awkCommand,
  mawk: awkCommand,
  nawk: awkCommand,
  patch: patchCommand,
};
