// The catalogue benchmark's folder (also the search benchmark's: cold search
// indexing is measured against a cold catalogue build of the same files).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateSessionEntries, parseSessionEntries } from "@mariozechner/pi-coding-agent";

/** A folder of `count` sessions cut from pi's large fixture (most small, a few large), made once and kept in tmp. */
export function catalogueFolder(fixture: string, count: number): string {
  const folder = join(tmpdir(), `pi-sessions-bench-catalogue-${count}`);
  if (existsSync(join(folder, ".complete"))) return folder;
  rmSync(folder, { recursive: true, force: true });
  const building = `${folder}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const entries = parseSessionEntries(readFileSync(fixture, "utf8")) as unknown as Record<string, unknown>[];
  migrateSessionEntries(entries as never);
  const header = entries.find((e) => e.type === "session")!;
  const lines = entries.filter((e) => e.type !== "session").map((e) => `${JSON.stringify(e)}\n`);
  let seed = 12345;
  const random = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let i = 0; i < count; i++) {
    const take = Math.max(4, Math.floor(lines.length * random() ** 6));
    const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;
    const time = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    const head = `${JSON.stringify({ ...header, version: 3, id, timestamp: time })}\n`;
    writeFileSync(join(building, `${time.replace(/[:.]/g, "-")}_${id}.jsonl`), head + lines.slice(0, take).join(""));
  }
  writeFileSync(join(building, ".complete"), "");
  renameSync(building, folder);
  return folder;
}
