// How omp 18.3.4 names a session in its lists (session-listing.ts): the title,
// else the first user message, else `Untitled · <time>`, each cut to its first
// line without control characters (sanitizeSessionName).

/** omp's sanitizeSessionName: the first line without control characters, trimmed; undefined when empty. */
export function sanitizeOmpName(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  // eslint-disable-next-line no-control-regex
  const trimmed = (value.split(/\r?\n/)[0] ?? "").replace(/[\x00-\x1F\x7F]/g, "").trim();
  return trimmed.length > 0 ? trimmed : undefined;
}

export interface OmpNameFacts {
  title: string | null;
  firstMessage: string | null;
  /** The header's timestamp, or null. */
  created: string | null;
}

/** The name omp's /resume shows: the title, else the first user message, else `Untitled · HH:MM` (local time of `created`, else `modified`). */
export function ompDisplayName(listing: OmpNameFacts, modified: Date): string {
  const title = sanitizeOmpName(listing.title) ?? sanitizeOmpName(listing.firstMessage);
  if (title) return title;
  const created = listing.created ? new Date(listing.created).getTime() : NaN;
  const date = new Date(Number.isFinite(created) ? created : modified.getTime());
  return `Untitled · ${date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}`;
}
