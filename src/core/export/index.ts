// Exports of a session branch: Markdown, offline HTML, and a standalone
// session JSONL; secrets found first, redacted on request.
import type { LoadedSession } from "../session/open/open-session";
import { branchExport, type SecretReport } from "./branch-export";
import { renderHtml } from "./export-html";
import { renderJsonl } from "./export-jsonl";
import { renderMarkdown } from "./export-markdown";

export { branchExport, describeSecrets, findSecrets, redactDeep, type BranchExport, type SecretReport } from "./branch-export";
export { entryMarker, renderMarkdown } from "./export-markdown";
export { htmlText, renderHtml } from "./export-html";
export { renderJsonl } from "./export-jsonl";

export type ExportFormat = "md" | "html" | "jsonl";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["md", "html", "jsonl"];

export interface ExportOptions {
  leafId: string | null;
  format: ExportFormat;
  redact: boolean;
  now?: Date;
}

export interface ExportResult {
  text: string;
  /** Secrets the branch holds (counted before redaction). */
  secrets: SecretReport;
  entries: number;
}

export function exportSession(session: LoadedSession, options: ExportOptions): ExportResult {
  const now = options.now ?? new Date();
  const branch = branchExport(session, options.leafId, { redact: options.redact });
  const text = options.format === "md" ? renderMarkdown(branch, now) : options.format === "html" ? renderHtml(branch, now) : renderJsonl(session, branch, now);
  return { text, secrets: branch.secrets, entries: branch.entries.length };
}

/** A file name for an export: the session file's name, the leaf, the format's extension. */
export function exportFileName(sessionPath: string, leafId: string | null, format: ExportFormat): string {
  const base = (sessionPath.split(/[\\/]/).pop() ?? "session").replace(/\.jsonl$/i, "");
  return `${base}${leafId ? `-${leafId.replace(/[^A-Za-z0-9_-]/g, "")}` : ""}.${format === "jsonl" ? "export.jsonl" : format}`;
}
