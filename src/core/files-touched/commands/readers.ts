// Commands that read the files they are given: R on each file operand.
// Recursive searches over a directory name no files.

import { looksLikeFile } from "../paths";
import type { Arg } from "../shell-words";
import type { CommandContext, CommandHandler } from "./context";
import { argText, isDevicePath } from "./context";
import { has, parseOptions, values, type OptionSpec } from "./options";

function readAll(args: readonly Arg[], cx: CommandContext): void {
  for (const a of args) if (!isDevicePath(a) && argText(a) !== "-") cx.read(a);
}

/** A reader whose operands are all files, with the options that take values. */
function simpleReader(spec: OptionSpec): CommandHandler {
  return (args, cx) => readAll(parseOptions(args, spec).operands, cx);
}

const headTail: OptionSpec = {
  shortWithValue: "ncsF",
  longWithValue: ["lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"],
  aliases: { lines: "n", bytes: "c" },
  numericOptions: true,
};

function sortCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "kotTS",
    longWithValue: ["key", "output", "field-separator", "temporary-directory", "buffer-size", "parallel", "files0-from", "sort", "random-source", "batch-size", "compress-program"],
    aliases: { key: "k", output: "o", "field-separator": "t" },
  });
  readAll(parsed.operands, cx);
  for (const out of values(parsed, "o")) cx.write(out);
}

function uniqCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "fsw",
    longWithValue: ["skip-fields", "skip-chars", "check-chars", "group", "all-repeated"],
    numericOptions: true,
  });
  const [input, output] = parsed.operands;
  if (input) readAll([input], cx);
  if (output && !isDevicePath(output)) cx.write(output);
}

function jqCommand(args: Arg[], cx: CommandContext): void {
  const rest: Arg[] = [];
  let filterFromFile = false;
  for (let i = 0; i < args.length; i++) {
    const text = argText(args[i]);
    if (text === "--arg" || text === "--argjson") {
      i += 2;
    } else if (text === "--slurpfile" || text === "--rawfile") {
      cx.read(args[i + 2]);
      i += 2;
    } else if (text === "-f" || text === "--from-file") {
      cx.read(args[i + 1]);
      filterFromFile = true;
      i++;
    } else if (text === "--indent" || text === "--tab" || text === "-L") {
      if (text !== "--tab") i++;
    } else if (text === "--args" || text === "--jsonargs") {
      break;
    } else if (text !== undefined && text.startsWith("-") && text !== "-") {
      continue;
    } else {
      rest.push(args[i]!);
    }
  }
  readAll(filterFromFile ? rest : rest.slice(1), cx);
}

// grep/egrep/fgrep: the pattern is the first operand unless -e/-f gave it.
// With -r/-R only operands spelled like files (`src/a.ts`, not `src`) are read.
function grepCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "efmABCdD",
    longWithValue: ["regexp", "file", "max-count", "after-context", "before-context", "context", "include", "exclude", "exclude-dir", "exclude-from", "label", "binary-files", "devices", "directories", "color", "colour", "group-separator"],
    aliases: { regexp: "e", file: "f", recursive: "r", "dereference-recursive": "R" },
  });
  for (const f of values(parsed, "f")) cx.read(f);
  const files = has(parsed, "e", "f") ? parsed.operands : parsed.operands.slice(1);
  const recursive = has(parsed, "r", "R") || values(parsed, "d", "directories").some((v) => argText(v) === "recurse");
  readAll(recursive ? files.filter((f) => looksLikeFile(argText(f) ?? "")) : files, cx);
}

// ripgrep searches directories recursively by default: only file-like operands are read.
function rgCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "efmABCgtTjMEr",
    longWithValue: ["regexp", "file", "max-count", "after-context", "before-context", "context", "glob", "iglob", "type", "type-not", "threads", "max-columns", "encoding", "replace", "max-depth", "max-filesize", "ignore-file", "color", "colors", "sort", "sortr", "type-add", "path-separator", "pre", "pre-glob", "context-separator", "field-match-separator", "engine"],
    aliases: { regexp: "e", file: "f" },
  });
  for (const f of values(parsed, "f")) cx.read(f);
  if (has(parsed, "files", "type-list")) return;
  const files = has(parsed, "e", "f") ? parsed.operands : parsed.operands.slice(1);
  readAll(files.filter((f) => looksLikeFile(argText(f) ?? "")), cx);
}

function diffCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "CUDFIxSXL",
    longWithValue: ["context", "unified", "ifdef", "show-function-line", "ignore-matching-lines", "exclude", "exclude-from", "starting-file", "label", "from-file", "to-file", "width", "line-format", "color", "palette", "tabsize", "horizon-lines"],
    numericOptions: true,
  });
  const recursive = has(parsed, "r", "recursive");
  for (const f of [...parsed.operands, ...values(parsed, "from-file", "to-file")]) {
    if (!recursive || looksLikeFile(argText(f) ?? "")) readAll([f], cx);
  }
}

function sourceCommand(args: Arg[], cx: CommandContext): void {
  if (args[0]) cx.read(args[0]);
}

export const readerCommands: Record<string, CommandHandler> = {
  cat: simpleReader({}),
  tac: simpleReader({ shortWithValue: "s", longWithValue: ["separator"] }),
  nl: simpleReader({ shortWithValue: "bdfhilnsvw" }),
  head: simpleReader(headTail),
  tail: simpleReader(headTail),
  less: simpleReader({ shortWithValue: "bhjkopPtTxyz#" }),
  more: simpleReader({ numericOptions: true }),
  bat: simpleReader({ shortWithValue: "lHmrp", longWithValue: ["language", "highlight-line", "map-syntax", "line-range", "theme", "style", "paging", "color", "wrap", "tabs", "terminal-width", "file-name"] }),
  wc: simpleReader({ longWithValue: ["files0-from"] }),
  cut: simpleReader({ shortWithValue: "bcdf", longWithValue: ["bytes", "characters", "delimiter", "fields", "output-delimiter"] }),
  paste: simpleReader({ shortWithValue: "d", longWithValue: ["delimiters"] }),
  comm: simpleReader({ longWithValue: ["output-delimiter"] }),
  join: simpleReader({ shortWithValue: "aejot12" }),
  column: simpleReader({ shortWithValue: "cstoNOERHdW" }),
  fold: simpleReader({ shortWithValue: "w", longWithValue: ["width"] }),
  strings: simpleReader({ shortWithValue: "nteT", longWithValue: ["bytes", "radix", "encoding", "target"], numericOptions: true }),
  xxd: (args, cx) => {
    const parsed = parseOptions(args, { shortWithValue: "cglosnC", longWithValue: [] });
    readAll(parsed.operands.slice(0, 1), cx);
    if (parsed.operands[1]) cx.write(parsed.operands[1]);
  },
  od: simpleReader({ shortWithValue: "AjNStw", longWithValue: ["address-radix", "skip-bytes", "read-bytes", "strings", "format", "width"] }),
  hexdump: simpleReader({ shortWithValue: "enfsL" }),
  base64: simpleReader({ shortWithValue: "w", longWithValue: ["wrap"] }),
  md5sum: simpleReader({}),
  sha1sum: simpleReader({}),
  sha256sum: simpleReader({}),
  sha512sum: simpleReader({}),
  shasum: simpleReader({ shortWithValue: "a", longWithValue: ["algorithm"] }),
  cksum: simpleReader({ shortWithValue: "al", longWithValue: ["algorithm", "length"] }),
  sort: sortCommand,
  uniq: uniqCommand,
  jq: jqCommand,
  grep: grepCommand,
  egrep: grepCommand,
  fgrep: grepCommand,
  rg: rgCommand,
  diff: diffCommand,
  cmp: (args, cx) => {
    const parsed = parseOptions(args, { shortWithValue: "inI", longWithValue: ["ignore-initial", "bytes"] });
    readAll(parsed.operands.slice(0, 2), cx);
  },
  source: sourceCommand,
  ".": sourceCommand,
};
