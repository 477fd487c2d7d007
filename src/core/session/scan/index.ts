// One line's fields read exactly (JSON.parse's verdict, without building the body).

export { unicodeEscapeIsCanonical } from "./canonical-escape.js";
export { lastLineEscapesCanonical, scanLine, skipValue } from "./entry-scanner.js";
export { LINE_ESCAPES_CANONICAL, LINE_IS_UTF8, type LineChecks, NO_LINE_CHECKS } from "./line-checks.js";
export { type ClassifiedLine, LineClassifier } from "./line-classifier.js";
export { type LineScan, scanFromValue, scanText } from "./line-fields.js";
export { SKIM_MIN_BYTES, skimLine, TAIL_WINDOW } from "./line-skimmer.js";
export { emptyMessageShape, type MessageShape, MessageShapes } from "./message-shapes.js";
export { recordFromFields, timeOf, type UnknownKinds } from "./meta-from-fields.js";
export { spendFromBytes, spendOf } from "./scanned-spend.js";
export { numberFromBytes, type SliceableBuffer } from "./scanned-values.js";
export { skipUsage, takeSpend } from "./usage-scanner.js";
