// The persistent session catalogue: one row per session file, remembered on
// disk between runs and brought up to date per file by what changed — nothing
// (size and mtime as recorded: the row as is), an append (size grew and the
// previously seen tail is unchanged: the row carried forward over the new
// lines alone, when they continue the branch), anything else (a full read).
//
// Use:
//   const catalogue = await SessionCatalogue.open(join(defaultCacheDir(), "catalogue"));
//   for await (const row of catalogue.rows(files, (p) => show(p))) add(row);   // cached rows first
//   await catalogue.save();                                                   // appends the changed rows (catalogue-log.ts)
// The extension passes its globalStorageUri path as the folder.

import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import { FINGERPRINT_TAIL_BYTES, fingerprintOf, hashBytes } from "../session/bytes/fingerprint.js";
import { readRange } from "../session/bytes/read-range.js";
import type { CatalogueOptions } from "./catalogue-options.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { semanticsFor } from "../agent/index.js";
import type { ContextTokenRule } from "../tokens/context-token-rule.js";
import type { CatalogueRecord, RecordKey } from "./catalogue-file.js";
import { CatalogueLog, catalogueLogFile, loadLog } from "./catalogue-log.js";
import { extendRow, modifiedOf, rowVersionPolicy, type CatalogueRow, type ComputedRow, type RowVersion } from "./catalogue-row.js";
import { readRecord } from "./read-record.js";
import { RowCounts, type TakenCount } from "./row-counts.js";
import type { IncrementalUsage } from "../tokens/context-token-rule.js";
import type { BulkReader, StaleFile, SumAnswer } from "./bulk-reader.js";
import { appendsContextEdit, SumsAhead, sumForRecord, wantsSum } from "./sum-ahead.js";

export interface CatalogueProgress {
  /** Files looked at so far, of `total`. */
  done: number;
  total: number;
  /** How each was answered: unchanged (from the cache), appended (new lines only), read (in full). */
  cached: number;
  appended: number;
  read: number;
}

export type { CatalogueOptions } from "./catalogue-options.js";

/** pi-0.73 / pi-1.5: marked sessions as pi 1.5, the others as that; "-only" when explicit. */
export function policyName(options: CatalogueOptions): string {
  if (options.explicitVersion) return `${semanticsFor(options.explicitVersion).contextTokenRule.name}-only`;
  return semanticsFor(options.defaultVersion ?? "0.73").contextTokenRule.name;
}

/** A listing asks sums ahead for at most this many sessions modified within RECENT_SUM_MS (sum-ahead.ts). */
const RECENT_SUMS = 4;
const RECENT_SUM_MS = 10 * 60_000;
/** An unended last line written to within this long is taken for a line pi is writing (ms). */
const MID_WRITE_MS = 2_000;

/** Work between two yields to the event loop while reading (ms). */
const SLICE_MS = 30;

export class SessionCatalogue {
  private readonly records: Map<string, CatalogueRecord>;
  /** Records this process computed or removed since the last save (what save() appends). */
  private readonly touched = new Map<string, CatalogueRecord | null>();
  /** How the rows computed by this process were answered (for tests and benchmarks). */
  readonly stats = { cached: 0, appended: 0, read: 0, readByChild: 0, childCpuMs: 0, sumsAsked: 0, sumsKept: 0, sumsCpuMs: 0, midWrite: 0, sumsAwaited: 0 };
  /** pi 1.5 sums computed ahead for live rows without one (sum-ahead.ts). */
  private readonly sums = new SumsAhead((answer) => this.takeSum(answer));
  /** omp rows' counts kept over appends, in memory only (row-counts.ts). */
  private readonly counts = new RowCounts();

  /** The version of a session without a pi 1.x marker. */
  readonly defaultVersion: PiVersion;
  /** The rule of sessions without a pi 1.x marker. */
  readonly rule: ContextTokenRule;
  private readonly versionOf: RowVersion;

  private constructor(
    readonly folder: string,
    private readonly options: CatalogueOptions,
    records: Map<string, CatalogueRecord>,
    private readonly log: CatalogueLog,
  ) {
    this.defaultVersion = options.explicitVersion ?? options.defaultVersion ?? "0.73";
    this.rule = semanticsFor(this.defaultVersion).contextTokenRule;
    this.versionOf = rowVersionPolicy(options);
    this.records = records;
  }

