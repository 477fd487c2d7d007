// A failed summary call, typed so callers can react (CLI exit code 2, retry
// on rate-limit, say "aborted" quietly). pi-ai reports failures as a result
// with stopReason "error"/"aborted" and an errorMessage; the OpenAI and
// Anthropic SDKs start that message with the HTTP status ("401 …"). The
// message is redacted of the key before it reaches here.

export type ModelCallErrorKind =
  | "auth"
  | "rate-limit"
  | "server"
  | "timeout"
  | "aborted"
  | "truncated"
  | "empty"
  | "tool-call"
  | "network"
  | "other";

export class ModelCallError extends Error {
  readonly kind: ModelCallErrorKind;
  /** HTTP status when the provider answered with one. */
  readonly status: number | undefined;
  /** For "truncated": the text that arrived before the output limit. */
  readonly partialText: string | undefined;

  constructor(kind: ModelCallErrorKind, message: string, extra: { status?: number; partialText?: string } = {}) {
    super(message);
    this.name = "ModelCallError";
    this.kind = kind;
    this.status = extra.status;
    this.partialText = extra.partialText;
  }
}

export function isModelCallError(value: unknown): value is ModelCallError {
  return value instanceof ModelCallError;
}

const NETWORK_PATTERNS = [
  /connection error/i,
  /\bterminated\b/i,
  /fetch failed/i,
  /socket hang up/i,
  /other side closed/i,
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EPIPE|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH/,
  /stream ended before/i,
  /premature close/i,
  /network/i,
];

/** The kind (and status) an errorMessage from pi-ai stands for. */
export function classifyProviderError(message: string): { kind: ModelCallErrorKind; status?: number } {
  const statusMatch = /^\s*(\d{3})\b/.exec(message);
  if (statusMatch) {
    const status = Number(statusMatch[1]);
    if (status === 401 || status === 403) return { kind: "auth", status };
    if (status === 429) return { kind: "rate-limit", status };
    if (status === 408) return { kind: "timeout", status };
    if (status >= 500 && status <= 599) return { kind: "server", status };
    if (status >= 400 && status <= 499) return { kind: "other", status };
  }
  if (/timed out|timeout/i.test(message)) return { kind: "timeout" };
  if (/overloaded|rate.?limit/i.test(message)) return { kind: "rate-limit" };
  if (NETWORK_PATTERNS.some((p) => p.test(message))) return { kind: "network" };
  return { kind: "other" };
}

const KIND_TEXT: Record<ModelCallErrorKind, string> = {
  auth: "the provider refused the key",
  "rate-limit": "rate limited by the provider",
  server: "the provider had a server error",
  timeout: "timed out",
  aborted: "cancelled",
  truncated: "the answer hit the output limit before it was complete",
  empty: "the model returned no text",
  "tool-call": "the model tried to call a tool instead of writing the summary",
  network: "the connection failed",
  other: "the call failed",
};

const MAX_DETAIL = 400;

export function describeModelCallFailure(label: string, kind: ModelCallErrorKind, detail?: string): string {
  const trimmed = detail?.trim();
  const shortDetail = trimmed && trimmed.length > MAX_DETAIL ? `${trimmed.slice(0, MAX_DETAIL)}…` : trimmed;
  return `Model call to ${label} failed: ${KIND_TEXT[kind]}${shortDetail ? ` (${shortDetail})` : ""}.`;
}
