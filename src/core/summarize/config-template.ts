// pi 1.5's value syntax for models.json `apiKey` / header values and auth.json
// `key` (pi-coding-agent 1.5.2 core/resolve-config-value.js
// parseConfigValueTemplate / resolveTemplate): plain text is literal;
// `$NAME` and `${NAME}` are replaced by a variable (the credential's `env` map
// first, then the process environment; empty counts as unset); `$$` is `$`,
// `$!` is `!`; a `$` that starts no name stays a `$`. A value naming an unset
// variable does not resolve at all. (A leading `!` — a command — is handled
// by the caller, as in pi.)

type TemplatePart = { type: "literal"; value: string } | { type: "env"; name: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*/;

function pushLiteral(parts: TemplatePart[], value: string): void {
  if (!value) return;
  const last = parts[parts.length - 1];
  if (last?.type === "literal") last.value += value;
  else parts.push({ type: "literal", value });
}

export function parseConfigTemplate(config: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let index = 0;
  while (index < config.length) {
    const dollar = config.indexOf("$", index);
    if (dollar < 0) {
      pushLiteral(parts, config.slice(index));
      break;
    }
    pushLiteral(parts, config.slice(index, dollar));
    const next = config[dollar + 1];
    if (next === "$" || next === "!") {
      pushLiteral(parts, next);
      index = dollar + 2;
      continue;
    }
    if (next === "{") {
      const end = config.indexOf("}", dollar + 2);
      if (end < 0) {
        pushLiteral(parts, "$");
        index = dollar + 1;
        continue;
      }
      const name = config.slice(dollar + 2, end);
      if (NAME.test(name)) parts.push({ type: "env", name });
      else pushLiteral(parts, config.slice(dollar, end + 1));
      index = end + 1;
      continue;
    }
    const match = NAME_PREFIX.exec(config.slice(dollar + 1));
    if (match) {
      parts.push({ type: "env", name: match[0] });
      index = dollar + 1 + match[0].length;
      continue;
    }
    pushLiteral(parts, "$");
    index = dollar + 1;
  }
  return parts;
}

export type TemplateResult = { ok: true; value: string; interpolated: boolean } | { ok: false; unset: string[] };

/** The value with its variables filled in, or the names of the unset ones. */
export function resolveConfigTemplate(
  config: string,
  credentialEnv: Readonly<Record<string, string>> | undefined,
  env: NodeJS.ProcessEnv,
): TemplateResult {
  let value = "";
  const unset: string[] = [];
  let interpolated = false;
  for (const part of parseConfigTemplate(config)) {
    if (part.type === "literal") {
      value += part.value;
      continue;
    }
    interpolated = true;
    const found = credentialEnv?.[part.name] || env[part.name] || undefined;
    if (found === undefined) {
      if (!unset.includes(part.name)) unset.push(part.name);
    } else value += found;
  }
  return unset.length > 0 ? { ok: false, unset } : { ok: true, value, interpolated };
}
