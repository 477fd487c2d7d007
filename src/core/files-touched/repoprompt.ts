// RepoPrompt tools: `rp` ({call, args}) and `rp_exec` ({cmd}) command strings.
// read_file → R (a `:10-20` line-range suffix is dropped), apply_edits → E,
// file_actions create → W, delete → D, move → M (`new_path`).

export type RpOperation =
  | { op: "R" | "W" | "E" | "D"; path: string }
  | { op: "move"; from: string; to: string };

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function stripLineRange(path: string): string {
  return path.replace(/:(\d+)(-\d+)?$/, "");
}

export function rpCallOperations(call: string, args: Record<string, unknown>): RpOperation[] {
  const path = str(args.path);
  if (call === "read_file" && path) return [{ op: "R", path: stripLineRange(path) }];
  if (call === "apply_edits" && path) return [{ op: "E", path }];
  if (call === "file_actions") {
    const action = str(args.action);
    const newPath = str(args.new_path) ?? str(args.newPath);
    if (action === "create" && path) return [{ op: "W", path }];
    if (action === "delete" && path) return [{ op: "D", path }];
    if (action === "move" && path && newPath) return [{ op: "move", from: path, to: newPath }];
  }
  return [];
}

/** Splits like a shell would for these simple CLI lines: quotes, whitespace, `;`, `&&`, newlines. */
function tokenizeLines(cmd: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: string | undefined;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < cmd.length; i++) {
    const ch = cmd[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"' && i + 1 < cmd.length) word += cmd[++i];
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < cmd.length) {
      word += cmd[++i];
      inWord = true;
    } else if (ch === ";" || ch === "\n" || (ch === "&" && cmd[i + 1] === "&") || (ch === "|" && cmd[i + 1] === "|")) {
      if (ch === "&" || ch === "|") i++;
      endCommand();
    } else if (/\s/.test(ch)) endWord();
    else {
      word += ch;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

function namedArgs(words: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const w of words) {
    const eq = w.indexOf("=");
    if (eq > 0) out[w.slice(0, eq)] = w.slice(eq + 1);
  }
  return out;
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function rpExecOperations(cmd: string): RpOperation[] {
  const ops: RpOperation[] = [];
  // `call TOOL {json}` keeps its JSON verbatim, so it is matched before tokenizing.
  const call = /^\s*call\s+([a-z_]+)\s+(\{[\s\S]*\})\s*$/.exec(cmd);
  if (call) {
    const args = jsonObject(call[2]!);
    return args ? rpCallOperations(call[1]!, args) : [];
  }
  for (const words of tokenizeLines(cmd)) {
    const [name, sub, ...rest] = words;
    if (name === "read_file" || name === "apply_edits" || name === "file_actions") {
      ops.push(...rpCallOperations(name, namedArgs(words.slice(1))));
    } else if (name === "file" && sub === "delete") {
      for (const p of rest) if (!p.startsWith("-")) ops.push({ op: "D", path: p });
    } else if (name === "file" && sub === "move") {
      const operands = rest.filter((p) => !p.startsWith("-"));
      if (operands.length === 2) ops.push({ op: "move", from: operands[0]!, to: operands[1]! });
    } else if ((name === "read" || name === "cat") && sub !== undefined && !sub.startsWith("-")) {
      ops.push({ op: "R", path: stripLineRange(sub) });
    }
  }
  return ops;
}
