// GNU-style option parsing for one command: which options take a value is
// declared per command, so `head -n 20 f` does not read `20` and `touch -d
// DATE f` does not write a file called DATE.

import type { Arg } from "../shell-words";

export interface OptionSpec {
  /** Short options that take a value (`n` for `-n 20` / `-n20`). */
  shortWithValue?: string;
  /** Long options that take a value (`lines` for `--lines 20` / `--lines=20`). */
  longWithValue?: readonly string[];
  /** Long option → the short letter it means, so callers look up one key. */
  aliases?: Readonly<Record<string, string>>;
  /** `-20` (head, tail) is an option, not an operand. */
  numericOptions?: boolean;
  /** Options end at the first operand (POSIX), as for sudo, env, xargs, timeout. */
  stopAtFirstOperand?: boolean;
}

export interface ParsedOptions {
  /** Option key (short letter, or long name without an alias) → values given (`""` for a flag). */
  options: Map<string, Arg[]>;
  operands: Arg[];
  /** Arguments after the first operand when stopAtFirstOperand (the first operand included). */
  rest: Arg[];
}

const FLAG: Arg = { known: true, value: "" };

export function has(parsed: ParsedOptions, ...keys: string[]): boolean {
  return keys.some((k) => parsed.options.has(k));
}

export function values(parsed: ParsedOptions, ...keys: string[]): Arg[] {
  const out: Arg[] = [];
  for (const key of keys) for (const arg of parsed.options.get(key) ?? []) if (arg !== FLAG) out.push(arg);
  return out;
}

export function parseOptions(args: readonly Arg[], spec: OptionSpec): ParsedOptions {
  const options = new Map<string, Arg[]>();
  const operands: Arg[] = [];
  const add = (key: string, value: Arg) => {
    const list = options.get(key);
    if (list) list.push(value);
    else options.set(key, [value]);
  };
  const shortWithValue = spec.shortWithValue ?? "";
  const longWithValue = spec.longWithValue ?? [];
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.known || arg.value === "-" || !arg.value.startsWith("-") || arg.value.length === 1) {
      if (spec.stopAtFirstOperand) break;
      operands.push(arg);
      continue;
    }
    const text = arg.value;
    if (text === "--") {
      i++;
      break;
    }
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const name = eq < 0 ? text.slice(2) : text.slice(2, eq);
      const key = spec.aliases?.[name] ?? name;
      if (eq >= 0) add(key, { known: true, value: text.slice(eq + 1) });
      else if (longWithValue.includes(name) && i + 1 < args.length) add(key, args[++i]!);
      else add(key, FLAG);
      continue;
    }
    if (spec.numericOptions && /^-\d+$/.test(text)) {
      add("#", { known: true, value: text.slice(1) });
      continue;
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j]!;
      if (shortWithValue.includes(letter)) {
        if (j + 1 < text.length) add(letter, { known: true, value: text.slice(j + 1) });
        else if (i + 1 < args.length) add(letter, args[++i]!);
        else add(letter, FLAG);
        break;
      }
      add(letter, FLAG);
    }
  }
  const rest = args.slice(i);
  if (!spec.stopAtFirstOperand) operands.push(...rest);
  return { options, operands, rest: spec.stopAtFirstOperand ? rest : [] };
}
