// pi-tui 1.5.2's fuzzyMatch (bundled in pi 1.5.2 as dist/bundle/chunks/*.js),
// which pi's session search uses for words that are not found literally:
// the query's characters must appear in order in the text (case-insensitive);
// a letters+digits query also tries digits+letters ("v2" ~ "2v", +5). Lower
// score = better. Ported line by line; the score orders results like pi.

export interface FuzzyResult {
  matches: boolean;
  score: number;
}

const WORD_BOUNDARY = /[\s\-_./:]/;

function scorePositions(textLower: string, positions: readonly number[]): number {
  let score = 0;
  let lastMatchIndex = -1;
  let consecutiveMatches = 0;
  for (const i of positions) {
    if (lastMatchIndex === i - 1) {
      consecutiveMatches++;
      score -= consecutiveMatches * 5;
    } else {
      consecutiveMatches = 0;
      if (lastMatchIndex >= 0) score += (i - lastMatchIndex - 1) * 2;
    }
    if (i === 0 || WORD_BOUNDARY.test(textLower[i - 1]!)) score -= 10;
    score += i * 0.1;
    lastMatchIndex = i;
  }
  return score;
}

function matchQuery(normalizedQuery: string, textLower: string): FuzzyResult {
  if (normalizedQuery.length === 0) return { matches: true, score: 0 };
  if (normalizedQuery.length > textLower.length) return { matches: false, score: 0 };
  const positions: number[] = [];
  let lastMatchIndex = -1;
  for (let q = 0; q < normalizedQuery.length; q++) {
    const i = textLower.indexOf(normalizedQuery[q]!, lastMatchIndex + 1);
    if (i === -1) return { matches: false, score: 0 };
    positions.push(i);
    lastMatchIndex = i;
  }
  let score = scorePositions(textLower, positions);
  for (let start = textLower.indexOf(normalizedQuery); start !== -1; start = textLower.indexOf(normalizedQuery, start + 1)) {
    for (let k = 0; k < positions.length; k++) positions[k] = start + k;
    score = Math.min(score, scorePositions(textLower, positions));
  }
  if (normalizedQuery === textLower) score -= 100;
  return { matches: true, score };
}

export function fuzzyMatch(query: string, text: string): FuzzyResult {
  const queryLower = query.toLowerCase();
  const textLower = text.toLowerCase();
  const primary = matchQuery(queryLower, textLower);
  if (primary.matches) return primary;
  const alphaNumeric = queryLower.match(/^(?<letters>[a-z]+)(?<digits>[0-9]+)$/);
  const numericAlpha = queryLower.match(/^(?<digits>[0-9]+)(?<letters>[a-z]+)$/);
  const swapped = alphaNumeric
    ? `${alphaNumeric.groups?.digits ?? ""}${alphaNumeric.groups?.letters ?? ""}`
    : numericAlpha
      ? `${numericAlpha.groups?.letters ?? ""}${numericAlpha.groups?.digits ?? ""}`
      : "";
  if (!swapped) return primary;
  const swappedMatch = matchQuery(swapped, textLower);
  if (!swappedMatch.matches) return primary;
  return { matches: true, score: swappedMatch.score + 5 };
}
