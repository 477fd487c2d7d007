import { UsageError } from "./errors";

export interface FlagSpec {
  /** Takes a value (`--leaf ID` or `--leaf=ID`); otherwise a boolean switch. */
  value: boolean;
  /** May be repeated; values are collected. */
  repeat?: boolean;
}

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Map<string, string | true>;
  repeated: Map<string, string[]>;
}

export const GLOBAL_FLAGS: Record<string, FlagSpec> = {
  json: { value: false },
  agent: { value: true },
  "agent-dir": { value: true },
  cwd: { value: true },
  help: { value: false },
  "pi-version": { value: true },
  verbose: { value: false },
};

export function parseArgs(argv: readonly string[], commandFlags: (command: string) => Record<string, FlagSpec> | undefined): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const repeated = new Map<string, string[]>();
  let command: string | undefined;
  let onlyPositionals = false;

  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i]!;
    // A one-letter option a command declares (`export -o OUT`) is the same as `--o`.
    if (!onlyPositionals && /^-[A-Za-z]$/.test(arg) && command !== undefined && commandFlags(command)?.[arg.slice(1)]) arg = `-${arg}`;
    if (onlyPositionals || !arg.startsWith("--") || arg === "--") {
      if (arg === "--" && !onlyPositionals) {
        onlyPositionals = true;
        continue;
      }
      if (command === undefined) command = arg;
      else positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const spec = GLOBAL_FLAGS[name] ?? (command !== undefined ? commandFlags(command)?.[name] : undefined);
    if (!spec) throw new UsageError(`unknown option --${name}${command ? ` for '${command}'` : ""}`);
    let value: string | true = true;
    if (spec.value) {
      if (eq !== -1) value = arg.slice(eq + 1);
      else {
        const next = argv[i + 1];
        if (next === undefined) throw new UsageError(`--${name} needs a value`);
        value = next;
        i++;
      }
    } else if (eq !== -1) {
      throw new UsageError(`--${name} takes no value`);
    }
    if (spec.repeat && typeof value === "string") {
      const list = repeated.get(name) ?? [];
      list.push(value);
      repeated.set(name, list);
    }
    flags.set(name, value);
  }
  return { command, positionals, flags, repeated };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === "string" ? v : undefined;
}

export function boolFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.get(name) === true;
}

export function intFlag(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a non-negative integer, got '${v}'`);
  return Number(v);
}
