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

/** A text piece already escaped as it sits inside a JSON string (UTF-8). */
export interface EscapedTextPiece {
  readonly escaped: Uint8Array;
}

/** Output gathered into writes of about this many bytes. */
const WRITE_BYTES = 4 * 1024 * 1024;

/** Bytes for stdout, written in few large writes. */
class BatchedStdout {
  private held: Uint8Array[] = [];
  private heldBytes = 0;

  constructor(private readonly ctx: CommandContext) {}

  text(text: string): void {
    this.bytes(Buffer.from(text, "utf8"));
  }

  bytes(bytes: Uint8Array): void {
    if (bytes.length >= WRITE_BYTES / 16) {
      // Large enough to be written as it is (not copied again).
      this.flush();
      this.write(bytes);
      return;
    }
    this.held.push(bytes);
    this.heldBytes += bytes.length;
    if (this.heldBytes >= WRITE_BYTES) this.flush();
  }

  flush(): void {
    if (this.held.length === 0) return;
    const joined = Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    this.write(joined);
  }

  private write(bytes: Uint8Array): void {
    const io = this.ctx.io;
    if (io.stdoutBytes) io.stdoutBytes(bytes);
    else io.stdout(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  }
}

/**
 * `printJson` of a document whose top-level `key` holds a long text given as
 * pieces joined by "\n\n": the same bytes, the text escaped and written piece
 * by piece instead of built (and escaped, and encoded) as one string. A piece
 * given escaped is written as it is.
 */
export function printJsonWithTextPieces(ctx: CommandContext, value: Record<string, unknown>, key: string, pieces: readonly (string | EscapedTextPiece)[]): void {
  const marker = "\u0000text pieces\u0000";
  const text = JSON.stringify({ ...value, [key]: marker }, null, 2);
  // Unambiguous: inside any other string a quote is escaped.
  const member = `${JSON.stringify(key)}: ${JSON.stringify(marker)}`;
  const at = text.indexOf(member);
  if (at < 0) throw new Error(`internal: no top-level "${key}" to write in pieces`);
  const textStart = at + member.length - JSON.stringify(marker).length + 1;
  const out = new BatchedStdout(ctx);
  out.text(text.slice(0, textStart));
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) out.text("\\n\\n");
    const piece = pieces[i]!;
    if (typeof piece === "string") out.text(JSON.stringify(piece).slice(1, -1));
    else out.bytes(piece.escaped);
  }
  out.text(`${text.slice(at + member.length - 1)}\n`);
  out.flush();
}
