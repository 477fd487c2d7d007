// Per-session touch manifests remembered on disk between runs and brought up
// to date per file by what changed, as the session catalogue does: nothing
// (size and mtime as recorded: the manifest as is), an append (the file grew
// and the previously seen tail is unchanged: only the new lines analysed),
// anything else — rewrite, truncation, a v1/v2 session — a full read.
//
// Use:
//   const store = await FileTouchStore.open(folder);     // the catalogue's folder
//   const touches = store.touchesOf(sessionPath, fallbackCwd);
//   await store.save();                                   // atomic; merges with other writers

import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import { FINGERPRINT_TAIL_BYTES, fingerprintOf, hashBytes } from "../session/bytes/fingerprint.js";
import { openSessionSync, sessionFromBytes } from "../session/open/open-session.js";
import { readRange } from "../session/bytes/read-range.js";
import { recordedCwd } from "../session/open/session-info.js";
import { touchesOfFile, type FileTouch } from "./file-touches";
import { buildTouchManifest, extendTouchManifest, mayTouchFile, touchesOfManifest, type TouchManifest } from "./touch-manifest";
import { StoredTouchManifest } from "./touch-manifest-codec";
import { loadTouchRecords, saveTouchRecords, touchStoreFile, type TouchRecord, type TouchRecordKey } from "./touch-store-file";

/** How the last touchesOf() was answered. */
export type TouchStoreAnswer = "cached" | "appended" | "read";

// Appended lines are read as a session of their own behind a header like this one.
const MINI_HEADER = `${JSON.stringify({ type: "session", version: 3, id: "appended", timestamp: "1970-01-01T00:00:00.000Z", cwd: "" })}\n`;

export class FileTouchStore {
  /** Records this process computed or removed since loading (what save() writes over the file's). */
  private readonly touched = new Map<string, TouchRecord | null>();
  /** Touches replayed from a manifest, kept while the manifest is current. */
  private readonly replayed = new WeakMap<TouchManifest, FileTouch[]>();
  lastAnswer: TouchStoreAnswer | undefined;

  private constructor(
    readonly folder: string,
    private readonly records: Map<string, TouchRecord>,
  ) {}

  static async open(folder: string): Promise<FileTouchStore> {
    return new FileTouchStore(folder, await loadTouchRecords(touchStoreFile(folder)));
  }

  get file(): string {
    return touchStoreFile(this.folder);
  }

  /**
   * Every letter every entry of the session file gave every file, in file order
   * (all branches, as collectFileTouches over the session's entries). Throws
   * when the file cannot be read.
   */
  touchesOf(path: string, fallbackCwd: string): FileTouch[] {
    return this.replay(this.manifestOf(path, fallbackCwd));
  }

  private replay(manifest: TouchManifest): FileTouch[] {
    let touches = this.replayed.get(manifest);
    if (!touches) {
      touches = touchesOfManifest(manifest);
      this.replayed.set(manifest, touches);
    }
    return touches;
  }

  /**
   * The touches of `file` by the session (touchesOfFile's rows: one per entry,
   * newest first); a session whose actions name neither the file nor one of
   * its directories is answered without replaying it.
   */
  touchesOfFileIn(path: string, file: string, fallbackCwd: string): ReturnType<typeof touchesOfFile> {
    const record = this.currentRecord(path, fallbackCwd);
    const paths = record.manifest.paths();
    if (paths && !mayTouchFile(paths, file)) return [];
    return touchesOfFile(this.replay(this.manifestIn(record, fallbackCwd)), file);
  }

  /** Forgets what is known about a file (e.g. it was deleted). */
  forget(path: string): void {
    if (this.records.delete(path)) this.touched.set(path, null);
  }

  /** Writes what this process learnt over the file as it is now on disk (another process may have saved meanwhile: its other records are kept). */
  async save(): Promise<void> {
    if (this.touched.size === 0) return;
    const onDisk = await loadTouchRecords(this.file);
    for (const [path, record] of this.touched) {
      if (record) onDisk.set(path, record);
      else onDisk.delete(path);
    }
    await saveTouchRecords(this.file, this.folder, onDisk.values());
    this.touched.clear();
  }

