// Which transcript dialect omp 18.3.4 serializes a conversation in for a summary
// model (pi-ai `preferredDialect(model.id)`): the model's identity class from
// omp's model taxonomy (`classify("", id, {lenient: true}).class`: overrides by
// name or glob, then the class whose matcher ranks highest — exact, bounded,
// namespace, prefix, glob, longer tokens first; a tie is "unknown"), an effort
// suffix ("-high", "-thinking", …) stripped first, and the class's dialect;
// every other class gets "xml". The taxonomy's classes, provider-free
// overrides and suffixes are in model-classes.json (from the 18.3.4 bundle).

import TAXONOMY from "./model-classes.json";

export const OMP_DIALECTS = ["anthropic", "glm", "gemini", "gemma", "kimi", "qwen3", "deepseek", "minimax", "harmony", "xml"] as const;
export type OmpDialect = (typeof OMP_DIALECTS)[number];

interface Matcher {
  kind: "exact" | "bounded" | "namespace" | "prefix" | "glob";
  token: string;
  bounded?: boolean;
}
interface Override {
  model?: string;
  glob?: string;
  class?: string;
  logical?: string;
}
interface ModelClass {
  id: string;
  matchers: Matcher[];
  overrides: Override[];
}
interface Suffix {
  suffix: string;
  exceptBarePrefix?: string;
}

const CLASSES = (TAXONOMY as { classes: ModelClass[] }).classes;
const SUFFIXES = (TAXONOMY as { suffixes: Suffix[] }).suffixes;
const KIND_RANK: Record<Matcher["kind"], number> = { exact: 4, bounded: 3, namespace: 2, prefix: 1, glob: 0 };

const lastSegment = (id: string): string => {
  const slash = id.lastIndexOf("/");
  return slash === -1 ? id : id.slice(slash + 1);
};

/** The token, or the token followed by `-`, `_`, `.`, `:` or a digit. */
function boundedMatch(value: string, token: string): boolean {
  if (value === token) return true;
  if (!value.startsWith(token)) return false;
  const c = value.charCodeAt(token.length);
  return c === 45 || c === 95 || c === 46 || c === 58 || (c >= 48 && c <= 57);
}

/** `*` globs: the pieces in order, the first at the start and the last at the end. */
export function globMatch(glob: string, value: string): boolean {
  const parts = glob.split("*");
  if (parts.length === 1) return value === glob;
  const first = parts[0] ?? "";
  if (!value.startsWith(first)) return false;
  let rest = value.slice(first.length);
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] ?? "";
    if (!part) continue;
    const at = rest.indexOf(part);
    if (at === -1) return false;
    rest = rest.slice(at + part.length);
  }
  const last = parts[parts.length - 1] ?? "";
  return last === "" || rest.endsWith(last);
}

function matches(m: Matcher, lower: string, bare: string): boolean {
  switch (m.kind) {
    case "exact":
      return bare === m.token;
    case "bounded":
      return boundedMatch(bare, m.token);
    case "namespace":
      for (const part of m.bounded ? lower.split(/[/.:]/) : lower.split("/")) {
        if (part && (m.bounded ? boundedMatch(part, m.token) : part === m.token)) return true;
      }
      return false;
    case "prefix":
      return bare.startsWith(m.token);
    case "glob":
      return globMatch(m.token, bare);
  }
}

function classByMatchers(id: string): string {
  const lower = id.trim().toLowerCase();
  const bare = lastSegment(lower);
  let best: { rank: [number, number]; id: string } | undefined;
  let tied = false;
  for (const cls of CLASSES) {
    for (const m of cls.matchers) {
      if (!matches(m, lower, bare)) continue;
      const rank: [number, number] = [KIND_RANK[m.kind], m.token.length];
      if (best && best.rank[0] === rank[0] && best.rank[1] === rank[1] && best.id !== cls.id) tied = true;
      else if (!best || best.rank[0] < rank[0] || (best.rank[0] === rank[0] && best.rank[1] < rank[1])) {
        best = { rank, id: cls.id };
        tied = false;
      }
    }
  }
  return tied || !best ? "unknown" : best.id;
}

const globSpecificity = (glob: string): number => [...glob].filter((c) => c !== "*").length;

function overrideFor(bareId: string): Override | undefined {
  const key = bareId.toLowerCase();
  for (const cls of CLASSES) for (const o of cls.overrides) if (o.model !== undefined && o.model.toLowerCase() === key) return { class: cls.id, ...o };
  let best: { specificity: number; override: Override } | undefined;
  let tied = false;
  for (const cls of CLASSES) {
    for (const o of cls.overrides) {
      if (o.model !== undefined || o.glob === undefined || !globMatch(o.glob, key)) continue;
      const specificity = globSpecificity(o.glob);
      if (best?.specificity === specificity) tied = true;
      else if (!best || best.specificity < specificity) {
        best = { specificity, override: { class: cls.id, ...o } };
        tied = false;
      }
    }
  }
  return tied ? undefined : best?.override;
}

/** The id without an effort suffix (omp's collapse), for a model of no provider. */
function logicalId(id: string): string {
  const lower = id.toLowerCase();
  const bare = lastSegment(lower);
  let found: Suffix | undefined;
  for (const s of SUFFIXES) {
    if (!lower.endsWith(s.suffix)) continue;
    if (s.exceptBarePrefix !== undefined && bare.startsWith(s.exceptBarePrefix)) continue;
    if (!found || s.suffix.length > found.suffix.length) found = s;
  }
  return found ? id.slice(0, id.length - found.suffix.length) : id;
}

/** omp's identity class of a model id (lenient: "unknown" when undecided). */
export function ompModelClass(modelId: string): string {
  const trimmed = modelId.trim();
  const override = overrideFor(lastSegment(trimmed));
  if (override) return override.class ?? classByMatchers(override.logical ?? trimmed);
  return classByMatchers(trimmed.length === modelId.length ? logicalId(trimmed) : trimmed);
}

/** pi-ai's preferredDialect(modelId). */
export function preferredDialect(modelId: string): OmpDialect {
  switch (ompModelClass(modelId)) {
    case "anthropic":
      return "anthropic";
    case "glm":
      return "glm";
    case "gemini":
      return "gemini";
    case "gemma":
      return "gemma";
    case "kimi":
      return "kimi";
    case "qwen":
      return "qwen3";
    case "deepseek":
      return "deepseek";
    case "minimax":
      return "minimax";
    case "openai":
    case "gpt-oss":
      return "harmony";
    default:
      return "xml";
  }
}
