// Problems found in a session file. They are data the caller shows (CLI prints
// them, the extension lists them); the core never throws on bad file content.

export type DiagnosticSeverity = "error" | "warning" | "info";

export type DiagnosticCode =
  | "invalid-json"
  | "not-an-object"
  | "truncated-last-line"
  | "missing-header"
  | "misplaced-header"
  | "extra-header"
  | "bom"
  | "crlf"
  | "empty-file"
  | "missing-id"
  | "missing-type"
  | "duplicate-id"
  | "dangling-parent"
  | "parent-cycle"
  | "self-parent"
  | "unknown-entry-type"
  | "unknown-message-role"
  | "unknown-label-target"
  | "needs-migration"
  | "bad-field"
  | (string & {});

export interface Diagnostic {
  severity: DiagnosticSeverity;
  code: DiagnosticCode;
  message: string;
  /** 1-based line number in the file, when the problem is on one line. */
  line?: number;
  /** The file the diagnostic is about, when known. */
  file?: string;
  /** Entry id involved, when there is one. */
  entryId?: string;
}

/** `file:line: message`, the way compilers point at a place. */
export function formatDiagnosticLocation(d: Diagnostic): string {
  const where = d.file ? (d.line !== undefined ? `${d.file}:${d.line}` : d.file) : d.line !== undefined ? `line ${d.line}` : "";
  return `${where ? `${where}: ` : ""}${d.message}`;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.severity}: ${formatDiagnosticLocation(d)}`;
}
