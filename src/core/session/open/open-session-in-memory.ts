// A session file read in one go and kept in memory, for a command that will
// read most bodies once anyway (`prepare`): the index pass and the body pass
// share one read of the bytes, and checkedLine gives each line's bytes (checked
// by the exact read) to code that works from them. Files over 1 GiB are
// streamed as openSessionSync streams them.

import { closeSync, fstatSync, openSync } from "node:fs";
import { cannotRead, openSessionSync, sessionOverFileBytes, type LoadedSession } from "./open-session.js";
import { readRange } from "../bytes/read-range.js";

const MAX_IN_MEMORY_BYTES = 1024 * 1024 * 1024;

export function openSessionInMemory(path: string): LoadedSession {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw cannotRead(path, e);
  }
  let bytes: Buffer | undefined;
  let mtimeMs = 0;
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    mtimeMs = stat.mtimeMs;
    if (stat.size <= MAX_IN_MEMORY_BYTES) bytes = readRange(fd, 0, stat.size);
  } catch (e) {
    throw cannotRead(path, e);
  } finally {
    closeSync(fd);
  }
  return bytes === undefined ? openSessionSync(path) : sessionOverFileBytes(path, bytes, mtimeMs);
}
