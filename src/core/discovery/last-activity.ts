// A session's last activity: the newest of its entries' timestamps (pi's
// messages and the entries we append: labels, names, compactions, context
// edits) and the file's mtime (any write at all). Everything that says how long
// a session has been idle (Clean Up, the list's order, its tooltips and rows)
// asks this one rule, so a session just renamed or compacted is never "unused".
// pi's own session list keeps its narrower date (user/assistant messages only):
// that one stays `modified` in the catalogue, for pi-equal listings.

/** ms; 0 when neither is known. NaN and non-positive inputs count as unknown. */
export function lastActivityMs(newestEntryMs: number, mtimeMs: number): number {
  const entry = newestEntryMs > 0 ? newestEntryMs : 0;
  const file = mtimeMs > 0 ? mtimeMs : 0;
  return entry > file ? entry : file;
}
