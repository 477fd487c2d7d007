// Turns the fields read from one entry line into the record the index keeps
// (an EntryMeta's fields, see entry-columns.ts), with a diagnostic for each
// field that is missing or has the wrong type.

import type { Diagnostic } from "../../diagnostics.js";
import type { EntryRecord } from "../format/entry-record.js";
import type { LineLocation } from "../format/entry-meta.js";
import { spendOf } from "./scanned-spend.js";
import type { LineFields } from "./line-fields.js";
import { isKnownEntryType } from "../format/types.js";
import { OMP_MESSAGE_ROLES, OMP_ONLY_ENTRY_TYPES } from "../format/omp-entry-types.js";

export const KNOWN_MESSAGE_ROLES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "toolResult",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
]);

/** Per-file memory of which unknown types and roles were already reported (once each). */
export interface UnknownKinds {
  entryTypes: Set<string>;
  messageRoles: Set<string>;
}

/** Entry types whose top-level `usage` pi 1.5 adds to a session's totals. */
const SPENDING_TYPES: ReadonlySet<string> = new Set(["usage", "compaction", "branch_summary"]);

/** `new Date(value).getTime()`, as pi's tree sort computes it for any JSON value. */
export function timeOf(value: unknown): number {
  return new Date(value as string).getTime();
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * The record of a non-header entry line, or null when the line cannot be an entry
 * (no string `type` or `id`); every problem is pushed to `diagnostics`.
 */
export function recordFromFields(
  fields: LineFields,
  location: LineLocation,
  unknown: UnknownKinds,
  diagnostics: Diagnostic[],
): EntryRecord | null {
  const line = location.line;
  const { type, id } = fields;
  if (typeof type !== "string") {
    diagnostics.push({
      severity: "error",
      code: "missing-type",
      message: `entry has no string "type" (${describe(type)}); skipped`,
      line,
    });
    return null;
  }
  if (typeof id !== "string") {
    diagnostics.push({
      severity: "error",
      code: "missing-id",
      message: `${type} entry has no string "id" (${describe(id)}); skipped`,
      line,
    });
    return null;
  }
  const bad = (field: string, value: unknown, what: string): void => {
    diagnostics.push({
      severity: "warning",
      code: "bad-field",
      message: `${type} entry ${id}: "${field}" is ${describe(value)}, expected ${what}`,
      line,
      entryId: id,
    });
  };

  let parentId: string | null = null;
  if (typeof fields.parentId === "string") parentId = fields.parentId;
  else if (fields.parentId !== null) bad("parentId", fields.parentId, "a string or null; treated as a root");

  let timestamp = "";
  if (typeof fields.timestamp === "string") timestamp = fields.timestamp;
  else bad("timestamp", fields.timestamp, "an ISO date string");

  const meta: EntryRecord = {
    line,
    offset: location.offset,
    length: location.length,
    type,
    id,
    parentId,
    timestamp,
    role: undefined,
    activityTime: Number.NaN,
    spend: undefined,
    rare: undefined,
  };
  if (typeof fields.timestamp !== "string" && fields.timestamp !== undefined) meta.rare = { timestampValue: fields.timestamp };

  if (type === "message") {
    const m = fields.message;
    if (!m || !m.isObject) {
      bad("message", m === undefined ? undefined : "not an object", "an object");
    } else if (typeof m.role === "string") {
      meta.role = m.role;
      if (!KNOWN_MESSAGE_ROLES.has(m.role) && !OMP_MESSAGE_ROLES.has(m.role) && !unknown.messageRoles.has(m.role)) {
        unknown.messageRoles.add(m.role);
        diagnostics.push({
          severity: "info",
          code: "unknown-message-role",
          message: `message role "${m.role}" is not one pi or omp knows; shown, never sent to a model`,
          line,
          entryId: id,
        });
      }
      if (m.role === "assistant" || m.role === "toolResult") {
        if (m.spend) meta.spend = m.spend;
      }
      if (m.hasContent && (m.role === "user" || m.role === "assistant")) {
        const activity = typeof m.timestamp === "number" ? m.timestamp : timeOf(timestamp);
        if (typeof m.timestamp === "number" || (timestamp !== "" && !Number.isNaN(activity))) {
          meta.activityTime = activity;
        }
      }
    } else {
      bad("message.role", m.role, "a string");
    }
  } else if (SPENDING_TYPES.has(type)) {
    const spend = spendOf(fields.usage);
    if (spend) meta.spend = spend;
  }
  if (type === "label") {
    const rare = (meta.rare ??= {});
    if (typeof fields.targetId === "string") rare.targetId = fields.targetId;
    else bad("targetId", fields.targetId, "a string");
    const label = fields.label;
    if (typeof label === "string") rare.label = label;
    else if (label !== undefined && label !== null && label !== false && label !== 0) {
      // pi keeps any truthy label value; show it as its JSON text.
      bad("label", label, "a string");
      rare.label = JSON.stringify(label);
    }
  } else if (type === "session_info") {
    if (typeof fields.name === "string") (meta.rare ??= {}).name = fields.name;
    else if (fields.name !== undefined) bad("name", fields.name, "a string; treated as no name");
  } else if (!isKnownEntryType(type) && !OMP_ONLY_ENTRY_TYPES.has(type) && !unknown.entryTypes.has(type)) {
    unknown.entryTypes.add(type);
    diagnostics.push({
      severity: "info",
      code: "unknown-entry-type",
      message: `entry type "${type}" is not one pi or omp knows; kept and shown as a tree node`,
      line,
      entryId: id,
    });
  }
  return meta;
}
