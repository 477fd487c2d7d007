// The periods the Usage view offers, as local days ending today.

import { localDay } from "./local-day.js";

export const PERIODS = ["7d", "30d", "90d", "all"] as const;
export type UsagePeriod = (typeof PERIODS)[number];

export function isPeriod(v: unknown): v is UsagePeriod {
  return typeof v === "string" && (PERIODS as readonly string[]).includes(v);
}

/** since/until of a period ending on the local day of `now` ("all": no bounds). */
export function periodDays(period: UsagePeriod, now: number): { since?: string; until?: string } {
  if (period === "all") return {};
  const n = period === "7d" ? 7 : period === "30d" ? 30 : 90;
  const today = new Date(now);
  const first = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (n - 1));
  return { since: localDay(first.getTime()), until: localDay(now) };
}
