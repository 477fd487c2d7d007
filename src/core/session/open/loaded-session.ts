// A session read into memory: its index, diagnostics and bodies (parsed on
// demand from the line bytes). open-session.ts reads one; refreshSession
// extends it in place.

import type { Diagnostic } from "../../diagnostics.js";
import { EntryBodies, MemoryByteSource, type ByteSource } from "./byte-source.js";
import type { EntryMeta, LineLocation } from "../format/entry-meta.js";
import type { FileFingerprint } from "../bytes/fingerprint.js";
import type { IndexSnapshots } from "../snapshot/index-snapshot.js";
import { asBuffer } from "../bytes/jsonl-reader.js";
import type { MessageShape, MessageShapes } from "../scan/message-shapes.js";
import { LINE_ESCAPES_CANONICAL, LINE_IS_UTF8, NO_LINE_CHECKS, type LineChecks } from "../scan/line-checks.js";
import type { BuiltSession, ResumePoint, TitleSlotRead } from "../index/session-builder.js";
import type { SessionIndex } from "../index/session-index.js";
import type { SessionEntry, SessionHeader } from "../format/types.js";

export interface LoadedSession {
  readonly path: string | undefined;
  /** The header as on disk (not migrated); null when the first parsed line is not one. */
  readonly header: SessionHeader | null;
  /** Where the header is, when there is one. */
  readonly headerLocation: LineLocation | null;
  /** pi treats a file without a header as empty (and would overwrite it): writers must refuse. */
  readonly headerMissing: boolean;
  /** omp's title slot on line 1 (the session's current title in omp), or null. */
  readonly titleSlot: TitleSlotRead | null;
  /** On disk: 1, 2 or 3 (pi's `header.version ?? 1`, as a number). */
  readonly version: number;
  /** version < 3: shown migrated in memory; writers must migrate the file first. */
  readonly needsMigration: boolean;
  /** Line problems, then tree problems; each names the file when there is one. */
  readonly diagnostics: readonly Diagnostic[];
  readonly index: SessionIndex;
  /** size + mtime + hash of the last ≤ 4 KiB read; check it before appending. */
  readonly fingerprint: FileFingerprint;
  /** The entry (migrated for v1/v2). Treat it as read-only: bodies are cached and shared. */
  entry(id: string): SessionEntry | undefined;
  /** The body of the entry a meta describes (for duplicate ids, `entry(id)` gives the later one). */
  entryAt(meta: EntryMeta): SessionEntry;
  /** All entries, file order, migrated (header excluded). */
  entries(): SessionEntry[];
  /** Bodies of `metas` handed to `visit` in the order given and not kept (one pass over many entries). */
  eachEntryAt(metas: readonly EntryMeta[], visit: (entry: SessionEntry, position: number) => void): void;
  /**
   * The line's bytes (no break) of the entry at index position i, when held in memory and
   * checked by an exact read (open-session-in-memory.ts); else undefined.
   */
  checkedLineAt(i: number): Buffer | undefined;
  /** What the exact read established about checkedLineAt(i)'s bytes beyond their being valid JSON (line-checks.ts). */
  checkedLineChecksAt(i: number): LineChecks;
  /** Fills `out` with where checkedLineAt(i)'s message role and content are (message-shapes.ts); false when not known. */
  checkedMessageShapeAt(i: number, out: MessageShape): boolean;
  /** Root→leaf; undefined = index.leafId; null = []. An unknown id gives []. */
  pathTo(leafId?: string | null): SessionEntry[];
  /** The JSONL text of that entry's line, as on disk. */
  rawLine(id: string): string;
  location(id: string): EntryMeta | undefined;
}

export class Session implements LoadedSession {
  header!: SessionHeader | null;
  headerLocation!: LineLocation | null;
  headerMissing!: boolean;
  titleSlot!: TitleSlotRead | null;
  version!: number;
  needsMigration!: boolean;
  readonly index: SessionIndex;
  private lineDiagnostics!: Diagnostic[];
  private readonly bodies: EntryBodies;
  /** The very bytes the index read (never changed since), when held in memory. */
  private readonly heldBytes: MemoryByteSource | undefined;
  private readonly migrated: SessionEntry[] | null;
  private cachedDiagnostics: readonly Diagnostic[] | null = null;
  /** BuiltSession.escapesUnvouched of the last read (null: no line vouched for). */
  private escapesUnvouched: ReadonlySet<number> | null = null;
  private messageShapes: MessageShapes | null = null;
  /** The held bytes are valid UTF-8 as a whole (so is each line: a line break is never inside a character). */
  heldBytesAreUtf8 = false;
  /** Read with OpenOptions.skim (a full re-read after a rewrite skims too). */
  skimmed = false;
  /** OpenOptions.snapshots (a full re-read after a rewrite uses them too). */
  snapshots: IndexSnapshots | undefined;
  /** This read started from an index snapshot (only the bytes after it were read). */
  openedFromSnapshot = false;
  /** The file's inode and ctime when it was last read (an index snapshot's key). */
  fileStat = { ino: 0, ctimeMs: 0 };
  /** sha256 of the file's first ≤ 4 KiB as first read (an index snapshot's key); undefined when not known. */
  head: { hash: string; length: number } | undefined;

