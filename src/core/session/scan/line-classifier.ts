// pi reads a file as `text.trim().split("\n")` and JSON.parses each line,
// skipping lines that are blank after `line.trim()` and lines that fail. The
// whole-text trim means the first non-blank line may start, and the last may
// end, with any JavaScript whitespace (BOM, U+00A0, U+2028, \v, …) that
// JSON.parse alone would reject. This classifier reproduces that on top of
// the strict scanner: the fast path handles ordinary lines, and only lines the
// scanner rejects are decoded and retried the way pi's trim would allow.

import { lastLineEscapesCanonical, lastLineMessageShape, scanLine } from "./entry-scanner.js";
import type { MessageShape } from "./message-shapes.js";
import { skimLine } from "./line-skimmer.js";
import { asBuffer } from "../bytes/jsonl-reader.js";
import { scanText, type LineScan } from "./line-fields.js";

export type ClassifiedLine =
  | Exclude<LineScan, { kind: "invalid" }>
  | {
      kind: "invalid";
      at: number;
      reason: string;
      /** What the line reads as if it turns out to be the last non-blank line of the file. */
      ifLast?: Exclude<LineScan, { kind: "invalid" | "blank" }>;
    };

export class LineClassifier {
  /** Whether a non-blank line was seen (pi's leading trim only reaches the first one). */
  private sawContent: boolean;

  private readonly scan: typeof scanLine;
  /**
   * After classify: the line was read whole by the exact scan as it stands (not
   * skimmed, not retried after a trim) and each of its escapes is canonical.
   */
  escapesVouched = false;
  /** After classify, when the exact scan read the line as it stands: its message's shape (entry-scanner.ts), if any. */
  messageShape: MessageShape | undefined = undefined;

  /** `skim`: long lines are read with skimLine (leading and trailing fields only; see there). */
  constructor(resumingAfterContent = false, skim = false) {
    this.sawContent = resumingAfterContent;
    this.scan = skim ? skimLine : scanLine;
  }

  classify(bytes: Uint8Array, start: number, end: number): ClassifiedLine {
    const scan = this.scan(bytes, start, end);
    if (scan.kind !== "invalid") {
      if (scan.kind !== "blank") this.sawContent = true;
      const exact = this.scan === scanLine;
      this.escapesVouched = exact && lastLineEscapesCanonical();
      this.messageShape = exact ? lastLineMessageShape() : undefined;
      return scan;
    }
    this.escapesVouched = false;
    this.messageShape = undefined;
    const text = asBuffer(bytes).toString("utf8", start, end);
    if (text.trim() === "") return { kind: "blank" };
    const first = !this.sawContent;
    this.sawContent = true;
    if (first) {
      const leading = text.trimStart();
      if (leading !== text) {
        const retried = scanText(leading);
        if (retried.kind !== "invalid" && retried.kind !== "blank") return retried;
      }
    }
    const trimmed = first ? text.trim() : text.trimEnd();
    if (trimmed !== text) {
      const retried = scanText(trimmed);
      if (retried.kind !== "invalid" && retried.kind !== "blank") return { ...scan, ifLast: retried };
    }
    return scan;
  }
}
