// @ts-nocheck
// pi 1.5.2's own session search, copied verbatim (MIT, @earendil-works/pi-coding-agent@1.5.2
// and the pi-tui fuzzyMatch bundled with it) to serve as the oracle for src/core/search:
//   - buildSessionInfo: dist/core/session-manager.js (made synchronous: readline → split on \n,
//     dropping one \r before it, as readline's crlfDelay: Infinity does; the BOM is kept, as utf8 streams keep it)
//   - parseSearchQuery, matchSession, filterAndSortSessions: dist/modes/interactive/components/session-selector-search.js
//   - fuzzyMatch: dist/bundle/chunks/chunk-FF6XOTWB.js (pi-tui 1.5.2)
import { readFileSync, statSync } from "node:fs";

function scorePositions(textLower, positions) { let score = 0, lastMatchIndex = -1, consecutiveMatches = 0; for (let i of positions) lastMatchIndex === i - 1 ? (consecutiveMatches++, score -= consecutiveMatches * 5) : (consecutiveMatches = 0, lastMatchIndex >= 0 && (score += (i - lastMatchIndex - 1) * 2)), (i === 0 || /[\s\-_./:]/.test(textLower[i - 1])) && (score -= 10), score += i * .1, lastMatchIndex = i; return score }
function matchQuery(normalizedQuery, textLower) { if (normalizedQuery.length === 0) return { matches: !0, score: 0 }; if (normalizedQuery.length > textLower.length) return { matches: !1, score: 0 }; let positions = [], lastMatchIndex = -1; for (let queryIndex = 0; queryIndex < normalizedQuery.length; queryIndex++) { let i = textLower.indexOf(normalizedQuery[queryIndex], lastMatchIndex + 1); if (i === -1) return { matches: !1, score: 0 }; positions.push(i), lastMatchIndex = i } let score = scorePositions(textLower, positions); for (let start = textLower.indexOf(normalizedQuery); start !== -1; start = textLower.indexOf(normalizedQuery, start + 1)) { for (let k2 = 0; k2 < positions.length; k2++)positions[k2] = start + k2; score = Math.min(score, scorePositions(textLower, positions)) } return normalizedQuery === textLower && (score -= 100), { matches: !0, score } }
function fuzzyMatch(query, text) { let queryLower = query.toLowerCase(), textLower = text.toLowerCase(), primaryMatch = matchQuery(queryLower, textLower); if (primaryMatch.matches) return primaryMatch; let alphaNumericMatch = queryLower.match(/^(?<letters>[a-z]+)(?<digits>[0-9]+)$/), numericAlphaMatch = queryLower.match(/^(?<digits>[0-9]+)(?<letters>[a-z]+)$/), swappedQuery = alphaNumericMatch ? `${alphaNumericMatch.groups?.digits ?? ""}${alphaNumericMatch.groups?.letters ?? ""}` : numericAlphaMatch ? `${numericAlphaMatch.groups?.letters ?? ""}${numericAlphaMatch.groups?.digits ?? ""}` : ""; if (!swappedQuery) return primaryMatch; let swappedMatch = matchQuery(swappedQuery, textLower); return swappedMatch.matches ? { matches: !0, score: swappedMatch.score + 5 } : primaryMatch }

