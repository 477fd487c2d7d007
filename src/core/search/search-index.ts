// Search over session files with pi 1.5's `/resume` query language, backed by
// an on-disk index (search-store.ts) that is brought up to date before each
// search: unchanged files (same size and mtime) are not opened, grown files
// are read from where the last read stopped (when the bytes before are
// unchanged: fingerprint.ts), rewritten files are read again, deleted files
// are dropped. Which sessions match, and their order, are pi's
// (match-session.ts); the matching entries and snippets are ours.
import { existsSync, statSync } from "node:fs";
import { compareFingerprint } from "../session/bytes/fingerprint";
import { isListed, modifiedMs, readSessionText, type FileState, type TextEntry } from "./file-indexer";
import { compareRanked, literalNeedles, matchSession, type MatchedField, type SearchableSession } from "./match-session";
import { isEmptyQuery, parseSearchQuery, type ParsedQuery } from "./query";
import { RegexRunner, type RegexRunOptions } from "./regex-runner";
import { SearchStore, SegmentWriter, type Chunk, type Row } from "./search-store";
import { findNormalized, snippetAround } from "./snippet";

export interface EntryMatch {
  /** The entry's id (null for entries of old files without ids: use `line`). */
  entryId: string | null;
  line: number;
  /** The message's role, or "session_info" for a name match. */
  role: string;
  snippet: string;
  highlight: [number, number] | null;
  /** When the matching message (or the name) was written, ms; null when the entry has no time. */
  time: number | null;
}

export interface SessionHit {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  modifiedMs: number;
  /** pi's rank (lower first). */
  score: number;
  fields: MatchedField[];
  matches: EntryMatch[];
}

export interface SearchResult {
  query: string;
  /** The query cannot run (pi shows nothing): an empty or invalid regex. */
  error?: string;
  /** Matching sessions in pi's order (the first `limit` when a limit was given). */
  sessions: SessionHit[];
  /** How many sessions match in all (at least this many when `totalIsLowerBound`). */
  total: number;
  /** The search stopped once the first `limit` sessions were known (options.firstOnly): more may match. */
  totalIsLowerBound?: boolean;
  /** Why some sessions were not searched: "regex time limit" (listed in notSearched), "cancelled". */
  truncated?: string;
  notSearched: string[];
}

export interface SearchOptions {
  limit?: number;
  /** Only the first `limit` sessions are wanted (a picker): a `re:` query may stop once they are known, and `total` is then a lower bound. */
  firstOnly?: boolean;
  maxMatchesPerSession?: number;
  regex?: RegexRunOptions;
  signal?: AbortSignal;
}

export interface UpdateStats {
  unchanged: number;
  appended: number;
  rebuilt: number;
  removed: number;
  /** Session bytes read to bring the index up to date. */
  bytesRead: number;
}

class MissingData extends Error {}

const PRUNE_EVERY_MS = 60_000;
/** Work between two yields to the event loop while indexing (ms). */
const SLICE_MS = 30;
const NORM_CACHE_BYTES = 256 * 1024 * 1024;
/** An update writes a segment at least every this many bytes (bounds memory during a cold build). */
const SEGMENT_FLUSH_BYTES = 64 * 1024 * 1024;
/** More segments than this are compacted: rows with several chunks or in small segments are copied into one. */
const MAX_SEGMENTS = 16;
const SMALL_SEGMENT_BYTES = 8 * 1024 * 1024;

export class SearchIndex {
  readonly store: SearchStore;
  private rows: Map<string, Row> | null = null;
  /** Normalized text held in memory between searches (the extension searches on every keystroke). */
  private readonly normCache = new Map<string, Buffer>();
  private normCacheBytes = 0;
  private prunedAt = 0;
  private manifestMtime = -1;
  /** Runs `re:` queries (a worker that keeps the decoded text between queries). */
  private readonly regex = new RegexRunner();

  constructor(
    dir: string,
    private readonly options: { maxSegments?: number } = {},
  ) {
    this.store = new SearchStore(dir);
  }

  /** Stops the regex worker (and the text it holds) and closes the segment files; the index can still be used after. */
  close(): void {
    this.regex.close();
    this.store.closeSegments();
  }

  private loaded(): Map<string, Row> {
    // Another process (the CLI, another window) saved since: its rows are as good as ours, and newer.
    const mtime = this.store.manifestMtime();
    if (!this.rows || mtime !== this.manifestMtime) {
      this.rows = this.store.load();
      this.manifestMtime = mtime;
    }
    return this.rows;
  }

