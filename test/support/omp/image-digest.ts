// Image payloads in omp's answers (base64 of PNGs, tens of kilobytes each) are
// replaced by the SHA-256 of their decoded bytes, so answers stay small and can
// be compared field by field. Apply the same to our values before comparing.
// Runs in the Bun worker and in the Node tests (node:crypto only).

import { createHash } from "node:crypto";

/** `{type:"image", data:<base64>}` → `{…, data:"sha256:<hex of the decoded bytes>", base64Chars}`; blob refs stay. */
export function digestImages<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => {
      if (v && typeof v === "object" && (v as { type?: unknown }).type === "image") {
        const data = (v as { data?: unknown }).data;
        if (typeof data === "string" && !data.startsWith("blob:") && !data.startsWith("sha256:")) {
          return { ...v, data: `sha256:${createHash("sha256").update(Buffer.from(data, "base64")).digest("hex")}`, base64Chars: data.length };
        }
      }
      return v;
    }),
  ) as T;
}
