// Finding a model from what the user typed ("provider/id", or a bare id when
// only one provider has it). Deliberately stricter than pi's --model, which
// falls back to fuzzy matching or invents a model id: a summary written by a
// model the user did not name is worse than an error listing close matches.

import { ModelConfigError } from "./model-config-error.js";
import type { ModelRegistry, SummaryModel } from "./model-registry.js";

export function modelLabel(model: { provider: string; id: string }): string {
  return `${model.provider}/${model.id}`;
}

export function findModel(registry: ModelRegistry, reference: string): SummaryModel | undefined {
  const ref = reference.trim();
  if (!ref) return undefined;
  const exact = registry.models.filter((m) => modelLabel(m) === ref);
  if (exact.length === 1) return exact[0];
  const lower = ref.toLowerCase();
  const canonical = registry.models.filter((m) => modelLabel(m).toLowerCase() === lower);
  if (canonical.length === 1) return canonical[0];
  if (canonical.length > 1) return undefined;
  const byId = registry.models.filter((m) => m.id.toLowerCase() === lower);
  return byId.length === 1 ? byId[0] : undefined;
}

/** The model, or a ModelConfigError("unknown-model") listing close matches. */
export function requireModel(registry: ModelRegistry, reference: string): SummaryModel {
  const found = findModel(registry, reference);
  if (found) return found;
  const matches = closeModelMatches(registry.models, reference);
  const hint = matches.length > 0 ? ` Close matches: ${matches.join(", ")}.` : "";
  throw new ModelConfigError("unknown-model", `Unknown model "${reference.trim()}" (not in ${registry.sources}).${hint}`);
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** Up to `limit` "provider/id" labels, best first: ids containing the query, then small edit distance; same provider first. */
export function closeModelMatches(models: readonly SummaryModel[], reference: string, limit = 5): string[] {
  const query = reference.trim().toLowerCase();
  if (!query) return [];
  const slash = query.indexOf("/");
  const queryId = slash >= 0 ? query.slice(slash + 1) : query;
  const queryProvider = slash >= 0 ? query.slice(0, slash) : undefined;
  const scored: { label: string; score: number }[] = [];
  for (const model of models) {
    const label = modelLabel(model);
    const id = model.id.toLowerCase();
    const sameProvider = queryProvider !== undefined && model.provider.toLowerCase() === queryProvider;
    let score: number;
    if (queryId && id.includes(queryId)) {
      score = Math.abs(id.length - queryId.length) / 100;
    } else {
      const distance = editDistance(queryId, id);
      if (distance > Math.max(2, Math.floor(queryId.length / 3))) continue;
      score = 1 + distance;
    }
    scored.push({ label, score: sameProvider ? score - 0.5 : score });
  }
  scored.sort((a, b) => a.score - b.score || a.label.localeCompare(b.label));
  return scored.slice(0, limit).map((s) => s.label);
}
