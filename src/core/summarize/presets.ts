// Finding a preset by what the user typed, as grounded-compaction does:
// exact name, then case-insensitive, then prefix (case-insensitive), then
// substring after normalising (lowercase, only letters and digits). The first
// step with any match decides; two or more matches there are ambiguous. The
// name "current" always means the session's own model and thinking level.

import type { PresetTable, SummaryPreset } from "./pi-sessions-config.js";

export const CURRENT_PRESET = "current";

export type PresetLookup =
  | { kind: "current" }
  | { kind: "found"; name: string; preset: SummaryPreset; matchedBy: "exact" | "case-insensitive" | "prefix" | "substring" }
  | { kind: "ambiguous"; candidates: string[] }
  | { kind: "unknown"; available: string[] };

function normalise(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function lookupPreset(presets: PresetTable, query: string): PresetLookup {
  const q = query.trim();
  if (q.toLowerCase() === CURRENT_PRESET) return { kind: "current" };
  const names = Object.keys(presets);
  const lower = q.toLowerCase();
  const normalised = normalise(q);
  const steps: { matchedBy: "exact" | "case-insensitive" | "prefix" | "substring"; test: (name: string) => boolean }[] = [
    { matchedBy: "exact", test: (name) => name === q },
    { matchedBy: "case-insensitive", test: (name) => name.toLowerCase() === lower },
    { matchedBy: "prefix", test: (name) => q !== "" && name.toLowerCase().startsWith(lower) },
    { matchedBy: "substring", test: (name) => normalised !== "" && normalise(name).includes(normalised) },
  ];
  for (const step of steps) {
    const matches = names.filter(step.test);
    if (matches.length === 1) {
      const name = matches[0] as string;
      return { kind: "found", name, preset: presets[name] as SummaryPreset, matchedBy: step.matchedBy };
    }
    if (matches.length > 1) return { kind: "ambiguous", candidates: matches.sort() };
  }
  return { kind: "unknown", available: names.sort() };
}

/** The file's presets with `extra` (e.g. from VS Code settings) merged over them by name. */
export function mergePresets(fromFile: PresetTable, extra: PresetTable | undefined): PresetTable {
  return { ...fromFile, ...extra };
}