  private manifestOf(path: string, fallbackCwd: string): TouchManifest {
    return this.manifestIn(this.currentRecord(path, fallbackCwd), fallbackCwd);
  }

  /** The record's manifest; a damaged stored one is read again from the session file. */
  private manifestIn(record: TouchRecord, fallbackCwd: string): TouchManifest {
    const manifest = record.manifest.manifest();
    if (manifest) return manifest;
    this.lastAnswer = "read";
    return this.readWhole(record.path, fallbackCwd).manifest.manifest()!;
  }

  /** The record for the file as it is now: as stored, extended over appended lines, or read in full. */
  private currentRecord(path: string, fallbackCwd: string): TouchRecord {
    let st;
    try {
      st = statSync(path);
    } catch (error) {
      this.forget(path);
      throw error;
    }
    const record = this.records.get(path);
    if (record && record.key.size === st.size && record.key.mtimeMs === st.mtimeMs) {
      this.lastAnswer = "cached";
      return record;
    }
    if (record?.incremental && st.size > record.key.size) {
      const appended = this.tryAppend(path, record);
      if (appended) {
        this.lastAnswer = "appended";
        return appended;
      }
    }
    this.lastAnswer = "read";
    return this.readWhole(path, fallbackCwd);
  }

  private put(record: TouchRecord): TouchRecord {
    this.records.set(record.path, record);
    this.touched.set(record.path, record);
    return record;
  }

  private readWhole(path: string, fallbackCwd: string): TouchRecord {
    const session = openSessionSync(path);
    const fp = session.fingerprint;
    const key: TouchRecordKey = { size: fp.size, mtimeMs: fp.mtimeMs, tailHash: fp.tailHash, tailLength: fp.tailLength };
    const manifest = buildTouchManifest(session.entries(), recordedCwd(session) ?? fallbackCwd);
    return this.put({ path, key, incremental: !session.needsMigration && !session.headerMissing, manifest: StoredTouchManifest.of(manifest) });
  }

  /** The manifest extended over the appended lines, or null when the change is not a plain append of whole lines. */
  private tryAppend(path: string, record: TouchRecord): TouchRecord | null {
    const key = record.key;
    const fd = openSync(path, "r");
    try {
      const st = fstatSync(fd);
      if (st.size <= key.size) return null;
      const oldTail = readRange(fd, key.size - key.tailLength, key.tailLength);
      if (oldTail.length !== key.tailLength || hashBytes(oldTail) !== key.tailHash) return null;
      // The old bytes must end a line, and so must the new ones (pi writes whole lines).
      if (key.size > 0 && oldTail[oldTail.length - 1] !== 0x0a) return null;
      const appended = readRange(fd, key.size, st.size - key.size);
      if (appended.length !== st.size - key.size || appended[appended.length - 1] !== 0x0a) return null;
      const mini = sessionFromBytes(Buffer.concat([Buffer.from(MINI_HEADER), appended]));
      // Copy-on-extend: the stored manifest stays valid for anyone holding it.
      const stored = record.manifest.manifest();
      if (!stored) return null;
      const manifest = extendTouchManifest(cloneManifest(stored), mini.entries());
      const tail =
        appended.length >= FINGERPRINT_TAIL_BYTES
          ? appended.subarray(appended.length - FINGERPRINT_TAIL_BYTES)
          : Buffer.concat([oldTail.subarray(Math.max(0, oldTail.length - (FINGERPRINT_TAIL_BYTES - appended.length))), appended]);
      const fp = fingerprintOf(st.size, tail, st.mtimeMs);
      return this.put({ path, key: { size: fp.size, mtimeMs: fp.mtimeMs, tailHash: fp.tailHash, tailLength: fp.tailLength }, incremental: true, manifest: StoredTouchManifest.of(manifest) });
    } finally {
      closeSync(fd);
    }
  }
}

function cloneManifest(m: TouchManifest): TouchManifest {
  return { cwd: m.cwd, sources: m.sources.map((s) => ({ ...s })), orphanResults: new Map(m.orphanResults) };
}
