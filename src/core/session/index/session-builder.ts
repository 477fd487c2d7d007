// Turns the lines of a session file into its header, index and diagnostics.
// Version 3 files are indexed from scanned fields only (bodies stay on disk);
// version 1/2 files are parsed whole and migrated in memory (they are small
// and pi's migration needs every entry).

import type { Diagnostic } from "../../diagnostics.js";
import type { LineLocation } from "../format/entry-meta.js";
import type { JsonlLine, JsonlReadSummary } from "../bytes/jsonl-reader.js";
import { asBuffer } from "../bytes/jsonl-reader.js";
import { LineClassifier, type ClassifiedLine } from "../scan/line-classifier.js";
import { scanFromValue, type LineScan } from "../scan/line-fields.js";
import { recordFromFields, type UnknownKinds } from "../scan/meta-from-fields.js";
import { SkimmedEntry, skimPiLayout } from "../skim/pi-layout-skimmer.js";
import { forgetLineBuffer } from "../skim/skim-bytes.js";
import type { SliceableBuffer } from "../scan/scanned-values.js";
import { MessageShapes } from "../scan/message-shapes.js";
import { migrateParsedLines, needsMigration, versionOfHeader } from "../format/migrate.js";
import { SessionIndex } from "./session-index.js";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../format/types.js";
import { titleSlotOf, type TitleSlot } from "../format/title-slot.js";

/** Entries read before the index reserves room for the rest of the file (enough to judge the line lengths). */
const RESERVE_AFTER_ENTRIES = 4096;
/** A reservation never exceeds this many times the entries read so far (a file of short lines first, long ones after). */
const RESERVE_AT_MOST = 64;

type AcceptedScan = Exclude<LineScan, { kind: "invalid" | "blank" }>;

export interface BuiltSession {
  header: SessionHeader | null;
  headerLocation: LineLocation | null;
  /** The first parsed line is not a session header: pi treats the file as empty; writers must refuse. */
  headerMissing: boolean;
  /** omp's title slot (line 1, when it is a valid one): the header is the next parsed line. */
  titleSlot: TitleSlotRead | null;
  version: number;
  needsMigration: boolean;
  index: SessionIndex;
  /** Per-line and whole-file diagnostics (the index adds its own structural ones). */
  diagnostics: Diagnostic[];
  /** Version 1/2 files: the migrated entries, by meta.index. Null for version 3 (bodies on disk). */
  migratedEntries: SessionEntry[] | null;
  /** Where a live-tail read can continue, or null when a change means reading the file again. */
  resume: ResumePoint | null;
  /**
   * Offsets of the lines whose escapes the exact read did not vouch for as
   * canonical (LineClassifier.escapesVouched); null when not tracked (not
   * asked for, or a skimmed or resumed read): then no line is vouched for.
   */
  escapesUnvouched: ReadonlySet<number> | null;
  /** Message shapes by index position (message-shapes.ts), tracked as escapesUnvouched is; null when not. */
  messageShapes: MessageShapes | null;
}

export interface TitleSlotRead extends TitleSlot {
  location: LineLocation;
}

export interface ResumePoint {
  offset: number;
  line: number;
  snapshot: BuilderSnapshot;
}

/**
 * Everything a builder needs to continue after the last complete line. A
 * builder resumed from it takes these objects over (the index is extended in
 * place, not copied): a snapshot is used once, by the session that owns it.
 */
export interface BuilderSnapshot {
  sawContent: boolean;
  headerDecided: boolean;
  header: SessionHeader | null;
  headerLocation: LineLocation | null;
  headerMissing: boolean;
  /** Absent in snapshots written before omp was read. */
  titleSlot?: TitleSlotRead | null;
  index: SessionIndex;
  diagnostics: Diagnostic[];
  unknown: UnknownKinds;
  /** Whole-file facts of the reads so far (a resumed read starts past the BOM). */
  bom: boolean;
  /** Long lines are skimmed (see skimLine). */
  skim: boolean;
  crlfLines: number;
}

interface ParsedLine {
  value: unknown;
  location: LineLocation;
}

interface DeferredLine {
  location: LineLocation;
  classified: Extract<ClassifiedLine, { kind: "invalid" }>;
  terminated: boolean;
  text: string;
}

function lineText(l: JsonlLine): string {
  return asBuffer(l.bytes).toString("utf8", l.start, l.start + l.length);
}