  /** Loads the catalogue kept in `folder` (an empty one when there is none or it is damaged). */
  static async open(folder: string, options: CatalogueOptions = {}): Promise<SessionCatalogue> {
    // The policy names the file: rows computed under another policy are not reused.
    const name = policyName(options);
    const file = catalogueLogFile(folder, name);
    const loaded = await loadLog(file, name);
    return new SessionCatalogue(folder, options, loaded.records, new CatalogueLog(file, name, loaded.lineBytes, loaded.appendable));
  }

  get file(): string {
    return this.log.file;
  }

  /** The row as last computed, without looking at the file. */
  peek(path: string): CatalogueRow | undefined {
    const r = this.records.get(path);
    return r?.kind === "session" ? r.row : undefined;
  }

  /**
   * Rows of the session files among `files` (other files are skipped), rows
   * whose file is unchanged first, then the others as they are read. `bulk`:
   * files not recorded at all are read there when it wants them (a cold fill).
   */
  async *rows(files: readonly string[], onProgress?: (p: CatalogueProgress) => void, bulk?: BulkReader): AsyncGenerator<CatalogueRow> {
    const progress: CatalogueProgress = { done: 0, total: files.length, cached: 0, appended: 0, read: 0 };
    let stale: { path: string; size: number; mtimeMs: number }[] = [];
    for (const path of files) {
      let st;
      try {
        st = statSync(path);
      } catch {
        this.remove(path);
        progress.done++;
        continue;
      }
      const record = this.records.get(path);
      if (record && record.key.size === st.size && record.key.mtimeMs === st.mtimeMs) {
        progress.done++;
        progress.cached++;
        if (record.kind === "session") yield record.row;
      } else {
        stale.push({ path, size: st.size, mtimeMs: st.mtimeMs });
      }
    }
    onProgress?.({ ...progress });
    const changed = stale;
    const cold = bulk ? stale.filter((f) => !this.records.has(f.path)) : [];
    if (bulk && cold.length > 0 && bulk.wants(cold)) {
      const answered = new Set<string>();
      yield* this.readElsewhere(bulk, cold, answered, progress, onProgress);
      if (answered.size > 0) stale = stale.filter((f) => !answered.has(f.path));
    }
    let sliceStart = Date.now();
    for (const file of stale) {
      const row = this.update(file.path, progress, bulk);
      progress.done++;
      if (row) yield row;
      if (Date.now() - sliceStart >= SLICE_MS) {
        onProgress?.({ ...progress });
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = Date.now();
      }
    }
    onProgress?.({ ...progress });
    if (bulk?.sums) this.wantRecentSums(changed, bulk);
  }

