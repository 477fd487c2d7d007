// Secrets a session may hold verbatim (a key printed by a tool, a `.env`
// file read into the conversation), found by their common shapes. Used to
// flag them before an export and, on request, to redact them. redact.ts
// removes keys we know by value; this finds keys we do not know.

export interface KeyPattern {
  kind: string;
  pattern: RegExp;
  /** Only this capture group is the secret (e.g. the value of NAME=value); default: the whole match. */
  group?: number;
}

// Order matters: the first kind that matches a span names it (Anthropic keys also look like OpenAI's).
export const KEY_PATTERNS: readonly KeyPattern[] = [
  { kind: "private key", pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )*PRIVATE KEY-----/g },
  { kind: "Anthropic API key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: "OpenAI API key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: "AWS access key id", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: "GitHub token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g },
  { kind: "Slack token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: "Stripe key", pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: "JSON Web Token", pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  {
    kind: ".env secret",
    pattern: /^[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?)[A-Za-z0-9_]*[ \t]*=[ \t]*["']?([^\s"'#]{6,})/gim,
    group: 1,
  },
];

export interface KeyMatch {
  kind: string;
  start: number;
  end: number;
}

/** Non-overlapping matches in text order (the earlier pattern wins a tie). */
export function findKeyPatterns(text: string): KeyMatch[] {
  const found: KeyMatch[] = [];
  for (const { kind, pattern, group } of KEY_PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const value = group === undefined ? match[0] : match[group];
      if (!value) continue;
      const start = match.index + (group === undefined ? 0 : match[0].lastIndexOf(value));
      const end = start + value.length;
      if (found.some((f) => start < f.end && f.start < end)) continue;
      found.push({ kind, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The text with every match replaced by `[redacted: kind]`. */
export function redactKeyPatterns(text: string): string {
  const matches = findKeyPatterns(text);
  if (matches.length === 0) return text;
  let out = "";
  let last = 0;
  for (const m of matches) {
    out += `${text.slice(last, m.start)}[redacted: ${m.kind}]`;
    last = m.end;
  }
  return out + text.slice(last);
}
