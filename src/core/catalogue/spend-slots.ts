// What a session spent, split by when (15-minute UTC slots), what (an assistant
// answer, a usage entry, a tool result, a compaction, a branch summary) and
// which model (pi 1.5's key: `provider/model`, the answer's responseModel first).
// A catalogue row keeps these cells so usage by day, model and project is a sum
// over rows, never a read of the files. Every UTC offset in use is a whole
// number of quarter hours, so a local day is a whole number of slots in any
// time zone, on both sides of a daylight-saving change.

import type { Spend } from "../session/format/entry-meta.js";

/** One slot: 15 minutes. */
export const SLOT_MS = 15 * 60_000;
/** The slot of spend whose entry has no valid timestamp (counted on the session's modified date). */
export const UNDATED_SLOT = -1;

/** What spent: index = the kind's code in a cell. */
export const SPEND_KINDS = ["assistant", "usage", "toolResult", "compaction", "branch_summary"] as const;
export type SpendKind = (typeof SPEND_KINDS)[number];
export const KIND_ASSISTANT = 0;
export const KIND_USAGE = 1;
export const KIND_TOOL_RESULT = 2;
export const KIND_COMPACTION = 3;
export const KIND_BRANCH_SUMMARY = 4;

/**
 * Added to a cell's kind: spend a fork copied from the session it was forked from (pi writes the fork's
 * header at the fork, and copies the entries with their own, earlier, timestamps): billed there, not here.
 */
export const INHERITED = 8;

/** The cell kind of spend at `ms` in a file forked at `forkedAt` (NaN: not a fork). */
export function cellKind(kind: number, ms: number, forkedAt: number): number {
  return ms < forkedAt ? kind | INHERITED : kind;
}

/** The time pi forked the file at (its header's time when the header names a parentSession), else NaN. */
export function forkTime(header: { timestamp?: unknown; parentSession?: unknown } | null): number {
  return typeof header?.parentSession === "string" && typeof header.timestamp === "string" ? Date.parse(header.timestamp) : Number.NaN;
}

/** Numbers per cell: slot, kind (| INHERITED), model (index into `models`, -1 for none), input, output, cacheRead, cacheWrite, cost. */
export const CELL_WIDTH = 8;

export interface SpendSlots {
  /** Model keys the cells name (`provider/model`). */
  models: string[];
  /** CELL_WIDTH numbers per cell; one cell per (slot, kind, model). */
  cells: number[];
}

export const NO_SPEND_SLOTS: SpendSlots = Object.freeze({ models: [], cells: [] }) as SpendSlots;

/** The kind code of an entry's spend, or -1 when the entry's spend is not counted (see EntryMeta.spend). */
export function spendKindOf(type: string, role: string | undefined): number {
  if (type === "message") return role === "assistant" ? KIND_ASSISTANT : role === "toolResult" ? KIND_TOOL_RESULT : -1;
  if (type === "usage") return KIND_USAGE;
  if (type === "compaction") return KIND_COMPACTION;
  if (type === "branch_summary") return KIND_BRANCH_SUMMARY;
  return -1;
}

/** The slot of a time in ms (UNDATED_SLOT when it is not a date: Date.parse of a timestamp that is none). */
export function slotOfMillis(ms: number): number {
  return Number.isFinite(ms) ? Math.floor(ms / SLOT_MS) : UNDATED_SLOT;
}

