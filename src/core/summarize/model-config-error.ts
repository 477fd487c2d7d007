// A problem with the user's model setup (models.json, auth.json,
// pi-sessions.json, a model or preset name, a missing key). Thrown by the
// resolvers; the message is safe to show and never contains a key.

export type ModelConfigErrorCode =
  | "invalid-json"
  | "invalid-config"
  | "unreadable-file"
  | "unknown-model"
  | "unknown-preset"
  | "ambiguous-preset"
  | "no-session-model"
  | "missing-key"
  | "key-command-failed"
  | "oauth-refresh-failed"
  | "lock-timeout";

export interface ModelConfigErrorLocation {
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
}

export class ModelConfigError extends Error {
  readonly code: ModelConfigErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(code: ModelConfigErrorCode, message: string, where: ModelConfigErrorLocation = {}) {
    super(message);
    this.name = "ModelConfigError";
    this.code = code;
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
  }
}

export function isModelConfigError(value: unknown): value is ModelConfigError {
  return value instanceof ModelConfigError;
}
