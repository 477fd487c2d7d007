// On-disk migration of a version 1/2 session file to version 3: what pi's
// SessionManager does on open (parse, migrate, _rewriteFile), with two
// differences. The ids are the reader's deterministic ids (migrate.ts), so
// ids shown before migrating stay valid; and the file is kept as a backup
// beside it (`<name>.v<from>.bak`, never overwritten) and replaced atomically
// (temp file in the same folder, fsync, rename over, fsync the folder).

import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { compareFingerprint, fingerprintOf, FINGERPRINT_TAIL_BYTES } from "../bytes/fingerprint.js";
import { migrateParsedLines, needsMigration, versionOfHeader } from "../format/migrate.js";
import { SessionChangedError, WriteRefusedError } from "./append.js";
import { CURRENT_SESSION_VERSION } from "../format/types.js";

export interface MigrateFileOptions {
  /** Work out everything, write nothing. */
  dryRun?: boolean;
}

export interface MigrateFileResult {
  /** The header's version as pi reads it (`version ?? 1`). */
  fromVersion: number;
  toVersion: number;
  /** The backup written; null when nothing was written. */
  backup: string | null;
  /** The backup path a real run would use (dry run), or the one used. */
  plannedBackup: string | null;
  written: boolean;
  /** Lines in the migrated file, header included. */
  lines: number;
  /** Lines pi's parser skips (not JSON): they are not in the migrated file, only in the backup. */
  droppedLines: number;
  /** The migrated file's text (also for a dry run). */
  text: string | null;
}

/** pi's loadEntriesFromFile parse: whole text trimmed, split on \n, JSON.parse per line, bad lines skipped. */
function parseLikePi(text: string): { values: unknown[]; dropped: number } {
  const values: unknown[] = [];
  let dropped = 0;
  for (const line of text.trim().split("\n")) {
    if (!line.trim()) continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      dropped++;
    }
  }
  return { values, dropped };
}

function isHeader(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "session" && typeof (value as { id?: unknown }).id === "string";
}

function backupPath(file: string, fromVersion: number, exists: (p: string) => boolean): string {
  const stem = `${file}.v${Number.isFinite(fromVersion) ? fromVersion : "unknown"}`;
  if (!exists(`${stem}.bak`)) return `${stem}.bak`;
  for (let n = 1; ; n++) if (!exists(`${stem}.${n}.bak`)) return `${stem}.${n}.bak`;
}

const pathExists = (p: string): boolean => {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
};

function writeNewFile(path: string, data: Buffer, mode: number): void {
  // "wx": never overwrite (a backup that appeared meanwhile stays as it is).
  const fd = openSync(path, "wx", mode);
  try {
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function migrateSessionFile(file: string, options: MigrateFileOptions = {}): MigrateFileResult {
  let target: string;
  try {
    target = realpathSync(file);
  } catch (e) {
    throw new Error(`${file}: cannot read session file: ${e instanceof Error ? e.message : String(e)}`);
  }
  const stat = statSync(target);
  if (!stat.isFile()) throw new Error(`${file}: not a regular file`);
  const bytes = readFileSync(target);
  const fingerprint = fingerprintOf(bytes.length, bytes.subarray(Math.max(0, bytes.length - FINGERPRINT_TAIL_BYTES)), stat.mtimeMs);
  const { values, dropped } = parseLikePi(bytes.toString("utf8"));
  const header = values[0];
  if (!isHeader(header)) {
    throw new WriteRefusedError(
      "missing-header",
      `${file}:1: the first entry is not a session header; pi treats this file as empty, so it is not migrated`,
      file,
    );
  }
  const fromVersion = versionOfHeader(header);
  if (!needsMigration(fromVersion)) {
    return { fromVersion, toVersion: fromVersion, backup: null, plannedBackup: null, written: false, lines: values.length, droppedLines: dropped, text: null };
  }
  migrateParsedLines(values);
  const text = `${values.map((v) => JSON.stringify(v)).join("\n")}\n`;
  const plannedBackup = backupPath(target, fromVersion, pathExists);
  const result: MigrateFileResult = {
    fromVersion,
    toVersion: CURRENT_SESSION_VERSION,
    backup: null,
    plannedBackup,
    written: false,
    lines: values.length,
    droppedLines: dropped,
    text,
  };
  if (options.dryRun) return result;

  const dir = dirname(target);
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.migrate.tmp`);
  const mode = stat.mode & 0o7777;
  let backup: string | undefined;
  try {
    backup = writeBackup(target, fromVersion, bytes, mode);
    writeNewFile(temp, Buffer.from(text, "utf8"), mode);
    // Last check before replacing: pi may have appended since we read.
    const change = compareFingerprint(target, fingerprint);
    if (change !== "unchanged") throw new SessionChangedError(file, change === "appended" ? "lines were appended" : "it was rewritten");
    renameSync(temp, target);
    fsyncDir(dir);
  } catch (error) {
    rmSync(temp, { force: true });
    if (backup !== undefined) rmSync(backup, { force: true });
    throw error;
  }
  return { ...result, backup, plannedBackup: backup, written: true };
}

/** Writes the original bytes to the first free backup name (retrying if one appears meanwhile). */
function writeBackup(target: string, fromVersion: number, bytes: Buffer, mode: number): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const path = backupPath(target, fromVersion, pathExists);
    try {
      writeNewFile(path, bytes, mode);
      return path;
    } catch (e) {
      if ((e as { code?: unknown }).code !== "EEXIST") throw e;
    }
  }
  throw new Error(`${target}: could not find a free backup name`);
}
