import type { CommandContext } from "./command";

/** `--json`: exactly one JSON document on stdout. */
export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(ctx: CommandContext, lines: readonly string[]): void {
  if (lines.length > 0) ctx.io.stdout(`${lines.join("\n")}\n`);
}

/** Diagnostics and notices go to stderr so stdout stays machine-readable. */
export function warn(ctx: CommandContext, text: string): void {
  ctx.io.stderr(`${text}\n`);
}