/** JSON.parse of a line the classifier accepted (maybe only after pi's whole-text trim). */
function parseAccepted(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(text.trim());
  }
}

/**
 * skimPiLayout's target, shared by every builder: it is filled and read within
 * one synchronous call per line. One object for the process also keeps its
 * hidden class alive between opens: with one per builder, a full GC after an
 * open freed the class, and V8 threw away the skimmer's optimised code that
 * checks for it (recompiled at every open).
 */
const SHARED_SKIMMED = new SkimmedEntry();

export class SessionBuilder {
  private readonly classifier: LineClassifier;
  private sawContent: boolean;
  private headerDecided: boolean;
  private header: SessionHeader | null;
  private headerLocation: LineLocation | null;
  private headerMissing: boolean;
  private titleSlot: TitleSlotRead | null;
  private legacy = false;
  private readonly index: SessionIndex;
  private readonly diagnostics: Diagnostic[];
  private readonly unknown: UnknownKinds;
  private readonly legacyLines: ParsedLine[] = [];
  private deferred: DeferredLine | null = null;
  private acceptedAsLast = false;
  private readonly earlierBom: boolean;
  private readonly earlierCrlfLines: number;

  private readonly skim: boolean;
  /** BuiltSession.escapesUnvouched (tracked only by a whole exact read asked for it: otherwise null). */
  private readonly escapesUnvouched: Set<number> | null;
  private readonly messageShapes: MessageShapes | null;
  /** When skimming: the reused target of skimPiLayout. */
  private readonly skimmed: SkimmedEntry | null;
  /** Where the read ends (`fileBytes`), the first line's offset, and the index size at which to reserve room for the rest (-1: never). */
  private readonly fileBytes: number;
  private firstOffset = -1;
  private reserveAt: number;

  /**
   * `skim`: long lines are skimmed (see skimLine); `piLayout` (default true when
   * skimming): lines in pi's layout are read by skimPiLayout, which
   * gives what skimLine gives (false: skimLine only, the reference in tests).
   * `lineFacts`: keep escapesUnvouched and messageShapes (a whole exact read
   * whose bytes are held for code working from them: open-session-in-memory.ts).
   * `fileBytes`: where the read will end; after the first lines the index
   * reserves room for the entries the rest of the file likely holds.
   */
  constructor(resumeFrom?: BuilderSnapshot, options: { skim?: boolean; piLayout?: boolean; lineFacts?: boolean; fileBytes?: number } = {}) {
    const s = resumeFrom;
    this.sawContent = s?.sawContent ?? false;
    this.skim = s?.skim ?? options.skim ?? false;
    this.skimmed = this.skim && options.piLayout !== false ? SHARED_SKIMMED : null;
    this.classifier = new LineClassifier(this.sawContent, this.skim);
    this.headerDecided = s?.headerDecided ?? false;
    this.header = s?.header ?? null;
    this.headerLocation = s?.headerLocation ?? null;
    this.headerMissing = s?.headerMissing ?? false;
    this.titleSlot = s?.titleSlot ?? null;
    this.index = s ? s.index : new SessionIndex();
    // A read from scratch: ids go into the table in one pass at the end (or when a line's parent is looked up).
    if (!s) this.index.deferIds();
    this.diagnostics = s ? s.diagnostics : [];
    this.unknown = s ? s.unknown : { entryTypes: new Set(), messageRoles: new Set() };
    this.earlierBom = s?.bom ?? false;
    this.earlierCrlfLines = s?.crlfLines ?? 0;
    this.escapesUnvouched = options.lineFacts === true && !s && !this.skim ? new Set() : null;
    this.messageShapes = this.escapesUnvouched === null ? null : new MessageShapes();
    this.fileBytes = options.fileBytes ?? -1;
    this.reserveAt = options.fileBytes !== undefined ? this.index.size + RESERVE_AFTER_ENTRIES : -1;
  }

  /** Room in the index for the entries of the bytes still to come, at the rate of those read so far (at most RESERVE_AT_MOST times as many). */
  private reserveRest(offset: number): void {
    this.reserveAt = -1;
    const read = offset - this.firstOffset;
    if (read <= 0 || this.fileBytes <= offset) return;
    const size = this.index.size;
    const rest = Math.ceil((size * (this.fileBytes - offset) * 1.05) / read);
    this.index.reserve(size + Math.min(rest, size * RESERVE_AT_MOST));
  }

