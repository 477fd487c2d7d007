export { usageReport, sessionTitle, zeroTotals, KIND_LABELS, type UsageDay, type UsageOptions, type UsageReport, type UsageSession, type UsageStack, type UsageTotals } from "./usage-report.js";
export { PERIODS, isPeriod, periodDays, type UsagePeriod } from "./period.js";
export { localDay, startOfLocalDay } from "./local-day.js";
export { rollUpTargets } from "./roll-up.js";
