// Index snapshots: what reading a big session built, kept on disk and taken back.

export { decodeSnapshot } from "./index-snapshot-decode.js";
export { encodeSnapshot, type SnapshotContent } from "./index-snapshot-layout.js";
export { headOfChunk, IndexSnapshots, resumeFromSnapshot, SNAPSHOT_MIN_FILE_BYTES, type SnapshotBuilder, type SnapshotBuildRequest, type SnapshotBuildResult, snapshotContentOf, type SnapshotMatch, type SnapshottableRead } from "./index-snapshot.js";
