// Where the exact read found a message line's `role` and `content` values —
// kept only when the line holds one `message` object with one `role` member
// before one `content` member — so that `prepare`'s history
// (compaction/escaped-message.ts) reads the content straight away instead of
// walking every member of the line again to find it (and to rule out a key
// written twice). Positions are relative to the line's first byte, per index
// position; -1 where there is no such shape.

/** A message line's role and content values: [roleStart, roleEnd) and [contentStart, contentEnd) in the line. */
export interface MessageShape {
  roleStart: number;
  roleEnd: number;
  contentStart: number;
  contentEnd: number;
}

export function emptyMessageShape(): MessageShape {
  return { roleStart: -1, roleEnd: -1, contentStart: -1, contentEnd: -1 };
}

const FIELDS = 4;

export class MessageShapes {
  private data = new Int32Array(FIELDS * 1024).fill(-1);

  set(position: number, shape: MessageShape, lineStart: number): void {
    const at = FIELDS * position;
    if (at + FIELDS > this.data.length) {
      const bigger = new Int32Array(Math.max(this.data.length * 2, at + FIELDS)).fill(-1);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[at] = shape.roleStart - lineStart;
    this.data[at + 1] = shape.roleEnd - lineStart;
    this.data[at + 2] = shape.contentStart - lineStart;
    this.data[at + 3] = shape.contentEnd - lineStart;
  }

  /** Fills `out` with the shape at `position` (relative to the line); false when there is none. */
  get(position: number, out: MessageShape): boolean {
    const at = FIELDS * position;
    if (at + FIELDS > this.data.length || this.data[at]! < 0) return false;
    out.roleStart = this.data[at]!;
    out.roleEnd = this.data[at + 1]!;
    out.contentStart = this.data[at + 2]!;
    out.contentEnd = this.data[at + 3]!;
    return true;
  }
}