  line(l: JsonlLine): void {
    if (this.firstOffset < 0) this.firstOffset = l.offset;
    if (this.index.size === this.reserveAt) this.reserveRest(l.offset);
    // Most lines of a big session: pi's layout, indexed straight from its bytes.
    const skimmed = this.skimmed;
    if (skimmed !== null && this.deferred === null && this.headerDecided && !this.legacy) {
      const b = asBuffer(l.bytes) as SliceableBuffer;
      if (skimPiLayout(b, l.start, l.start + l.length, skimmed)) {
        this.index.addSkimmed(skimmed, b, l.line, l.offset, l.length);
        return;
      }
    }
    const classified = this.classifier.classify(l.bytes, l.start, l.start + l.length);
    if (classified.kind === "blank") return;
    this.sawContent = true;
    if (this.escapesUnvouched !== null && !this.classifier.escapesVouched) this.escapesUnvouched.add(l.offset);
    const location: LineLocation = { line: l.line, offset: l.offset, length: l.length };
    if (this.deferred) {
      this.reportInvalid(this.deferred.location, this.deferred.classified, this.deferred.terminated);
      this.deferred = null;
    }
    if (classified.kind === "invalid") {
      if (classified.ifLast) this.deferred = { location, classified, terminated: l.terminated, text: lineText(l) };
      else this.reportInvalid(location, classified, l.terminated);
      return;
    }
    const needsText = !this.headerDecided || this.legacy;
    const shape = this.messageShapes !== null ? this.classifier.messageShape : undefined;
    const position = this.index.size;
    this.accept(location, classified, needsText ? lineText(l) : "");
    if (shape !== undefined && this.index.size === position + 1) this.messageShapes!.set(position, shape, l.start);
  }

  finish(read: JsonlReadSummary): BuiltSession {
    if (this.skimmed !== null) forgetLineBuffer();
    this.index.settleIds();
    if (this.deferred) {
      // It was the last non-blank line after all: pi's whole-text trim makes it valid.
      const d = this.deferred;
      this.deferred = null;
      this.acceptedAsLast = true;
      this.accept(d.location, d.classified.ifLast!, d.text);
    }
    const fileDiagnostics: Diagnostic[] = [];
    const bom = read.bom || this.earlierBom;
    const crlfLines = read.crlfLines + this.earlierCrlfLines;
    if (bom) fileDiagnostics.push({ severity: "info", code: "bom", message: "file starts with a UTF-8 BOM (pi ignores it)", line: 1 });
    if (crlfLines > 0) {
      fileDiagnostics.push({ severity: "info", code: "crlf", message: `${crlfLines} line(s) end in CRLF (pi ignores the \\r)` });
    }
    if (!this.sawContent) fileDiagnostics.push({ severity: "info", code: "empty-file", message: "file has no entries" });
    else if (this.titleSlot !== null && !this.headerDecided) {
      fileDiagnostics.push({
        severity: "warning",
        code: "slot-only",
        message: "omp's title slot and nothing after it: omp would start a new session here (replacing the file); writing is refused",
        line: this.titleSlot.location.line,
      });
    }
    let migratedEntries: SessionEntry[] | null = null;
    if (this.legacy) migratedEntries = this.finishLegacy();
    const version = this.header ? versionOfHeader(this.header) : CURRENT_SESSION_VERSION;
    const canResume = !this.legacy && !this.acceptedAsLast && !read.unterminatedTail;
    return {
      header: this.header,
      headerLocation: this.headerLocation,
      headerMissing: this.headerMissing,
      titleSlot: this.titleSlot,
      version,
      needsMigration: this.header !== null && needsMigration(version),
      index: this.index,
      diagnostics: [...fileDiagnostics, ...this.diagnostics],
      migratedEntries,
      resume: canResume ? { offset: read.completeUpTo, line: read.nextLine, snapshot: this.snapshot(bom, crlfLines) } : null,
      escapesUnvouched: this.escapesUnvouched,
      messageShapes: this.messageShapes,
    };
  }

  private snapshot(bom: boolean, crlfLines: number): BuilderSnapshot {
    return {
      bom,
      crlfLines,
      skim: this.skim,
      sawContent: this.sawContent,
      headerDecided: this.headerDecided,
      header: this.header,
      headerLocation: this.headerLocation,
      headerMissing: this.headerMissing,
      titleSlot: this.titleSlot,
      index: this.index,
      diagnostics: this.diagnostics,
      unknown: this.unknown,
    };
  }

