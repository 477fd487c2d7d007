// A title slot line for hand-made omp files in tests (without its newline).
import { serializeTitleSlot, type OmpTitleSource } from "../../../src/core/session/format/omp-title-slot-serialize.js";

export function titleSlotLine(fields: { title?: string; source?: OmpTitleSource; updatedAt?: string }): string {
  return serializeTitleSlot({ updatedAt: "2026-11-20T10:00:00.000Z", ...fields }).slice(0, -1);
}
