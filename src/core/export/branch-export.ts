// What every export format starts from: the entries of one branch (root→leaf,
// optionally with secrets redacted), their reader blocks with labels and
// context edits, and the secrets found in them.
import { entryBlock, replacementText } from "../reader/entry-block";
import type { ContextEditMark, ReaderBlock } from "../reader/reader-block";
import type { LoadedSession } from "../session/open/open-session";
import { findKeyPatterns, redactKeyPatterns } from "../text/key-patterns";
import type { SessionEntry } from "../session/format/types";

export interface SecretReport {
  count: number;
  /** How many of each kind ("OpenAI API key": 2). */
  kinds: Record<string, number>;
}

export interface BranchExport {
  sessionPath: string | undefined;
  sessionId: string | undefined;
  cwd: string | undefined;
  title: string | undefined;
  leafId: string | null;
  /** Root→leaf, redacted when asked. */
  entries: SessionEntry[];
  blocks: ReaderBlock[];
  /** Labels of the branch's entries, by entry id. */
  labels: Map<string, { label: string; timestamp: string }>;
  /** Secrets in the branch as it is in the file (before any redaction). */
  secrets: SecretReport;
  redacted: boolean;
}

/** Calls `visit` on every string inside a JSON value. */
function eachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") visit(value);
  else if (Array.isArray(value)) for (const item of value) eachString(item, visit);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) eachString(item, visit);
}

/** A copy of a JSON value with key patterns redacted in every string (keys kept in order). */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactKeyPatterns(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item)) as T;
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item);
    return out as T;
  }
  return value;
}

export function findSecrets(entries: readonly unknown[]): SecretReport {
  const kinds: Record<string, number> = {};
  let count = 0;
  for (const entry of entries) {
    eachString(entry, (text) => {
      for (const match of findKeyPatterns(text)) {
        kinds[match.kind] = (kinds[match.kind] ?? 0) + 1;
        count++;
      }
    });
  }
  return { count, kinds };
}

export function describeSecrets(report: SecretReport): string {
  return Object.entries(report.kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${n} ${kind}${n === 1 ? "" : "s"}`)
    .join(", ");
}

/** Label entries of the session: the label now on each entry and when it was set. */
function labelsOf(session: LoadedSession, ids: ReadonlySet<string>): Map<string, { label: string; timestamp: string }> {
  const labels = new Map<string, { label: string; timestamp: string }>();
  for (const meta of session.index.entries) {
    if (meta.type !== "label" || !meta.targetId || !ids.has(meta.targetId)) continue;
    if (meta.label) labels.set(meta.targetId, { label: meta.label, timestamp: meta.timestamp });
    else labels.delete(meta.targetId);
  }
  return labels;
}

export function branchExport(session: LoadedSession, leafId: string | null, options: { redact: boolean }): BranchExport {
  const original = session.pathTo(leafId);
  const secrets = findSecrets(original);
  const entries = options.redact ? original.map((entry) => redactDeep(entry)) : original;
  const labels = labelsOf(session, new Set(entries.map((e) => e.id)));
  const edits = new Map<string, ContextEditMark>();
  for (const entry of entries as unknown as Record<string, unknown>[]) {
    if (entry.type !== "context_edit" || typeof entry.targetId !== "string") continue;
    const replacement = entry.replacement === null || entry.replacement === undefined ? undefined : replacementText(entry.replacement);
    edits.set(entry.targetId, { editId: String(entry.id), ...(replacement !== undefined ? { replacement } : {}) });
  }
  const blocks = entries.map((entry) => {
    const block = entryBlock(entry, Number.POSITIVE_INFINITY);
    const label = labels.get(entry.id)?.label;
    const edit = edits.get(entry.id);
    return { ...block, ...(label !== undefined ? { label } : {}), ...(edit ? { edit } : {}) };
  });
  const header = session.header;
  return {
    sessionPath: session.path,
    sessionId: typeof header?.id === "string" ? header.id : undefined,
    cwd: typeof header?.cwd === "string" ? header.cwd : undefined,
    title: session.index.sessionName,
    leafId,
    entries,
    blocks,
    labels,
    secrets,
    redacted: options.redact,
  };
}
