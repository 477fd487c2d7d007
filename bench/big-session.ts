// A ~100 MB version-3 session made of copies of pi's large fixture, chained
// into one long branch (each copy's first entry continues the previous copy).
import { closeSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { migrateSessionEntries, parseSessionEntries } from "@mariozechner/pi-coding-agent";

export function buildBigSession(fixture: string, out: string, targetBytes: number): void {
  const entries = parseSessionEntries(readFileSync(fixture, "utf8")) as unknown as Record<string, unknown>[];
  migrateSessionEntries(entries as never);
  const header = entries.find((e) => e.type === "session")!;
  const body = entries.filter((e) => e.type !== "session");
  const tmp = `${out}.tmp`;
  const fd = openSync(tmp, "w");
  let written = 0;
  const write = (line: string) => {
    written += writeSync(fd, `${line}\n`);
  };
  write(JSON.stringify({ type: "session", version: 3, id: header.id, timestamp: header.timestamp, cwd: header.cwd }));
  let counter = 0;
  let previousLast: string | null = null;
  while (written < targetBytes) {
    const ids = new Map<string, string>();
    for (const e of body) ids.set(e.id as string, (counter++).toString(16).padStart(8, "0"));
    for (const e of body) {
      const copy = { ...e, id: ids.get(e.id as string), parentId: e.parentId ? ids.get(e.parentId as string) : previousLast };
      write(JSON.stringify(copy));
    }
    previousLast = ids.get(body[body.length - 1]!.id as string)!;
  }
  closeSync(fd);
  renameSync(tmp, out);
}
