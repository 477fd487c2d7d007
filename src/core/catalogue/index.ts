// The session catalogue: one row per session, cached, refreshed by appended bytes.

export { type BulkAnswer, type BulkReader, type StaleFile } from "./bulk-reader.js";
export { type RecordKey } from "./catalogue-file.js";
export { type CatalogueRow, type ComputedRow, rowFromSession, type RowVersion, rowVersionPolicy } from "./catalogue-row.js";
export { CHILD_MIN_FILES, childBulkReader } from "./child-bulk-reader.js";
export { IdFilter } from "./id-filter.js";
export { decodeRecent, projectedResumeOfPath } from "./projected-resume.js";
export { readRecord } from "./read-record.js";
export { type CatalogueOptions, type CatalogueProgress, SessionCatalogue } from "./session-catalogue.js";
export { type StreamedRow, streamRow } from "./streamed-row.js";
export { sumAnswerOf } from "./sum-ahead.js";