  /** Brings the rows of `paths` up to date with the files, and saves the manifest when something changed. */
  async update(paths: readonly string[], signal?: AbortSignal): Promise<UpdateStats> {
    const rows = this.loaded();
    const stats: UpdateStats = { unchanged: 0, appended: 0, rebuilt: 0, removed: 0, bytesRead: 0 };
    const writer = new SegmentWriter(this.store);
    let sliceStart = Date.now();
    for (const path of paths) {
      if (signal?.aborted) break;
      if (Date.now() - sliceStart >= SLICE_MS) {
        // Reads are synchronous (one reused buffer): let the event loop run between slices.
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = Date.now();
      }
      const row = rows.get(path);
      let size: number;
      let mtimeMs: number;
      try {
        const st = statSync(path);
        if (!st.isFile()) throw new Error("not a file");
        size = st.size;
        mtimeMs = st.mtimeMs;
      } catch {
        if (row) {
          rows.delete(path);
          stats.removed++;
        }
        continue;
      }
      if (row && row.fingerprint.size === size && row.fingerprint.mtimeMs === mtimeMs) {
        stats.unchanged++;
        continue;
      }
      let from: Row | null = null;
      if (row && row.resume !== null) {
        try {
          if (compareFingerprint(path, row.fingerprint) === "appended") from = row;
        } catch {
          // Unreadable now: read it all below (which reports the problem by skipping the file).
        }
      }
      try {
        const next = this.index(path, from, writer);
        stats.bytesRead += next.fingerprint.size - (from ? from.resume! : 0);
        if (from) stats.appended++;
        else stats.rebuilt++;
        rows.set(path, next);
      } catch {
        // Cannot read it (permissions, vanished mid-read): not searchable now.
        rows.delete(path);
      }
      if (writer.bytes >= SEGMENT_FLUSH_BYTES) writer.flush();
    }
    // Rows of files that no longer exist, outside the paths asked for (at most once a minute: a search per keystroke should not stat them all).
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      const wanted = new Set(paths);
      for (const path of rows.keys()) {
        if (!wanted.has(path) && !existsSync(path)) {
          rows.delete(path);
          stats.removed++;
        }
      }
    }
    if (stats.appended + stats.rebuilt + stats.removed > 0) {
      writer.flush();
      this.compact(rows);
      this.store.save(rows);
      this.manifestMtime = this.store.manifestMtime();
      // Segments of rows replaced here or by another process, or left by a crash, once they are old enough.
      this.store.collectGarbage(rows);
    }
    return stats;
  }

  private index(path: string, from: Row | null, writer: SegmentWriter): Row {
    const { state, appended } = readSessionText(path, from);
    const ents = Buffer.from(SearchStore.encodeEntries(appended.ents));
    const add = (old: Chunk[] | undefined, chunk: Chunk | null): Chunk[] => (chunk ? [...(old ?? []), chunk] : [...(old ?? [])]);
    return {
      ...state,
      entsBytes: (from?.entsBytes ?? 0) + ents.length,
      norm: add(from?.norm, writer.add("norm", Buffer.from(appended.norm))),
      orig: add(from?.orig, writer.add("orig", Buffer.from(appended.orig))),
      ents: add(from?.ents, writer.add("ents", ents)),
    };
  }

  /** When rows are spread over too many segments, copies the rows that have more than one chunk, or sit in small segments, into one new segment. */
  private compact(rows: Map<string, Row>): void {
    const segSizes = new Map<string, number>();
    for (const row of rows.values()) for (const c of [...row.norm, ...row.orig, ...row.ents]) segSizes.set(c.seg, (segSizes.get(c.seg) ?? 0) + c.len);
    if (segSizes.size <= (this.options.maxSegments ?? MAX_SEGMENTS)) return;
    const writer = new SegmentWriter(this.store);
    for (const [path, row] of rows) {
      const chunks = [...row.norm, ...row.orig, ...row.ents];
      if (chunks.length <= 3 && chunks.every((c) => segSizes.get(c.seg)! >= SMALL_SEGMENT_BYTES)) continue;
      const norm = this.store.read(row.norm, row.normBytes);
      const orig = this.store.read(row.orig, row.origBytes);
      const ents = this.store.read(row.ents, row.entsBytes);
      if (!norm || !orig || !ents) {
        rows.delete(path);
        continue;
      }
      const one = (chunk: Chunk | null): Chunk[] => (chunk ? [chunk] : []);
      rows.set(path, { ...row, norm: one(writer.add("norm", norm)), orig: one(writer.add("orig", orig)), ents: one(writer.add("ents", ents)) });
    }
    writer.flush();
    this.normCache.clear();
    this.normCacheBytes = 0;
  }

  private norm(row: Row): Buffer | null {
    if (row.normBytes === 0) return Buffer.alloc(0);
    const first = row.norm[0];
    const cacheKey = `${first?.seg}:${first?.off}:${row.norm.length}:${row.normBytes}`;
    const cached = this.normCache.get(cacheKey);
    if (cached) return cached;
    const bytes = this.store.read(row.norm, row.normBytes);
    if (bytes && bytes.length <= NORM_CACHE_BYTES / 8) {
      while (this.normCacheBytes + bytes.length > NORM_CACHE_BYTES && this.normCache.size > 0) {
        const [oldest, buf] = this.normCache.entries().next().value as [string, Buffer];
        this.normCache.delete(oldest);
        this.normCacheBytes -= buf.length;
      }
      this.normCache.set(cacheKey, bytes);
      this.normCacheBytes += bytes.length;
    }
    return bytes;
  }

  /** Searches the sessions in `paths` (after bringing the index up to date). */
  async search(paths: readonly string[], query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const parsed = parseSearchQuery(query);
    if (parsed.mode === "regex" && parsed.error) return { query, error: parsed.error, sessions: [], total: 0, notSearched: [] };
    await this.update(paths, options.signal);
    const rows = this.loaded();
    const candidates: [string, Row][] = [];
    for (const path of new Set(paths)) {
      const row = rows.get(path);
      if (row && isListed(row)) candidates.push([path, row]);
    }
    const result: SearchResult = { query, sessions: [], total: 0, notSearched: [] };
    const hits: { path: string; row: Row; score: number; modifiedMs: number; fields: Set<MatchedField>; positions?: [number, number][] }[] = [];
    if (parsed.mode === "regex") {
      // pi's order among sessions of one rank (most recent first), so the worker can stop at the first `limit`.
      candidates.sort(([pa, ra], [pb, rb]) => compareRanked({ score: 0, modifiedMs: modifiedMs(ra), path: pa }, { score: 0, modifiedMs: modifiedMs(rb), path: pb }));
      const jobs = candidates.map(([, row]) => ({
        key: `${row.origBytes}:${row.orig.map((c) => `${c.seg}.${c.off}.${c.len}`).join(",")}`,
        name: row.name ?? undefined,
        id: row.id,
        cwd: row.cwd,
        text: row.orig.map((c) => ({ path: this.store.segmentPath(c.seg), off: c.off, len: c.len })),
      }));
      const want = options.firstOnly && options.limit !== undefined ? options.limit : undefined;
      const run = await this.regex.run(parsed.pattern, jobs, { ...options.regex, signal: options.signal, want });
      if (!run.complete && run.stopped === null) result.totalIsLowerBound = true;
      candidates.forEach(([path, row], i) => {
        const outcome = run.outcomes[i];
        if (!outcome) {
          if (run.timedOut.includes(i) || run.stopped) result.notSearched.push(path);
          return;
        }
        if (!outcome.field) return;
        const score = outcome.field === "name" ? 0 : 1_000_000;
        hits.push({ path, row, score, modifiedMs: modifiedMs(row), fields: new Set([outcome.field]), positions: outcome.positions });
      });
      if (run.stopped === "aborted") result.truncated = "cancelled";
      else if (run.timedOut.length > 0 || run.stopped === "time") result.truncated = "regex time limit";
    } else {
      for (const [path, row] of candidates) {
        if (options.signal?.aborted) {
          result.truncated = "cancelled";
          break;
        }
        let current = row;
        let match;
        try {
          match = isEmptyQuery(parsed) ? { score: 0, fields: new Set<MatchedField>() } : matchSession(this.searchable(current), parsed);
        } catch (e) {
          if (!(e instanceof MissingData)) throw e;
          // Its data files were removed or cut short (by hand, or a full disk): index the file again.
          rows.delete(path);
          await this.update([path]);
          const again = this.rows?.get(path);
          if (!again || !isListed(again)) continue;
          current = again;
          match = matchSession(this.searchable(current), parsed);
        }
        if (match) hits.push({ path, row: current, score: match.score, modifiedMs: modifiedMs(current), fields: match.fields });
      }
    }
    hits.sort(compareRanked);
    result.total = hits.length;
    const shown = options.limit !== undefined ? hits.slice(0, options.limit) : hits;
    const maxMatches = options.maxMatchesPerSession ?? 20;
    for (const hit of shown) {
      const matches = isEmptyQuery(parsed) ? [] : this.entryMatches(hit.row, parsed, hit.fields, hit.positions, maxMatches);
      result.sessions.push({
        path: hit.path,
        id: hit.row.id,
        cwd: hit.row.cwd,
        name: hit.row.name,
        modifiedMs: hit.modifiedMs,
        score: hit.score,
        fields: [...hit.fields],
        matches,
      });
    }
    return result;
  }

  private searchable(row: Row): SearchableSession {
    return {
      id: row.id,
      cwd: row.cwd,
      name: row.name ?? undefined,
      messagesContain: (value) => {
        if (row.normBytes === 0) return false;
        const norm = this.norm(row);
        if (!norm) throw new MissingData();
        return norm.indexOf(value, 0, "utf8") >= 0;
      },
      messagesTest: () => {
        throw new Error("regex queries run in regex-runner");
      },
    };
  }

  private entryMatches(row: Row, parsed: ParsedQuery, fields: Set<MatchedField>, positions: [number, number][] | undefined, max: number): EntryMatch[] {
    const out: EntryMatch[] = [];
    if (fields.has("name") && row.name) {
      const needle = parsed.mode === "tokens" ? literalNeedles(parsed).find((n) => row.name!.toLowerCase().includes(n)) : undefined;
      const at = needle ? findNormalized(row.name, needle) : null;
      out.push({ entryId: row.nameEntryId, line: 0, role: "session_info", time: row.nameTime ?? null, ...pick(snippetAround(row.name, at)) });
    }
    const ents = row.messages > 0 ? this.store.readEntries(row) : [];
    if (!ents || ents.length === 0) return out;
    // Where the match starts, per entry (file order); the first match in each entry.
    const found = new Map<number, { needle?: string; at?: number; end?: number }>();
    if (parsed.mode === "tokens") {
      const norm = this.norm(row);
      if (!norm) return out;
      for (const needle of literalNeedles(parsed)) {
        const bytes = Buffer.from(needle);
        for (let p = norm.indexOf(bytes), n = 0; p >= 0 && n < max; p = norm.indexOf(bytes, p + Math.max(1, bytes.length)), n++) {
          const i = entryAt(ents, p, (e) => e.normStart);
          if (!found.has(i)) found.set(i, { needle });
        }
      }
    } else {
      for (const [start, end] of positions ?? []) {
        const i = entryAt(ents, start, (e) => e.origUnit);
        if (!found.has(i)) found.set(i, { at: start - ents[i]!.origUnit, end: end - ents[i]!.origUnit });
      }
    }
    const orig = found.size > 0 ? this.store.read(row.orig, row.origBytes) : null;
    for (const i of [...found.keys()].sort((a, b) => a - b).slice(0, Math.max(0, max - out.length))) {
      const e = ents[i]!;
      const f = found.get(i)!;
      const text = orig ? orig.toString("utf8", e.origByte, e.origByte + e.origByteLength) : "";
      const at: [number, number] | null = f.needle ? findNormalized(text, f.needle) : f.at !== undefined ? [f.at, Math.min(text.length, Math.max(f.at, f.end!))] : null;
      out.push({ entryId: e.id, line: e.line, role: e.role, time: Number.isNaN(e.time) ? null : e.time, ...pick(snippetAround(text, at && at[0] < text.length ? at : null)) });
    }
    return out;
  }
}

function pick(s: { text: string; highlight: [number, number] | null }): { snippet: string; highlight: [number, number] | null } {
  return { snippet: s.text, highlight: s.highlight };
}

/** The last entry whose start is ≤ position (entries are in text order). */
function entryAt(ents: readonly TextEntry[], position: number, start: (e: TextEntry) => number): number {
  let lo = 0;
  let hi = ents.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start(ents[mid]!) <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export type { FileState };
