// What the exact read of a session held in memory established about a line's
// bytes beyond their being valid JSON (LoadedSession.checkedLineChecksAt), so
// code working from those bytes (compaction/escaped-message.ts) need not check
// them again: a set of flags.

export type LineChecks = number;

/** Nothing beyond valid JSON. */
export const NO_LINE_CHECKS: LineChecks = 0;
/** The line's bytes are valid UTF-8. */
export const LINE_IS_UTF8: LineChecks = 1;
/** Every escape in the line is one JSON.stringify writes (session/canonical-escape.ts). */
export const LINE_ESCAPES_CANONICAL: LineChecks = 2;
