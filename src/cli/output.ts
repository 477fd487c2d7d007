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

/**
 * `printJson` of a document whose top-level `key` holds a long text given as
 * pieces joined by "\n\n": the same bytes, the text escaped and written piece
 * by piece instead of built (and escaped, and encoded) as one string.
 */
export function printJsonWithTextPieces(ctx: CommandContext, value: Record<string, unknown>, key: string, pieces: readonly string[]): void {
  const marker = "\u0000text pieces\u0000";
  const text = JSON.stringify({ ...value, [key]: marker }, null, 2);
  // Unambiguous: inside any other string a quote is escaped.
  const member = `${JSON.stringify(key)}: ${JSON.stringify(marker)}`;
  const at = text.indexOf(member);
  if (at < 0) throw new Error(`internal: no top-level "${key}" to write in pieces`);
  const textStart = at + member.length - JSON.stringify(marker).length + 1;
  ctx.io.stdout(text.slice(0, textStart));
  for (let i = 0; i < pieces.length; i++) {
    const escaped = JSON.stringify(pieces[i]);
    ctx.io.stdout(i === 0 ? escaped.slice(1, -1) : `\\n\\n${escaped.slice(1, -1)}`);
  }
  ctx.io.stdout(`${text.slice(at + member.length - 1)}\n`);
}