// ---- dist/core/session-manager.js ----
function parseSessionEntryLine(line) {
    if (!line.trim())
        return null;
    try {
        return JSON.parse(line);
    }
    catch {
        // Skip malformed lines
        return null;
    }
}
function isMessageWithContent(message) {
    return typeof message.role === "string" && "content" in message;
}
function extractTextContent(message) {
    const content = message.content;
    if (typeof content === "string") {
        return content;
    }
    return content
        .filter((block) => block.type === "text")
        .map((block) => block.text)
        .join(" ");
}
function getMessageActivityTime(entry) {
    const message = entry.message;
    if (!isMessageWithContent(message))
        return undefined;
    if (message.role !== "user" && message.role !== "assistant")
        return undefined;
    const msgTimestamp = message.timestamp;
    if (typeof msgTimestamp === "number") {
        return msgTimestamp;
    }
    const t = new Date(entry.timestamp).getTime();
    return Number.isNaN(t) ? undefined : t;
}
export function buildSessionInfo(filePath) {
    try {
        const stats = statSync(filePath);
        let header = null;
        let messageCount = 0;
        let firstMessage = "";
        const allMessages = [];
        let name;
        let lastActivityTime;
        const lines = readFileSync(filePath, "utf8").split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
        if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
        for (const line of lines) {
            const entry = parseSessionEntryLine(line);
            if (!entry)
                continue;
            if (!header) {
                if (entry.type !== "session")
                    return null;
                header = entry;
                continue;
            }
            // Extract session name (use latest, including explicit clears)
            if (entry.type === "session_info") {
                name = entry.name?.trim() || undefined;
            }
            if (entry.type !== "message")
                continue;
            messageCount++;
            const activityTime = getMessageActivityTime(entry);
            if (typeof activityTime === "number") {
                lastActivityTime = Math.max(lastActivityTime ?? 0, activityTime);
            }
            const message = entry.message;
            if (!isMessageWithContent(message))
                continue;
            if (message.role !== "user" && message.role !== "assistant")
                continue;
            const textContent = extractTextContent(message);
            if (!textContent)
                continue;
            allMessages.push(textContent);
            if (!firstMessage && message.role === "user") {
                firstMessage = textContent;
            }
        }
        if (!header)
            return null;
        const cwd = typeof header.cwd === "string" ? header.cwd : "";
        const parentSessionPath = header.parentSession;
        const headerTime = typeof header.timestamp === "string" ? new Date(header.timestamp).getTime() : NaN;
        const modified = typeof lastActivityTime === "number" && lastActivityTime > 0
            ? new Date(lastActivityTime)
            : !Number.isNaN(headerTime)
                ? new Date(headerTime)
                : stats.mtime;
        return {
            path: filePath,
            id: header.id,
            cwd,
            name,
            parentSessionPath,
            created: new Date(header.timestamp),
            modified,
            messageCount,
            firstMessage: firstMessage || "(no messages)",
            allMessagesText: allMessages.join(" "),
        };
    }
    catch {
        
        return null;
    }
}
// ---- session-selector-search.js ----
function normalizeWhitespaceLower(text) {
    return text.toLowerCase().replace(/\s+/g, " ").trim();
}
/**
 * Match tiers, best first. Each token is scored by the best field it matches; tiers dominate
 * fuzzy scores so an exact hit anywhere beats a scattered subsequence in a short field.
 */
const TIER_NAME = 0; // query text appears in the session name
const TIER_TEXT = 1; // query text appears in the session id, messages, or cwd
const TIER_FUZZY = 2; // query characters appear scattered in the session name or cwd
const TIER_WEIGHT = 1_000_000;
/**
 * Lowercased message text per session. allMessagesText holds every user/assistant message and
 * can be megabytes, so lowercase it once instead of on every keystroke.
 */