  /**
   * Sessions written in the last minutes may be live (pi running in them): the few newest rows without a
   * sum get theirs ahead too, so an edit right after the listing need not wait for another append.
   */
  private wantRecentSums(files: readonly { path: string; mtimeMs: number }[], bulk: BulkReader): void {
    const now = Date.now();
    const recent = files.filter((f) => now - f.mtimeMs < RECENT_SUM_MS && wantsSum(this.records.get(f.path), this.versionOf));
    recent.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const f of recent.slice(0, RECENT_SUMS)) this.wantSum(f.path, bulk);
  }

  /** All rows of `files` (see rows()). */
  async list(files: readonly string[], onProgress?: (p: CatalogueProgress) => void, bulk?: BulkReader): Promise<CatalogueRow[]> {
    const out: CatalogueRow[] = [];
    for await (const row of this.rows(files, onProgress, bulk)) out.push(row);
    return out;
  }

  /** The rows of `cold` as `bulk` answers (those answered are added to `answered`; the caller reads the rest). */
  private async *readElsewhere(bulk: BulkReader, cold: readonly StaleFile[], answered: Set<string>, progress: CatalogueProgress, onProgress?: (p: CatalogueProgress) => void): AsyncGenerator<CatalogueRow> {
    const asked = new Set(cold.map((f) => f.path));
    let last = Date.now();
    try {
      for await (const answer of bulk.read([...asked], this.options, this.log.file)) {
        if (answer.kind === "done") {
          this.stats.childCpuMs += answer.cpuMs;
          continue;
        }
        if (answer.kind === "sum") continue;
        const path = answer.kind === "record" ? answer.record.path : answer.path;
        if (!asked.has(path) || answered.has(path)) continue;
        answered.add(path);
        progress.done++;
        if (answer.kind === "unreadable") {
          this.remove(path);
        } else {
          progress.read++;
          this.stats.read++;
          this.stats.readByChild++;
          // Recorded meanwhile (a watcher's refresh read it since): that record is the newer one.
          const record = this.records.get(path) ?? answer.record;
          if (record === answer.record && answer.logged !== undefined) this.putLogged(record, answer.logged);
          else if (record === answer.record) this.put(record, true);
          if (record.kind === "session") yield record.row;
        }
        if (Date.now() - last >= SLICE_MS) {
          onProgress?.({ ...progress });
          last = Date.now();
        }
      }
    } catch {
      // A BulkReader reports its own failures; what it did not answer is read in-process.
    }
  }

  /**
   * The up-to-date row of one file (e.g. after a watcher saw it change); undefined when it is not a session.
   * Watchers report one write more than once (VS Code's and Node's): a file as recorded is answered from the record.
   * An append that cannot be carried while the row's sum ahead is being computed (pi's context edit right after
   * the failed answer) waits for that sum (within the reader's own time limit), then is carried with it; without
   * the sum it reads the file in full.
   */
  async refresh(path: string, bulk?: BulkReader): Promise<CatalogueRow | undefined> {
    for (let waited = false; ; waited = true) {
      const record = this.records.get(path);
      if (record) {
        let st;
        try {
          st = statSync(path);
        } catch {
          st = undefined;
        }
        if (st && record.key.size === st.size && record.key.mtimeMs === st.mtimeMs) {
          this.stats.cached++;
          return record.kind === "session" ? record.row : undefined;
        }
      }
      const progress = { done: 0, total: 1, cached: 0, appended: 0, read: 0 };
      if (waited || !bulk?.sums || !wantsSum(record, this.versionOf)) return this.update(path, progress, bulk) ?? undefined;
      const appended = this.update(path, progress, bulk, false);
      if (appended !== undefined) return appended ?? undefined;
      // Not carried without the sum: the one being computed, or one asked now when pi's edit came in the failed answer's write.
      if (!this.sums.answered(path) && appendsContextEdit(record)) this.wantSum(path, bulk);
      const sum = this.sums.answered(path);
      if (!sum) return this.update(path, progress, bulk) ?? undefined;
      this.stats.sumsAwaited++;
      await sum;
    }
  }

  /** Resolves when no sum ahead is being computed (tests, benchmarks). */
  sumsSettled(): Promise<void> {
    return this.sums.settled();
  }

  /**
   * Appends what this process learnt since the last save to the file (another
   * process may have saved meanwhile: its lines stay, the later line for a path wins).
   */
  async save(): Promise<void> {
    if (this.touched.size === 0) return;
    const changes = [...this.touched];
    this.touched.clear();
    try {
      await this.log.write(changes, () => this.records.values());
    } catch (error) {
      // Not written: written with the next save (unless computed again meanwhile).
      for (const [path, record] of changes) if (!this.touched.has(path)) this.touched.set(path, record);
      throw error;
    }
  }

  /** Compacts the file now (a save does when it holds much more than its live lines). */
  async compact(): Promise<void> {
    await this.log.compact();
  }

  private remove(path: string): void {
    this.counts.forget(path);
    if (this.records.delete(path)) this.touched.set(path, null);
  }

  /** A record another process already appended to the log (`bytes`: its line's): nothing to save. */
  private putLogged(record: CatalogueRecord, bytes: number): void {
    this.counts.forget(record.path);
    this.records.set(record.path, record);
    this.touched.delete(record.path);
    this.log.appended(record.path, bytes);
  }

  /** `replaced`: the file was read again (a count kept for the row is dropped). */
  private put(record: CatalogueRecord, replaced = false): void {
    if (replaced) this.counts.forget(record.path);
    this.records.set(record.path, record);
    this.touched.set(record.path, record);
  }

  /**
   * `bulk`: where a live pi 1.5 row without its sum gets one computed ahead (sum-ahead.ts). Null when the file
   * is not a session (or unreadable); undefined when it is not a carried append and `read` is false.
   */
  private update(path: string, progress: CatalogueProgress, bulk?: BulkReader, read = true): CatalogueRow | null | undefined {
    const record = this.records.get(path);
    try {
      if (record?.kind === "session" && record.resume?.ids) {
        const appended = this.tryAppend(path, record);
        if (appended === "mid-write") {
          this.stats.midWrite++;
          return (this.records.get(path) as typeof record).row;
        }
        if (appended) {
          progress.appended++;
          this.stats.appended++;
          if (bulk?.sums && wantsSum(this.records.get(path), this.versionOf)) this.wantSum(path, bulk);
          return appended;
        }
      }
      if (!read) return undefined;
      progress.read++;
      this.stats.read++;
      return this.readWhole(path);
    } catch {
      // Unreadable now (gone, permissions): no row, and nothing remembered about it.
      this.remove(path);
      return null;
    }
  }

  /** Asked for the file as recorded now (its record's size): what is appended later is carried by takeSum. */
  private wantSum(path: string, bulk: BulkReader): void {
    const record = this.records.get(path);
    if (record && this.sums.want(path, record.key.size, bulk, this.options)) this.stats.sumsAsked++;
  }

  /** A sum computed ahead, kept in the row when it fits the file as recorded now (else dropped). */
  private takeSum(answer: SumAnswer | { kind: "done"; cpuMs: number }): void {
    if (answer.kind === "done") {
      this.stats.sumsCpuMs += answer.cpuMs;
      return;
    }
    const record = this.records.get(answer.path);
    if (!wantsSum(record, this.versionOf)) return;
    let projected;
    try {
      projected = sumForRecord(record, answer, this.versionOf);
    } catch {
      return; // unreadable now: the next change reads it
    }
    if (!projected) return;
    this.put({ ...record, resume: { ...record.resume!, projected } });
    this.stats.sumsKept++;
  }

  private readWhole(path: string): CatalogueRow | null {
    this.sums.forget(path);
    let count: IncrementalUsage | undefined;
    const record = readRecord(path, this.versionOf, { keepCount: (c) => (count = c) });
    this.put(record, true);
    if (count && record.kind === "session" && record.resume) this.counts.keepRead(path, count, record.key, record.resume.offset);
    return record.kind === "session" ? record.row : null;
  }

  /**
   * The row carried over appended lines, or null when the change is not a plain append of lines that continue
   * the branch; "mid-write" when all that was appended is the start of a line pi is still writing (its row
   * then has the file's size and time, its key and resume stay where the complete lines end).
   */
  private tryAppend(path: string, record: Extract<CatalogueRecord, { kind: "session" }>): CatalogueRow | null | "mid-write" {
    const key = record.key;
    const fd = openSync(path, "r");
    let computed: ComputedRow | null;
    let newKey: RecordKey;
    let taken: TakenCount | undefined;
    let headOf = "";
    try {
      const st = fstatSync(fd);
      if (st.size <= key.size) return null;
      if (key.ino !== undefined && st.ino !== key.ino) return null;
      const oldTail = readRange(fd, key.size - key.tailLength, key.tailLength);
      if (oldTail.length !== key.tailLength || hashBytes(oldTail) !== key.tailHash) return null;
      let appended = readRange(fd, key.size, st.size - key.size);
      if (appended.length !== st.size - key.size) return null;
      const complete = appended.lastIndexOf(0x0a) + 1;
      if (complete < appended.length) {
        // The start of a line pi is writing (seen between its write calls): carry the complete lines and leave
        // the rest for the change that ends it; the row says the file's size, as a full read's does (which
        // skips such a line). A line left unended (not written to lately, or whole but for its newline) is
        // read in full.
        if (Date.now() - st.mtimeMs > MID_WRITE_MS || appended[appended.length - 1] === 0x7d) return null;
        if (complete === 0) {
          const { row, resume } = record;
          this.put({ ...record, row: { ...row, size: st.size, mtimeMs: st.mtimeMs, modified: modifiedOf(row.lastActivity, resume!.headerMs, st.mtimeMs) } });
          return "mid-write";
        }
        appended = appended.subarray(0, complete);
      }
      const size = key.size + appended.length;
      // omp's count, when the row's read or last carry kept one and the file's head is as it was then.
      taken = this.counts.take(path, record.resume!.offset, fd);
      computed = extendRow(record.row, { ...record.resume!, ids: record.resume!.ids! }, appended, size, st.mtimeMs, this.versionOf, taken?.count);
      if (computed && size < st.size) computed = { ...computed, row: { ...computed.row, size: st.size } };
      if (!computed) return null;
      if (taken && computed.count) headOf = RowCounts.headAfter(fd, taken, key.size, size);
      const tail =
        appended.length >= FINGERPRINT_TAIL_BYTES
          ? appended.subarray(appended.length - FINGERPRINT_TAIL_BYTES)
          : Buffer.concat([oldTail.subarray(Math.max(0, oldTail.length - (FINGERPRINT_TAIL_BYTES - appended.length))), appended]);
      const fp = fingerprintOf(size, tail, st.mtimeMs);
      newKey = { size: fp.size, mtimeMs: fp.mtimeMs, tailHash: fp.tailHash, tailLength: fp.tailLength, ino: st.ino };
    } finally {
      closeSync(fd);
    }
    const { count, ...kept } = computed;
    this.put({ path, key: newKey, kind: "session", ...kept });
    if (count && kept.resume) this.counts.keep(path, count, kept.resume.offset, headOf);
    return computed.row;
  }
}
