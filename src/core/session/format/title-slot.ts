// omp's title slot: every file omp creates or fully rewrites starts with one
// fixed-width line of exactly 256 UTF-8 bytes (newline included) holding the
// session's current title, rewritten in place on a rename
// (omp 18.3.4 src/session/session-title-slot.ts). omp peels line 1 off only
// when it is a valid slot (`parseTitleSlotObject`); the header is the next
// parsed line.

export const TITLE_SLOT_BYTES = 256;
export const TITLE_SLOT_ENTRY_TYPE = "title";

export interface TitleSlot {
  title: string;
  source?: "auto" | "user";
  updatedAt: string;
}

/** The slot a parsed first line holds, or undefined when it is not a valid one (omp's parseTitleSlotObject). */
export function titleSlotOf(value: unknown): TitleSlot | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (v.type !== TITLE_SLOT_ENTRY_TYPE || v.v !== 1) return undefined;
  if (typeof v.title !== "string" || typeof v.updatedAt !== "string" || typeof v.pad !== "string") return undefined;
  if (v.source !== undefined && v.source !== "auto" && v.source !== "user") return undefined;
  return v.source === undefined ? { title: v.title, updatedAt: v.updatedAt } : { title: v.title, source: v.source, updatedAt: v.updatedAt };
}