function digits2(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** The day of the last timestamp read (answers come day after day: one Date.parse per day, not per answer). */
let lastDay = "";
let lastDaySlot = 0;

/**
 * slotOfMillis(Date.parse(timestamp)), without a Date.parse per entry for pi's form
 * (`toISOString`: YYYY-MM-DDTHH:MM:SS.sssZ): its day read once, its hour and minute counted.
 */
export function slotOfTimestamp(timestamp: string): number {
  const t = timestamp;
  if (t.length === 24 && t.charCodeAt(10) === 84 && t.charCodeAt(13) === 58 && t.charCodeAt(16) === 58 && t.charCodeAt(19) === 46 && t.charCodeAt(23) === 90) {
    const h = digits2(t, 11);
    const m = digits2(t, 14);
    const sec = digits2(t, 17);
    const ms = digits2(t, 20);
    const ms3 = t.charCodeAt(22) - 48;
    if (h >= 0 && h < 24 && m >= 0 && m < 60 && sec >= 0 && sec < 60 && ms >= 0 && ms3 >= 0 && ms3 <= 9) {
      if (!(lastDay.length === 10 && t.startsWith(lastDay))) {
        const day = Date.parse(`${t.slice(0, 10)}T00:00:00.000Z`);
        if (!Number.isFinite(day)) return slotOfMillis(Date.parse(t));
        lastDay = t.slice(0, 10);
        lastDaySlot = day / SLOT_MS;
      }
      return lastDaySlot + h * 4 + Math.floor(m / 15);
    }
  }
  return slotOfMillis(Date.parse(t));
}

/** Accumulates cells; starts from a row's cells when extending it over appended lines. */
export class SpendSlotsBuilder {
  private readonly models: string[];
  private readonly cells: number[];
  private readonly modelAt = new Map<string, number>();
  private readonly cellAt = new Map<string, number>();
  /** The last cell added to (most answers fall into the cell of the one before). */
  private lastSlot = Number.NaN;
  private lastKind = -1;
  private lastModel: string | null = null;
  private lastAt = -1;

  constructor(from: SpendSlots = NO_SPEND_SLOTS) {
    this.models = from.models.slice();
    this.cells = from.cells.slice();
    this.models.forEach((m, i) => this.modelAt.set(m, i));
    for (let at = 0; at < this.cells.length; at += CELL_WIDTH) this.cellAt.set(`${this.cells[at]}:${this.cells[at + 1]}:${this.cells[at + 2]}`, at);
  }

  add(slot: number, kind: number, model: string | null, s: Spend): void {
    const at = slot === this.lastSlot && kind === this.lastKind && model === this.lastModel ? this.lastAt : this.cellOf(slot, kind, model);
    const c = this.cells;
    c[at + 3]! += s.input;
    c[at + 4]! += s.output;
    c[at + 5]! += s.cacheRead;
    c[at + 6]! += s.cacheWrite;
    c[at + 7]! += s.cost;
  }

  private cellOf(slot: number, kind: number, model: string | null): number {
    let m = -1;
    if (model !== null) {
      m = this.modelAt.get(model) ?? -1;
      if (m < 0) {
        m = this.models.length;
        this.models.push(model);
        this.modelAt.set(model, m);
      }
    }
    const key = `${slot}:${kind}:${m}`;
    let at = this.cellAt.get(key);
    if (at === undefined) {
      at = this.cells.length;
      this.cells.push(slot, kind, m, 0, 0, 0, 0, 0);
      this.cellAt.set(key, at);
    }
    this.lastSlot = slot;
    this.lastKind = kind;
    this.lastModel = model;
    this.lastAt = at;
    return at;
  }

  build(): SpendSlots {
    return { models: this.models, cells: this.cells };
  }
}

/** Stored cells, checked (every number finite, kinds and model indexes in range); undefined when damaged. */
export function validSpendSlots(v: unknown): SpendSlots | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const { models, cells } = v as { models?: unknown; cells?: unknown };
  if (!Array.isArray(models) || !models.every((m) => typeof m === "string")) return undefined;
  if (!Array.isArray(cells) || cells.length % CELL_WIDTH !== 0) return undefined;
  for (let at = 0; at < cells.length; at += CELL_WIDTH) {
    for (let k = 0; k < CELL_WIDTH; k++) if (typeof cells[at + k] !== "number" || !Number.isFinite(cells[at + k])) return undefined;
    const slot = cells[at] as number;
    const kind = cells[at + 1] as number;
    const model = cells[at + 2] as number;
    if (!Number.isInteger(slot) || slot < UNDATED_SLOT || !Number.isInteger(kind) || kind < 0 || (kind & ~INHERITED) >= SPEND_KINDS.length) return undefined;
    if (!Number.isInteger(model) || model < -1 || model >= models.length) return undefined;
  }
  return { models: models as string[], cells: cells as number[] };
}
