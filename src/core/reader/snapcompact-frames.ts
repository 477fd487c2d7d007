// The frames of an omp snapcompact archive (a compaction's
// `preserveData.snapcompact.frames`), for the reader: each frame's PNG read from
// omp's blob store (`blob:sha256:<hash>` → `<blobs>/<hash>`) or kept inline,
// shown as the reader shows any image (checked raster type, data: URI only).
// The blob store is the one beside the sessions root the file lies in
// (`<root>/sessions/<folder>/<file>` → `<root>/blobs`), as omp keeps it.

import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { imageRefusal, MAX_IMAGES_PER_BLOCK, type ReaderImage } from "./reader-image";

const BLOB_REF = /^blob:sha256:([0-9a-f]{64})$/;

/** `<root>/blobs` for a session file at `<root>/sessions/<folder>/<file>` when it exists, else undefined. */
export function blobsDirBeside(sessionPath: string | undefined): string | undefined {
  if (!sessionPath) return undefined;
  const sessions = dirname(dirname(sessionPath));
  if (basename(sessions) !== "sessions") return undefined;
  const blobs = join(dirname(sessions), "blobs");
  return existsSync(blobs) ? blobs : undefined;
}

export interface FrameImages {
  /** Frames in the archive. */
  count: number;
  shown: ReaderImage[];
  /** Frames not shown, and why ("blob missing here", "not a PNG image", …). */
  refusals: string[];
}

/** The archive's frames as images, oldest first; undefined when the entry holds no snapcompact archive. */
export function snapcompactFrameImages(entry: Record<string, unknown>, blobsDir: string | undefined): FrameImages | undefined {
  const preserve = entry.preserveData as { snapcompact?: { frames?: unknown } } | undefined;
  const frames = preserve?.snapcompact?.frames;
  if (!Array.isArray(frames)) return undefined;
  const shown: ReaderImage[] = [];
  const refusals: string[] = [];
  for (const frame of frames) {
    const { data, mimeType } = (frame ?? {}) as { data?: unknown; mimeType?: unknown };
    let base64 = typeof data === "string" ? data : undefined;
    const ref = base64 !== undefined ? BLOB_REF.exec(base64) : null;
    if (ref) {
      const file = blobsDir ? join(blobsDir, ref[1]!) : undefined;
      base64 = file && existsSync(file) ? readFileSync(file).toString("base64") : undefined;
      if (base64 === undefined) {
        refusals.push("its blob is not on this machine");
        continue;
      }
    }
    const image = { mimeType, data: base64 };
    const refusal = shown.length >= MAX_IMAGES_PER_BLOCK ? `more than ${MAX_IMAGES_PER_BLOCK} in one entry` : imageRefusal(image);
    if (refusal) refusals.push(refusal);
    else shown.push(image as ReaderImage);
  }
  return { count: frames.length, shown, refusals };
}
