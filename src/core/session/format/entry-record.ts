// An entry's fields as one record (what a reader hands the index) and back
// to an EntryMeta, for callers that build metas themselves or keep no columns.

import type { EntryMeta, LineLocation, Spend } from "./entry-meta.js";

/** Fields of EntryMeta most entries do not have. */
export interface RareFields {
  timestampValue?: unknown;
  /** The timestamp string when it is not one toISOString writes. */
  timestampText?: string;
  /** The parentId when no earlier entry has that id. */
  parentText?: string;
  targetId?: string;
  label?: string;
  name?: string;
}

/** What one entry adds (the fields of EntryMeta without `index`); `null`/NaN for absent ones. */
export interface EntryRecord extends LineLocation {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  role: string | undefined;
  activityTime: number;
  spend: Spend | undefined;
  rare: RareFields | undefined;
}


/** The record of an EntryMeta (for callers that build metas themselves). */
export function recordOf(meta: EntryMeta): EntryRecord {
  let rare: RareFields | undefined;
  if ("timestampValue" in meta || meta.targetId !== undefined || meta.label !== undefined || meta.name !== undefined) {
    rare = {};
    if ("timestampValue" in meta) rare.timestampValue = meta.timestampValue;
    if (meta.targetId !== undefined) rare.targetId = meta.targetId;
    if (meta.label !== undefined) rare.label = meta.label;
    if (meta.name !== undefined) rare.name = meta.name;
  }
  return {
    line: meta.line,
    offset: meta.offset,
    length: meta.length,
    type: meta.type,
    id: meta.id,
    parentId: meta.parentId,
    timestamp: meta.timestamp,
    role: meta.role,
    activityTime: meta.activityTime ?? Number.NaN,
    spend: meta.spend,
    rare,
  };
}

/** The EntryMeta of a record at position `index` (for callers that keep no columns). */
export function metaOfRecord(r: EntryRecord, index: number): EntryMeta {
  const meta: EntryMeta = {
    line: r.line,
    offset: r.offset,
    length: r.length,
    index,
    type: r.type,
    id: r.id,
    parentId: r.parentId,
    timestamp: r.timestamp,
  };
  if (r.role !== undefined) meta.role = r.role;
  const rare = r.rare;
  if (rare !== undefined) {
    if ("timestampValue" in rare) meta.timestampValue = rare.timestampValue;
    if (rare.targetId !== undefined) meta.targetId = rare.targetId;
    if (rare.label !== undefined) meta.label = rare.label;
    if (rare.name !== undefined) meta.name = rare.name;
  }
  if (!Number.isNaN(r.activityTime)) meta.activityTime = r.activityTime;
  if (r.spend !== undefined) meta.spend = r.spend;
  return meta;
}
