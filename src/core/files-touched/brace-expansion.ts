// Bash brace expansion over characters that remember whether they were
// quoted: `{a,b}`, nested `{a,{b,c}}`, sequences `{1..3}`, `{01..10..3}`, `{a..e}`.
// Quoted braces and commas are literal, as in bash.

export interface QChar {
  ch: string;
  quoted: boolean;
}

interface BraceMatch {
  open: number;
  close: number;
  commas: number[];
}

function isOpen(c: QChar | undefined): boolean {
  return c !== undefined && !c.quoted && c.ch === "{";
}

function findBrace(chars: QChar[], from: number): BraceMatch | undefined {
  for (let open = from; open < chars.length; open++) {
    if (!isOpen(chars[open])) continue;
    // `${` is a parameter expansion, never a brace expansion.
    if (open > 0 && !chars[open - 1]!.quoted && chars[open - 1]!.ch === "$") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < chars.length; i++) {
      const c = chars[i]!;
      if (c.quoted) continue;
      if (c.ch === "{") depth++;
      else if (c.ch === "}") {
        if (depth === 0) {
          const body = chars.slice(open + 1, i);
          if (commas.length > 0 || sequence(body) !== undefined) return { open, close: i, commas };
          break;
        }
        depth--;
      } else if (c.ch === "," && depth === 0) commas.push(i);
    }
  }
  return undefined;
}

function sequence(body: QChar[]): string[] | undefined {
  if (body.some((c) => c.quoted)) return undefined;
  const text = body.map((c) => c.ch).join("");
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(text);
  if (num) {
    const start = parseInt(num[1]!, 10);
    const end = parseInt(num[2]!, 10);
    const step = Math.abs(num[3] ? parseInt(num[3], 10) : 1) || 1;
    const width = /^-?0\d/.test(num[1]!) || /^-?0\d/.test(num[2]!) ? Math.max(num[1]!.length, num[2]!.length) : 0;
    const count = Math.floor(Math.abs(end - start) / step) + 1;
    if (count > 10_000) return undefined;
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const n = start + (end >= start ? i * step : -i * step);
      const s = String(Math.abs(n)).padStart(width - (n < 0 ? 1 : 0), "0");
      out.push(n < 0 ? `-${s}` : s);
    }
    return out;
  }
  const alpha = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(text);
  if (alpha) {
    const start = alpha[1]!.charCodeAt(0);
    const end = alpha[2]!.charCodeAt(0);
    const step = Math.abs(alpha[3] ? parseInt(alpha[3], 10) : 1) || 1;
    const out: string[] = [];
    for (let n = start; end >= start ? n <= end : n >= end; n += end >= start ? step : -step) {
      out.push(String.fromCharCode(n));
    }
    return out;
  }
  return undefined;
}

/** All words a brace expression stands for; undefined when there would be more than `limit`. */
export function expandBraces(chars: QChar[], limit: number): QChar[][] | undefined {
  const results: QChar[][] = [];
  const pending: { chars: QChar[]; from: number }[] = [{ chars, from: 0 }];
  while (pending.length > 0) {
    const { chars: current, from } = pending.pop()!;
    const match = findBrace(current, from);
    if (!match) {
      results.push(current);
      if (results.length > limit) return undefined;
      continue;
    }
    const prefix = current.slice(0, match.open);
    const suffix = current.slice(match.close + 1);
    let alternatives: QChar[][];
    if (match.commas.length > 0) {
      const bounds = [match.open, ...match.commas, match.close];
      alternatives = [];
      for (let i = 0; i + 1 < bounds.length; i++) alternatives.push(current.slice(bounds[i]! + 1, bounds[i + 1]!));
    } else {
      const values = sequence(current.slice(match.open + 1, match.close)) ?? [];
      alternatives = values.map((v) => [...v].map((ch) => ({ ch, quoted: true })));
    }
    if (pending.length + results.length + alternatives.length > limit) return undefined;
    // Pushed in reverse so results come out in bash's order.
    for (let i = alternatives.length - 1; i >= 0; i--) {
      pending.push({ chars: [...prefix, ...alternatives[i]!, ...suffix], from: match.open });
    }
  }
  return results;
}
