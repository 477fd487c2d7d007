export type Flags = Record<string, string | boolean>;

export interface ParsedArgs {
  command: string | undefined;
  positional: string[];
  flags: Flags;
}

const SHORT_FLAGS: Record<string, string> = {
  h: "help",
  v: "version",
  p: "priority",
  t: "tag",
  d: "due",
  f: "format",
  o: "output",
};

/** Flags that take a value: `--tag work` and `--tag=work` both work. */
const VALUE_FLAGS = new Set(["priority", "tag", "due", "sort", "format", "output"]);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Flags = {};
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i];
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      if (eq !== -1) {
        flags[arg.slice(2, eq)] = arg.slice(eq + 1);
      } else {
        const name = arg.slice(2);
        i += readValue(name, argv[i + 1], flags);
      }
    } else if (arg.startsWith("-") && arg.length > 1) {
      const name = SHORT_FLAGS[arg.slice(1)] ?? arg.slice(1);
      i += readValue(name, argv[i + 1], flags);
    } else {
      positional.push(arg);
    }
    i++;
  }
  const [command, ...rest] = positional;
  return { command, positional: rest, flags };
}

/** Stores the flag and returns how many extra arguments it consumed. */
function readValue(name: string, next: string | undefined, flags: Flags): number {
  if (VALUE_FLAGS.has(name) && next !== undefined && !next.startsWith("-")) {
    flags[name] = next;
    return 1;
  }
  flags[name] = true;
  return 0;
}

export function flagString(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === "string" ? value : undefined;
}

export function flagBool(flags: Flags, name: string): boolean {
  const value = flags[name];
  return value === true || value === "true" || value === "1";
}
