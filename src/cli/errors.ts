// Exit codes are a public contract (shared/spec/cli.md).
export const EXIT_OK = 0;
export const EXIT_BAD_INPUT = 1;
export const EXIT_MODEL_FAILED = 2;
export const EXIT_REFUSED = 3;

/** A failure the CLI reports as one `error:` line and an exit code, never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** Lines printed after the `error:` line (e.g. per-line warnings with --verbose). */
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = "CliError";
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_BAD_INPUT);
    this.name = "UsageError";
  }
}
