// omp's prompt rendering (pi-utils prompt.ts `render`): a Handlebars template
// filled without escaping, then `format(…, {renderPhase: "post-render"})`,
// which rewrites the whole text — the inserted summary included: trailing
// whitespace trimmed per line, runs of blank lines collapsed (none at the start
// or end, none before a closing XML tag line), table rows compacted — except
// inside ``` / ~~~ fences. Ported line for line (pi-utils 18.2.9, same output
// as the 18.3.4 bundle).

const TABLE_ROW = /^\|.*\|$/;
const TABLE_SEP = /^\|[-:\s|]+\|$/;
const NON_BLANK = /\S/;
const OPENING_XML = /^<([a-z_-]+)(?:\s+[^>]*)?>$/;

function closingTagName(s: string): string | null {
  const n = s.length;
  if (n < 4 || s.charCodeAt(n - 1) !== 62) return null;
  for (let j = 2; j < n - 1; j++) {
    const c = s.charCodeAt(j);
    if (!((c >= 97 && c <= 122) || c === 45 || c === 95)) return null;
  }
  return s.slice(2, n - 1);
}

function openingTagName(s: string): string | null {
  const n = s.length;
  if (n < 3 || s.charCodeAt(n - 1) !== 62) return null;
  let j = 1;
  while (j < n - 1) {
    const c = s.charCodeAt(j);
    if ((c >= 97 && c <= 122) || c === 45 || c === 95) j++;
    else break;
  }
  if (j === 1) return null;
  if (j === n - 1) return s.slice(1, j);
  const c = s.charCodeAt(j);
  if (c !== 32 && c !== 9) {
    if (c < 128) return null;
    const match = OPENING_XML.exec(s);
    return match ? match[1]! : null;
  }
  return s.indexOf(">", j + 1) === n - 1 ? s.slice(1, j) : null;
}

function compactTableRow(line: string): string {
  return line
    .split("|")
    .map((c) => c.trim())
    .join("|");
}

function compactTableSep(line: string): string {
  const cells = line.split("|").filter((c) => c.trim());
  const normalized = cells.map((c) => {
    const trimmed = c.trim();
    const left = trimmed.startsWith(":");
    const right = trimmed.endsWith(":");
    if (left && right) return ":---:";
    if (left) return ":---";
    if (right) return "---:";
    return "---";
  });
  return `|${normalized.join("|")}|`;
}

/** pi-utils `format(content, {renderPhase: "post-render"})`. */
export function formatPostRender(content: string): string {
  const lines = content.split("\n");
  const result: string[] = new Array<string>(lines.length);
  let n = 0;
  let inCodeBlock = false;
  const topLevelTags: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const last = raw.charCodeAt(raw.length - 1);
    let line = last <= 32 || last >= 128 ? raw.trimEnd() : raw;
    let s = 0;
    let first = line.charCodeAt(0);
    while (first === 32 || first === 9) first = line.charCodeAt(++s);
    if (first >= 128) {
      s = line.length - line.trimStart().length;
      first = line.charCodeAt(s);
    }
    if ((first === 96 || first === 126) && (line.startsWith("```", s) || line.startsWith("~~~", s))) {
      inCodeBlock = !inCodeBlock;
      result[n++] = line;
      continue;
    }
    if (inCodeBlock) {
      result[n++] = line;
      continue;
    }
    let isClosingLine = false;
    if (first === 60) {
      const trimmedStart = s === 0 ? line : line.slice(s);
      if (trimmedStart.charCodeAt(1) === 47) {
        const tagName = closingTagName(trimmedStart);
        if (tagName !== null) {
          isClosingLine = true;
          if (topLevelTags.length > 0 && topLevelTags[topLevelTags.length - 1] === tagName) topLevelTags.pop();
        }
      } else if (s === 0 && !trimmedStart.endsWith("/>")) {
        const tagName = openingTagName(trimmedStart);
        if (tagName !== null) topLevelTags.push(tagName);
      }
    } else if (first === 124) {
      const trimmedStart = s === 0 ? line : line.slice(s);
      if (TABLE_SEP.test(trimmedStart)) line = `${line.slice(0, s)}${compactTableSep(trimmedStart)}`;
      else if (TABLE_ROW.test(trimmedStart)) line = `${line.slice(0, s)}${compactTableRow(trimmedStart)}`;
    }
    if (s >= line.length) {
      const next = lines[i + 1];
      if (next === undefined || next.length === 0 || !NON_BLANK.test(next)) {
        while (n > 0 && result[n - 1]!.length === 0) n--;
        let j = i + 1;
        while (j < lines.length && (lines[j]!.length === 0 || !NON_BLANK.test(lines[j]!))) j++;
        i = j - 1;
        continue;
      }
      if (n === 0 || result[n - 1]!.length === 0) continue;
    }
    if (isClosingLine) {
      while (n > 0 && result[n - 1]!.length === 0) n--;
    }
    result[n++] = line;
  }
  while (n > 0 && result[n - 1]!.length === 0) n--;
  result.length = n;
  return result.join("\n");
}

/** A template whose only placeholder is `{{summary}}`, rendered as omp renders it. */
export function renderSummaryTemplate(template: string, summary: string): string {
  return formatPostRender(template.split("{{summary}}").join(summary));
}
