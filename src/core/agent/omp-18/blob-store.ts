// omp's blob store read back (coding-agent session/blob-store.ts and
// session-loader.ts): `blob:sha256:<hex>` refs point at `<agent>/blobs/<hex>`.
// On load omp resolves refs in message images (`content` image blocks,
// `images[]`, `image_url` data URLs, image generation results) to base64 and
// keeps a missing one's ref; snapcompact frames stay refs, resolved when the
// context is built (a missing frame is dropped with a notice). Read-only: the
// session's entries are copied before anything is resolved in them.

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { getPreservedArchive, type LazyFrameData } from "./snapcompact-archive.js";
import type { OmpMessage } from "./messages.js";

const BLOB_PREFIX = "blob:sha256:";
const BLOB_HASH_RE = /^[a-f0-9]{64}$/;
const TRUNCATION_NOTICE = "\n\n[Session persistence truncated large content]";

export interface OmpBlobStore {
  /** `<agent>/blobs`, or undefined when no blob store is known (every ref then stays unresolved). */
  readonly dir: string | undefined;
  sizeOf(hash: string): number | null;
  read(hash: string): Buffer | null;
}

export function blobStoreAt(dir: string | undefined): OmpBlobStore {
  return {
    dir,
    sizeOf(hash) {
      if (dir === undefined) return null;
      try {
        return statSync(join(dir, hash)).size;
      } catch {
        return null;
      }
    },
    read(hash) {
      if (dir === undefined) return null;
      try {
        return readFileSync(join(dir, hash));
      } catch {
        return null;
      }
    },
  };
}

const isBlobRef = (data: string): boolean => data.startsWith(BLOB_PREFIX);

function parseBlobRef(data: string): string | null {
  if (!isBlobRef(data)) return null;
  const hash = data.slice(BLOB_PREFIX.length);
  return BLOB_HASH_RE.test(hash) ? hash : null;
}

function resolveImageData(store: OmpBlobStore, data: string): string {
  const hash = parseBlobRef(data);
  if (!hash) return data;
  return store.read(hash)?.toString("base64") ?? data;
}

function resolveImageDataUrl(store: OmpBlobStore, data: string): string {
  const hash = parseBlobRef(data);
  if (!hash) return data;
  return store.read(hash)?.toString("utf8") ?? data;
}

/** lazyImageDataSync: a frame's payload priced from the blob's size, read only if kept. */
export function lazyFrameData(store: OmpBlobStore, data: string): LazyFrameData | undefined {
  const hash = parseBlobRef(data);
  if (!hash) return isBlobRef(data) ? undefined : { bytes: data.length, read: () => data };
  const size = store.sizeOf(hash);
  if (size === null) return undefined;
  return { bytes: Math.ceil(size / 3) * 4, read: () => resolveImageData(store, data) };
}

function containsBlobRef(value: unknown): boolean {
  if (typeof value === "string") return isBlobRef(value);
  if (Array.isArray(value)) return value.some(containsBlobRef);
  if (typeof value !== "object" || value === null) return false;
  for (const key in value) if (containsBlobRef((value as Record<string, unknown>)[key])) return true;
  return false;
}

const isImageMimeType = (value: unknown): boolean => typeof value === "string" && value.toLowerCase().startsWith("image/");

function isImageBlock(value: OmpMessage): boolean {
  return value.type === "image" && typeof value.data === "string";
}

function isExternalizableImagePosition(value: unknown, key: string | undefined): value is OmpMessage {
  if (typeof value !== "object" || value === null) return false;
  const v = value as OmpMessage;
  if (typeof v.data !== "string" || !(isImageBlock(v) || ("mimeType" in v && isImageMimeType(v.mimeType)))) return false;
  return (key === "content" && isImageBlock(v)) || key === "images" || key === "frames";
}

function resolvePersistedBlobRefs(value: unknown, store: OmpBlobStore, key?: string): void {
  if (key !== "frames" && isExternalizableImagePosition(value, key) && isBlobRef(value.data)) {
    value.data = resolveImageData(store, value.data);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) resolvePersistedBlobRefs(item, store, key);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const v = value as OmpMessage;
  if (v.type === "image_generation_call" && typeof v.result === "string" && isBlobRef(v.result)) v.result = resolveImageData(store, v.result);
  if (typeof v.image_url === "string" && isBlobRef(v.image_url)) v.image_url = resolveImageDataUrl(store, v.image_url);
  for (const [childKey, item] of Object.entries(v)) resolvePersistedBlobRefs(item, store, childKey);
}

function needsRepair(entry: OmpMessage): boolean {
  if (entry.type !== "compaction") return false;
  const archive = getPreservedArchive(entry.preserveData);
  return archive?.frames.some((f) => f.data.endsWith(TRUNCATION_NOTICE)) ?? false;
}

/** Older omp versions truncated oversized frames in place: such an archive is read as text (repairTruncatedSnapcompactFrames). */
function repairTruncatedSnapcompactFrames(entry: OmpMessage): void {
  const archive = getPreservedArchive(entry.preserveData)!;
  const slot = entry.preserveData.snapcompact as OmpMessage;
  if (archive.text) Object.assign(slot, { frames: [], textHead: archive.text, textTail: "" });
  else Object.assign(slot, { frames: archive.frames.filter((f) => !f.data.endsWith(TRUNCATION_NOTICE)) });
}

/**
 * The entry as omp holds it after loading: the same object when nothing in it
 * changes, else a copy with message images resolved from the blob store and a
 * truncated snapcompact archive repaired.
 */
export function entryAsLoaded<T>(entry: T, store: OmpBlobStore): T {
  const e = entry as unknown as OmpMessage;
  const repair = needsRepair(e);
  if (!repair && !containsBlobRef(e)) return entry;
  const copy = structuredClone(e);
  if (repair) repairTruncatedSnapcompactFrames(copy);
  if (containsBlobRef(copy)) resolvePersistedBlobRefs(copy, store);
  return copy as unknown as T;
}
