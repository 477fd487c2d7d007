// omp's title slot as written (session-title-slot.ts serializeTitleSlot): the
// first line of every file omp creates, exactly 256 UTF-8 bytes with its
// newline; the title is cut to the longest code-point prefix that fits, and
// `pad` (spaces) fills the rest. Key order: type, v, title, [source], updatedAt, pad.

export const OMP_TITLE_SLOT_BYTES = 256;

export type OmpTitleSource = "auto" | "user";

export interface OmpTitleSlotFields {
  title?: string;
  source?: OmpTitleSource;
  /** ISO time of the change. */
  updatedAt: string;
}

function slotLine(title: string, source: OmpTitleSource | undefined, updatedAt: string, pad: string): string {
  const slot = source ? { type: "title", v: 1, title, source, updatedAt, pad } : { type: "title", v: 1, title, updatedAt, pad };
  return `${JSON.stringify(slot)}\n`;
}

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/** The longest code-point prefix of `title` whose slot line fits in 256 bytes. */
export function truncateTitleForSlot(title: string, source: OmpTitleSource | undefined, updatedAt: string): string {
  const points = [...title];
  let low = 0;
  let high = points.length;
  let best = "";
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const candidate = points.slice(0, mid).join("");
    if (bytes(slotLine(candidate, source, updatedAt, "")) <= OMP_TITLE_SLOT_BYTES) {
      best = candidate;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/** The 256-byte slot line (with its newline), byte for byte as omp writes it. */
export function serializeTitleSlot(fields: OmpTitleSlotFields): string {
  const title = truncateTitleForSlot(fields.title ?? "", fields.source, fields.updatedAt);
  const padBytes = OMP_TITLE_SLOT_BYTES - bytes(slotLine(title, fields.source, fields.updatedAt, ""));
  if (padBytes < 0) throw new Error("omp title slot: the metadata alone exceeds 256 bytes");
  const line = slotLine(title, fields.source, fields.updatedAt, " ".repeat(padBytes));
  if (bytes(line) !== OMP_TITLE_SLOT_BYTES) throw new Error("omp title slot: not 256 bytes");
  return line;
}
