// "1 session", "2 sessions": every count a user reads goes through here (a unit
// test looks for counts written out by hand with a fixed plural).

const IRREGULAR: Record<string, string> = { entry: "entries", branch: "branches", match: "matches" };

export function counted(n: number, singular: string, plural = IRREGULAR[singular] ?? `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