const messageTextCache = new WeakMap();
function getMessageText(session) {
    let cached = messageTextCache.get(session);
    if (!cached || cached.source !== session.allMessagesText) {
        cached = { source: session.allMessagesText, lower: session.allMessagesText.toLowerCase() };
        messageTextCache.set(session, cached);
    }
    return cached;
}
function getNormalizedMessageText(session) {
    const cached = getMessageText(session);
    cached.normalized ??= cached.lower.replace(/\s+/g, " ").trim();
    return cached.normalized;
}
function tierScore(tier, score = 0) {
    return tier * TIER_WEIGHT + score;
}
/** Exact (case-insensitive) text match. Messages and ids are only matched exactly: scattered matches in them are noise. */
function matchLiteralToken(session, value) {
    const name = session.name?.toLowerCase() ?? "";
    if (name.includes(value))
        return tierScore(TIER_NAME, fuzzyMatch(value, name).score);
    if (session.id.toLowerCase().includes(value))
        return tierScore(TIER_TEXT);
    if (getMessageText(session).lower.includes(value))
        return tierScore(TIER_TEXT);
    if (session.cwd.toLowerCase().includes(value))
        return tierScore(TIER_TEXT);
    return undefined;
}
function matchFuzzyToken(session, value) {
    const literal = matchLiteralToken(session, value.toLowerCase());
    if (literal !== undefined)
        return literal;
    let best;
    for (const field of [session.name ?? "", session.cwd]) {
        const m = fuzzyMatch(value, field);
        if (m.matches && (best === undefined || m.score < best))
            best = m.score;
    }
    return best === undefined ? undefined : tierScore(TIER_FUZZY, best);
}
function matchPhraseToken(session, phrase) {
    const name = normalizeWhitespaceLower(session.name ?? "");
    if (name.includes(phrase))
        return tierScore(TIER_NAME, fuzzyMatch(phrase, name).score);
    if (session.id.toLowerCase().includes(phrase))
        return tierScore(TIER_TEXT);
    if (getNormalizedMessageText(session).includes(phrase))
        return tierScore(TIER_TEXT);
    if (normalizeWhitespaceLower(session.cwd).includes(phrase))
        return tierScore(TIER_TEXT);
    return undefined;
}
function matchRegex(session, regex) {
    if (session.name && regex.test(session.name))
        return tierScore(TIER_NAME);
    if (regex.test(session.id) || regex.test(session.allMessagesText) || regex.test(session.cwd)) {
        return tierScore(TIER_TEXT);
    }
    return undefined;
}
export function hasSessionName(session) {
    return Boolean(session.name?.trim());
}
function matchesNameFilter(session, filter) {
    if (filter === "all")
        return true;
    return hasSessionName(session);
}
export function parseSearchQuery(query) {
    const trimmed = query.trim();
    if (!trimmed) {
        return { mode: "tokens", tokens: [], regex: null };
    }
    // Regex mode: re:<pattern>
    if (trimmed.startsWith("re:")) {
        const pattern = trimmed.slice(3).trim();
        if (!pattern) {
            return { mode: "regex", tokens: [], regex: null, error: "Empty regex" };
        }
        try {
            return { mode: "regex", tokens: [], regex: new RegExp(pattern, "i") };
        }
        catch (err) {
            const msg = err instanceof Error ? err.message : String(err);
            return { mode: "regex", tokens: [], regex: null, error: msg };
        }
    }
    // Token mode with quote support.
    // Example: foo "node cve" bar
    const tokens = [];
    let buf = "";
    let inQuote = false;
    let hadUnclosedQuote = false;
    const flush = (kind) => {
        const v = buf.trim();
        buf = "";
        if (!v)
            return;
        tokens.push({ kind, value: v });
    };
    for (let i = 0; i < trimmed.length; i++) {
        const ch = trimmed[i];
        if (ch === '"') {
            if (inQuote) {
                flush("phrase");
                inQuote = false;
            }
            else {
                flush("fuzzy");
                inQuote = true;
            }
            continue;
        }
        if (!inQuote && /\s/.test(ch)) {
            flush("fuzzy");
            continue;
        }
        buf += ch;
    }
    if (inQuote) {
        hadUnclosedQuote = true;
    }
    // If quotes were unbalanced, fall back to plain whitespace tokenization.
    if (hadUnclosedQuote) {
        return {
            mode: "tokens",
            tokens: trimmed
                .split(/\s+/)
                .map((t) => t.trim())
                .filter((t) => t.length > 0)
                .map((t) => ({ kind: "fuzzy", value: t })),
            regex: null,
        };
    }
    flush(inQuote ? "phrase" : "fuzzy");
    return { mode: "tokens", tokens, regex: null };
}
/**
 * Each field is matched separately, so a token never matches across field boundaries.
 * Different tokens may match different fields.
 */
export function matchSession(session, parsed) {
    if (parsed.mode === "regex") {
        if (!parsed.regex) {
            return { matches: false, score: 0 };
        }
        const score = matchRegex(session, parsed.regex);
        return score === undefined ? { matches: false, score: 0 } : { matches: true, score };
    }
    let totalScore = 0;
    for (const token of parsed.tokens) {
        let score;
        if (token.kind === "phrase") {
            const phrase = normalizeWhitespaceLower(token.value);
            if (!phrase)
                continue;
            score = matchPhraseToken(session, phrase);
        }
        else {
            score = matchFuzzyToken(session, token.value);
        }
        if (score === undefined)
            return { matches: false, score: 0 };
        totalScore += score;
    }
    return { matches: true, score: totalScore };
}
export function filterAndSortSessions(sessions, query, sortMode, nameFilter = "all") {
    const nameFiltered = nameFilter === "all" ? sessions : sessions.filter((session) => matchesNameFilter(session, nameFilter));
    const trimmed = query.trim();
    if (!trimmed)
        return nameFiltered;
    const parsed = parseSearchQuery(query);
    if (parsed.error)
        return [];
    // Recent mode: filter only, keep incoming order.
    if (sortMode === "recent") {
        const filtered = [];
        for (const s of nameFiltered) {
            const res = matchSession(s, parsed);
            if (res.matches)
                filtered.push(s);
        }
        return filtered;
    }
    // Relevance mode: sort by score, tie-break by modified desc.
    const scored = [];
    for (const s of nameFiltered) {
        const res = matchSession(s, parsed);
        if (!res.matches)
            continue;
        scored.push({ session: s, score: res.score });
    }
    scored.sort((a, b) => {
        if (a.score !== b.score)
            return a.score - b.score;
        return b.session.modified.getTime() - a.session.modified.getTime();
    });
    return scored.map((r) => r.session);
}
