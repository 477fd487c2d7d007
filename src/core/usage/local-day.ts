// Local calendar days (the process's time zone: TZ, or the system's) for spend
// slots. A slot never straddles local midnight (spend-slots.ts), so the day of a
// slot is the local date of its start.

import { SLOT_MS } from "../catalogue/spend-slots.js";

/** "YYYY-MM-DD" of a time in the local zone. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  const m = d.getMonth() + 1;
  const day = d.getDate();
  return `${d.getFullYear()}-${m < 10 ? "0" : ""}${m}-${day < 10 ? "0" : ""}${day}`;
}

/** Local midnight at the start of a "YYYY-MM-DD" day (ms), NaN when it is not such a date. */
export function startOfLocalDay(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return Number.NaN;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getFullYear() === Number(m[1]) && d.getMonth() === Number(m[2]) - 1 && d.getDate() === Number(m[3]) ? d.getTime() : Number.NaN;
}

/** The day after `day` ("YYYY-MM-DD"), by the calendar (a day is 23 or 25 hours across a DST change). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return localDay(new Date(y, m - 1, d + 1).getTime());
}

/** The local day of each slot, remembered (rows share their slots' days). */
export class SlotDays {
  private readonly days = new Map<number, string>();
  private readonly dayStarts = new Map<string, number>();

  of(slot: number): string {
    let day = this.days.get(slot);
    if (day === undefined) {
      day = localDay(slot * SLOT_MS);
      this.days.set(slot, day);
    }
    return day;
  }

  /** Local midnight starting `day` (ms). */
  startOf(day: string): number {
    let start = this.dayStarts.get(day);
    if (start === undefined) {
      start = startOfLocalDay(day);
      this.dayStarts.set(day, start);
    }
    return start;
  }
}

/** Every day from `first` to `last` inclusive ("YYYY-MM-DD"), in order (empty when last is before first). */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let day = first; day <= last && out.length < 100_000; day = nextDay(day)) out.push(day);
  return out;
}
