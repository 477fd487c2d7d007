// Keys must never reach output, logs or error messages. Anything built from
// text we do not control (a provider's error body, a parser message) goes
// through here before it is shown.

export const REDACTED = "[redacted]";

/** Secrets shorter than this are not redacted: replacing one- or two-letter strings would mangle text. */
const MIN_SECRET_LENGTH = 4;

export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const usable = secrets
    .filter((s): s is string => typeof s === "string" && s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of usable) {
    out = out.split(secret).join(REDACTED);
  }
  return out;
}