  private reportInvalid(location: LineLocation, c: Extract<ClassifiedLine, { kind: "invalid" }>, terminated: boolean): void {
    this.diagnostics.push(
      terminated
        ? {
            severity: "error",
            code: "invalid-json",
            message: `not valid JSON (${c.reason} at byte ${c.at}); skipped, as pi skips it`,
            line: location.line,
          }
        : {
            severity: "warning",
            code: "truncated-last-line",
            message: `last line is incomplete (no final newline, not valid JSON: ${c.reason}); skipped, as pi skips it`,
            line: location.line,
          },
    );
  }

  private accept(location: LineLocation, scan: AcceptedScan, text: string): void {
    if (!this.headerDecided && location.line === 1 && scan.kind === "object" && scan.fields.type === "title") {
      // omp peels a valid title slot off line 1; its header is the next parsed line.
      const slot = titleSlotOf(parseAccepted(text));
      if (slot) {
        this.titleSlot = { ...slot, location };
        return;
      }
    }
    if (!this.headerDecided) {
      this.headerDecided = true;
      if (scan.kind === "object" && scan.fields.type === "session" && typeof scan.fields.id === "string") {
        const header = parseAccepted(text) as SessionHeader;
        this.header = header;
        this.headerLocation = location;
        const version = versionOfHeader(header);
        if (header.version !== undefined && typeof header.version !== "number") {
          this.diagnostics.push({
            severity: "warning",
            code: "bad-field",
            message: `header "version" is not a number; read as version ${version}, as pi compares it`,
            line: location.line,
          });
        }
        if (needsMigration(version)) {
          this.legacy = true;
          // pi's migration mutates its parsed copy; keep `header` as on disk.
          this.legacyLines.push({ value: parseAccepted(text), location });
        }
        return;
      }
      this.headerMissing = true;
      this.diagnostics.push({
        severity: "error",
        code: "missing-header",
        message:
          this.titleSlot !== null
            ? "the line after omp's title slot is not a session header; omp would refuse to resume this file; entries are shown, writing is refused"
            : "the first line is not a session header; pi treats this file as empty (and would overwrite it); entries are shown, writing is refused",
        line: location.line,
      });
    }
    if (this.legacy) {
      this.legacyLines.push({ value: parseAccepted(text), location });
      return;
    }
    this.indexLine(location, scan);
  }

  private indexLine(location: LineLocation, scan: AcceptedScan): void {
    if (scan.kind === "value") {
      this.diagnostics.push({
        severity: "error",
        code: "not-an-object",
        message: `line holds a JSON ${scan.valueType}, not an entry object; skipped`,
        line: location.line,
      });
      return;
    }
    if (scan.fields.type === "session") {
      this.diagnostics.push(
        this.header
          ? {
              severity: "warning",
              code: "extra-header",
              message: `a second session header (first on line ${this.headerLocation?.line}); not an entry, ignored as pi ignores it`,
              line: location.line,
            }
          : {
              severity: "warning",
              code: "misplaced-header",
              message: "a session header that is not the first line; pi does not accept it as the header",
              line: location.line,
            },
      );
      return;
    }
    const record = recordFromFields(scan.fields, location, this.unknown, this.diagnostics);
    if (record) this.index.addRecord(record);
  }

  private finishLegacy(): SessionEntry[] {
    const values = this.legacyLines.map((l) => l.value);
    const { fromVersion } = migrateParsedLines(values);
    this.diagnostics.push({
      severity: "info",
      code: "needs-migration",
      message: `version ${fromVersion} file, read as version ${CURRENT_SESSION_VERSION} in memory${
        fromVersion < 2 ? " with deterministic ids" : ""
      }; the file is not changed (pi would rewrite it)`,
      line: this.headerLocation?.line,
    });
    const entries: SessionEntry[] = [];
    // values[0] is the header.
    for (let i = 1; i < values.length; i++) {
      const scan = scanFromValue(values[i]);
      if (scan.kind === "blank" || scan.kind === "invalid") continue;
      const before = this.index.size;
      this.indexLine(this.legacyLines[i]!.location, scan);
      if (this.index.size > before) entries.push(values[i] as SessionEntry);
    }
    return entries;
  }
}