  constructor(
    readonly path: string | undefined,
    built: BuiltSession,
    source: ByteSource,
    public fingerprint: FileFingerprint,
    /** Where a live tail continues (internal to refreshSession). */
    public resume: ResumePoint | null,
  ) {
    this.index = built.index;
    this.migrated = built.migratedEntries;
    this.bodies = new EntryBodies(source, path ?? "session bytes");
    this.heldBytes = source instanceof MemoryByteSource ? source : undefined;
    this.take(built);
  }

  private take(built: BuiltSession): void {
    this.header = built.header;
    this.headerLocation = built.headerLocation;
    this.headerMissing = built.headerMissing;
    this.titleSlot = built.titleSlot;
    this.version = built.version;
    this.needsMigration = built.needsMigration;
    this.lineDiagnostics = built.diagnostics;
    this.cachedDiagnostics = null;
    this.escapesUnvouched = built.escapesUnvouched;
    this.messageShapes = built.messageShapes;
  }

  /** After the builder resumed from `resume` read the appended lines into this session's own index. */
  extended(built: BuiltSession, fingerprint: FileFingerprint): void {
    if (built.index !== this.index) throw new Error("internal: an append must extend the session's own index");
    this.take(built);
    this.fingerprint = fingerprint;
    this.resume = built.resume;
  }

  get diagnostics(): readonly Diagnostic[] {
    if (!this.cachedDiagnostics) {
      const all = [...this.lineDiagnostics, ...this.index.diagnostics];
      this.cachedDiagnostics = this.path === undefined ? all : all.map((d) => ({ ...d, file: this.path }));
    }
    return this.cachedDiagnostics;
  }

  location(id: string): EntryMeta | undefined {
    return this.index.get(id);
  }

  entry(id: string): SessionEntry | undefined {
    const meta = this.index.get(id);
    return meta ? this.entryAt(meta) : undefined;
  }

  entryAt(meta: EntryMeta): SessionEntry {
    return this.migrated ? this.migrated[meta.index]! : this.bodies.entry(meta);
  }

  entries(): SessionEntry[] {
    const all = new Array<number>(this.index.size);
    for (let i = 0; i < all.length; i++) all[i] = i;
    return this.bodiesAt(all);
  }

  eachEntryAt(metas: readonly EntryMeta[], visit: (entry: SessionEntry, position: number) => void): void {
    if (this.migrated) {
      for (let i = 0; i < metas.length; i++) visit(this.migrated[metas[i]!.index]!, i);
      return;
    }
    this.bodies.each(metas, visit);
  }

  checkedLineAt(i: number): Buffer | undefined {
    if (!this.heldBytes || this.skimmed || this.migrated) return undefined;
    return asBuffer(this.heldBytes.read(this.index.offsetAt(i), this.index.lengthAt(i)));
  }

  checkedLineChecksAt(i: number): LineChecks {
    if (!this.heldBytes || this.skimmed || this.migrated) return NO_LINE_CHECKS;
    const unvouched = this.escapesUnvouched;
    const escapes = unvouched !== null && !unvouched.has(this.index.offsetAt(i)) ? LINE_ESCAPES_CANONICAL : NO_LINE_CHECKS;
    return escapes | (this.heldBytesAreUtf8 ? LINE_IS_UTF8 : NO_LINE_CHECKS);
  }

  checkedMessageShapeAt(i: number, out: MessageShape): boolean {
    if (!this.heldBytes || this.skimmed || this.migrated || this.messageShapes === null) return false;
    return this.messageShapes.get(i, out);
  }

  pathTo(leafId?: string | null): SessionEntry[] {
    const leaf = leafId === undefined ? this.index.leafId : leafId;
    if (leaf === null) return [];
    return this.bodiesAt(this.index.pathPositions(leaf));
  }

  rawLine(id: string): string {
    const meta = this.index.get(id);
    if (!meta) throw new Error(`${this.path ?? "session"}: no entry ${id}`);
    return this.bodies.rawText(meta);
  }

  /** Bodies of the entries at these positions; no meta is made (a whole branch of a big session would keep ~100 k of them in the index). */
  private bodiesAt(positions: readonly number[]): SessionEntry[] {
    if (this.migrated) {
      const migrated = this.migrated;
      return positions.map((i) => migrated[i]!);
    }
    return this.bodies.entries(positions.map((i) => this.index.locationAt(i)));
  }
}
