// Downloads and archives: curl -o/-O, wget -O (or the URL's file name),
// tar -c/-x/-t -f ARCHIVE, zip/unzip. Files inside an archive are unknown.

import type { Arg } from "../shell-words";
import type { CommandContext, CommandHandler } from "./context";
import { argText, isDevicePath } from "./context";
import { has, parseOptions, values } from "./options";

function urlFileName(url: string | undefined): string | undefined {
  if (url === undefined || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return undefined;
  const path = url.replace(/[?#].*$/s, "").replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === "" ? undefined : decodeURIComponentSafe(name);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function curlCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "oXHdFuAeEmTbcwrxyYzCKDQtUPz",
    longWithValue: ["output", "request", "header", "data", "data-raw", "data-binary", "data-urlencode", "form", "user", "user-agent", "referer", "max-time", "connect-timeout", "config", "dump-header", "cookie", "cookie-jar", "upload-file", "write-out", "range", "proxy", "retry", "url", "output-dir", "cert", "key", "cacert", "time-cond", "trace", "trace-ascii", "stderr", "limit-rate", "max-filesize", "resolve", "interface", "netrc-file"],
    aliases: { output: "o", "remote-name": "O", "upload-file": "T", config: "K", "dump-header": "D", "cookie-jar": "c", "output-dir": "output-dir" },
  });
  for (const out of values(parsed, "o")) if (!isDevicePath(out) && argText(out) !== "-") cx.write(out);
  for (const f of values(parsed, "T", "K")) cx.read(f);
  for (const f of values(parsed, "D", "c", "trace", "trace-ascii", "stderr")) if (!isDevicePath(f) && argText(f) !== "-") cx.write(f);
  for (const d of [...values(parsed, "d", "data", "data-binary")]) {
    const text = argText(d);
    if (text?.startsWith("@") && text.length > 1 && text !== "@-") cx.read({ known: true, value: text.slice(1) });
  }
  if (has(parsed, "O", "remote-name-all")) {
    const dir = argText(values(parsed, "output-dir")[0]);
    for (const url of [...parsed.operands, ...values(parsed, "url")]) {
      const name = urlFileName(argText(url));
      if (name) cx.write({ known: true, value: dir ? `${dir}/${name}` : name });
    }
  }
}

function wgetCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, {
    shortWithValue: "OoaPiUeTtwlQADRIXB",
    longWithValue: ["output-document", "output-file", "append-output", "directory-prefix", "input-file", "user-agent", "execute", "timeout", "tries", "wait", "level", "quota", "accept", "reject", "domains", "include-directories", "exclude-directories", "base", "header", "post-data", "post-file", "user", "password", "load-cookies", "save-cookies"],
    aliases: { "output-document": "O", "output-file": "o", "append-output": "a", "directory-prefix": "P", "input-file": "i" },
  });
  const out = values(parsed, "O")[0];
  for (const f of values(parsed, "i", "post-file", "load-cookies")) cx.read(f);
  for (const f of values(parsed, "o", "save-cookies")) cx.write(f);
  for (const f of values(parsed, "a")) cx.edit(f);
  if (out) {
    if (!isDevicePath(out) && argText(out) !== "-") cx.write(out);
    return;
  }
  if (has(parsed, "r", "recursive", "m", "mirror", "spider")) return;
  const prefix = argText(values(parsed, "P")[0]);
  for (const url of parsed.operands) {
    const name = urlFileName(argText(url));
    if (name) cx.write({ known: true, value: prefix ? `${prefix}/${name}` : name });
  }
}

// tar: the mode letter may come as `-czf`, `czf` (old style) or `--create`.
function tarCommand(args: Arg[], cx: CommandContext): void {
  let mode: "c" | "x" | "t" | "r" | undefined;
  let archive: Arg | undefined;
  const first = argText(args[0]);
  const normalized = first !== undefined && /^[a-zA-Z]+$/.test(first) ? [{ known: true as const, value: `-${first}` }, ...args.slice(1)] : args;
  for (let i = 0; i < normalized.length; i++) {
    const text = argText(normalized[i]);
    if (text === undefined || !text.startsWith("-")) continue;
    if (text.startsWith("--")) {
      const [name, value] = text.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (name === "create") mode = "c";
      else if (name === "extract" || name === "get") mode = "x";
      else if (name === "list") mode = "t";
      else if (name === "append") mode = "r";
      else if (name === "file") archive = value !== undefined ? { known: true, value } : normalized[++i];
      else if (name === "directory" && value === undefined) i++;
      continue;
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j]!;
      if ("cxtr".includes(letter)) mode = letter as "c" | "x" | "t" | "r";
      else if (letter === "u") mode = "r";
      else if (letter === "f" || letter === "C") {
        const value = j + 1 < text.length ? { known: true as const, value: text.slice(j + 1) } : normalized[++i];
        if (letter === "f") archive = value;
        break;
      }
    }
  }
  if (!archive || argText(archive) === "-" || isDevicePath(archive)) return;
  if (mode === "c") cx.write(archive);
  else if (mode === "r") cx.edit(archive);
  else if (mode === "x" || mode === "t") cx.read(archive);
}

function zipCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { shortWithValue: "bnPtxiZO", longWithValue: [] });
  const [archive] = parsed.operands;
  if (archive) cx.write(archive.known && !/\.[a-z0-9]+$/i.test(archive.value) ? { known: true, value: `${archive.value}.zip` } : archive);
}

function unzipCommand(args: Arg[], cx: CommandContext): void {
  const parsed = parseOptions(args, { shortWithValue: "dxP", longWithValue: [] });
  const [archive] = parsed.operands;
  if (archive) cx.read(archive);
}

export const transferCommands: Record<string, CommandHandler> = {
  curl: curlCommand,
  wget: wgetCommand,
  tar: tarCommand,
  zip: zipCommand,
  unzip: unzipCommand,
};
