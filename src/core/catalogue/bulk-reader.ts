// Reading many session files elsewhere (a child process): the catalogue hands
// over the files it has no record of when there are enough of them, takes the
// records back as they come, and reads whatever was not answered itself. The
// messages between the processes, and their validation (data crossing a
// process boundary: nothing is trusted that does not pass).

import { validKey, validStoredRecord, type CatalogueRecord, type RecordKey } from "./catalogue-file.js";
import { validProjectedResume, type ProjectedResume } from "./projected-resume.js";
import type { CatalogueOptions } from "./catalogue-options.js";
import type { PiVersion } from "../session/format/pi-version.js";

export interface StaleFile {
  path: string;
  size: number;
}

export type BulkAnswer =
  /** The file's record, read in full; `logged`: the bytes of its line when the child appended it to the catalogue's log. */
  | { kind: "record"; record: CatalogueRecord; logged?: number }
  /** The file cannot be read (gone, permissions). */
  | { kind: "unreadable"; path: string }
  /** A sum ahead (sum-ahead.ts): pi 1.5's projected sum of the file as it was at `key` (leaf `leafId`); none when the row keeps none. */
  | SumAnswer
  /** All answered: the CPU the reads took (ms). */
  | { kind: "done"; cpuMs: number };

export interface SumAnswer {
  kind: "sum";
  path: string;
  key: RecordKey;
  leafId: string | null;
  projected?: ProjectedResume;
}

export interface BulkReader {
  /** Whether these files (none of them recorded) are worth reading elsewhere. */
  wants(files: readonly StaleFile[]): boolean;
  /** Answers for (some of) the paths; it ends early when the reading stops (the rest is read in-process). Never throws. */
  /** `log`: the catalogue's log, where the reader appends the records it answers (the catalogue then need not write them). */
  read(paths: readonly string[], options: CatalogueOptions, log?: string): AsyncIterable<BulkAnswer>;
  /**
   * Sums ahead of live pi 1.5 sessions ("sum" answers; nothing logged), when it can compute them, each of
   * the file's first `size` bytes (as its row was recorded: bytes appended since are carried by the host). Never throws.
   */
  sums?(files: readonly StaleFile[], options: CatalogueOptions): AsyncIterable<BulkAnswer>;
}

/** Host → child: what to read, and the pi-version policy to count it with. */
export interface FillRequest {
  type: "fill";
  options: CatalogueOptions;
  paths: string[];
  log?: string;
  /** Sums ahead instead of records (sum-ahead.ts). */
  sums?: true;
  /** With `sums`: the size each path's sum is read up to (one per path). */
  sizes?: number[];
}

const VERSIONS: readonly string[] = ["0.73", "1.5"];
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isVersion = (v: unknown): v is PiVersion => typeof v === "string" && VERSIONS.includes(v);

export function validFillRequest(message: unknown): FillRequest | undefined {
  if (!isObj(message) || message.type !== "fill" || !isObj(message.options) || !Array.isArray(message.paths)) return undefined;
  if (!message.paths.every((p) => typeof p === "string")) return undefined;
  const { explicitVersion, defaultVersion } = message.options;
  if (explicitVersion !== undefined && !isVersion(explicitVersion)) return undefined;
  if (defaultVersion !== undefined && !isVersion(defaultVersion)) return undefined;
  const options: CatalogueOptions = { ...(explicitVersion ? { explicitVersion } : {}), ...(defaultVersion ? { defaultVersion } : {}) };
  if (message.log !== undefined && typeof message.log !== "string") return undefined;
  if (message.sums !== undefined && message.sums !== true) return undefined;
  const sizes = message.sizes;
  if (sizes !== undefined && (!message.sums || !Array.isArray(sizes) || sizes.length !== message.paths.length || !sizes.every((n) => Number.isSafeInteger(n) && (n as number) >= 0))) return undefined;
  return {
    type: "fill",
    options,
    paths: message.paths as string[],
    ...(message.log !== undefined ? { log: message.log } : {}),
    ...(message.sums ? { sums: true as const } : {}),
    ...(sizes !== undefined ? { sizes: sizes as number[] } : {}),
  };
}

/** A message from the child (sent as JSON: an id filter as its toJSON, a NaN header time as null) as an answer, or undefined when it is not a valid one. */
export function validAnswer(message: unknown): BulkAnswer | undefined {
  if (!isObj(message)) return undefined;
  if (message.kind === "done") return typeof message.cpuMs === "number" && Number.isFinite(message.cpuMs) ? { kind: "done", cpuMs: message.cpuMs } : undefined;
  if (message.kind === "unreadable") return typeof message.path === "string" ? { kind: "unreadable", path: message.path } : undefined;
  if (message.kind === "sum") {
    const { path, key, leafId, projected } = message;
    if (typeof path !== "string" || !validKey(key) || (leafId !== null && typeof leafId !== "string")) return undefined;
    if (projected === undefined) return { kind: "sum", path, key, leafId };
    const valid = validProjectedResume(projected);
    return valid ? { kind: "sum", path, key, leafId, projected: valid } : undefined;
  }
  if (message.kind !== "record" || !isObj(message.record)) return undefined;
  const record = validStoredRecord(message.record);
  if (!record) return undefined;
  const logged = message.logged;
  if (logged === undefined) return { kind: "record", record };
  // A claim about the log only spares a write: were it false, the file is read again next time.
  return typeof logged === "number" && Number.isInteger(logged) && logged > 0 ? { kind: "record", record, logged } : undefined;
}
