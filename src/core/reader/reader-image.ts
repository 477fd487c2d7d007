// Images pi keeps in user messages and tool results ({ type: "image", data:
// base64, mimeType }): shown only as data: URIs of the raster types a browser
// decodes without running anything (PNG, JPEG, GIF, WebP; never SVG), when the
// data is plain base64 whose first bytes are that format's signature, and up to
// a size. Anything else is named, not shown. Pure: the host, the webview (which
// checks every image again) and the HTML export share it.

export const READER_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ReaderImageType = (typeof READER_IMAGE_TYPES)[number];

/** Largest image shown (decoded bytes): a screenshot fits, a page of them stays a few MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Base64 characters of the largest image. */
export const MAX_IMAGE_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
/** Images shown per block (the rest are counted). */
export const MAX_IMAGES_PER_BLOCK = 20;

export interface ReaderImage {
  mimeType: ReaderImageType;
  /** Base64 (no line breaks, no data: prefix). */
  data: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Each type's first bytes, as the base64 of them ("iVBORw0KGgo" is \x89PNG\r\n\x1a\n). */
function hasSignature(mimeType: ReaderImageType, head: Uint8Array): boolean {
  const at = (offset: number, bytes: number[]): boolean => bytes.every((b, i) => head[offset + i] === b);
  switch (mimeType) {
    case "image/png":
      return at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case "image/jpeg":
      return at(0, [0xff, 0xd8, 0xff]);
    case "image/gif":
      return at(0, [0x47, 0x49, 0x46, 0x38]);
    case "image/webp":
      return at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50]);
  }
}

function decodeHead(data: string): Uint8Array {
  const text = atob(data.slice(0, 16));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export function isReaderImageType(x: unknown): x is ReaderImageType {
  return typeof x === "string" && (READER_IMAGE_TYPES as readonly string[]).includes(x);
}

/** Why an image part is not shown, or undefined when it is a ReaderImage we show. */
export function imageRefusal(x: unknown): string | undefined {
  if (typeof x !== "object" || x === null) return "not an image";
  const { mimeType, data } = x as { mimeType?: unknown; data?: unknown };
  if (!isReaderImageType(mimeType)) return typeof mimeType === "string" ? `${JSON.stringify(mimeType.slice(0, 40))} is not a shown image type` : "no image type";
  if (typeof data !== "string" || data.length === 0) return "no image data";
  if (data.length > MAX_IMAGE_CHARS) return `larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`;
  if (data.length % 4 !== 0 || !BASE64.test(data)) return "not base64";
  if (data.length < 16 || !hasSignature(mimeType, decodeHead(data))) return `not a ${mimeType.slice(6).toUpperCase()} image`;
  return undefined;
}

export function isReaderImage(x: unknown): x is ReaderImage {
  return imageRefusal(x) === undefined && Object.keys(x as object).every((key) => key === "mimeType" || key === "data");
}

/** The data: URI of a checked image. */
export function imageDataUri(image: ReaderImage): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
