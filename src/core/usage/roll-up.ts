// Forks and subagent sessions rolled into the session they came from: each
// row's header parentSession (a path, or for omp sometimes an id) followed up
// to the first ancestor among the rows that has none counted (cycle-safe).

import type { CatalogueRow } from "../catalogue/catalogue-row.js";

/** For each row with a counted ancestor: the path of its root ancestor among `rows`. */
export function rollUpTargets(rows: readonly CatalogueRow[]): Map<string, string> {
  const byKey = new Map<string, CatalogueRow>();
  for (const r of rows) byKey.set(r.id, r);
  for (const r of rows) byKey.set(r.path, r);
  const out = new Map<string, string>();
  for (const row of rows) {
    let at = row;
    const seen = new Set<string>([row.path]);
    for (;;) {
      const parent = at.parentSession !== null ? byKey.get(at.parentSession) : undefined;
      if (!parent || seen.has(parent.path)) break;
      seen.add(parent.path);
      at = parent;
    }
    if (at !== row) out.set(row.path, at.path);
  }
  return out;
}
