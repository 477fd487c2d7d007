// omp 18.3.4's shapes for the omp bench (BENCH_ONLY=omp): a ~100 MB omp session
// and a folder of omp sessions, written directly in omp's layout from the
// messages of pi's large fixture (pi's message shapes are omp's): the 256-byte
// title slot, omp's header, `model_change {model: "provider/id"}`, a `/clear`
// (reset_boundary) a quarter in, a soft compaction and a snapcompact one (its
// archive as text, no frames) further on. Made once and kept in tmp.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Json = Record<string, unknown>;

const CWD = "/home/u/projects/omp-bench";

/** omp's title slot: line 1, padded to 256 bytes. */
export function ompTitleSlot(title: string, updatedAt: string): string {
  const base = { type: "title", v: 1, title, source: "user", updatedAt };
  const unpadded = JSON.stringify({ ...base, pad: "" }) + "\n";
  return JSON.stringify({ ...base, pad: " ".repeat(256 - Buffer.byteLength(unpadded)) }) + "\n";
}

function fixtureMessages(fixture: string): Json[] {
  return readFileSync(fixture, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Json)
    .filter((entry) => entry.type === "message");
}

const uuid = (n: number): string => `019c6be9-0000-7000-8000-${n.toString(16).padStart(12, "0")}`;

/**
 * Writes the messages as one chain (each the child of the line before), again
 * and again until `targetBytes` (0: once), with omp's entries at fractions of
 * `markerBytes` (0: none).
 */
function writeChain(messages: Json[], targetBytes: number, sessionNumber: number, markerBytes: number): string {
  const time = new Date(Date.UTC(2026, 10, 1) + sessionNumber * 60_000).toISOString();
  const out: string[] = [ompTitleSlot(sessionNumber % 3 === 0 ? "" : `omp bench session ${sessionNumber}`, time)];
  let bytes = out[0]!.length;
  const push = (entry: Json) => {
    const line = JSON.stringify(entry) + "\n";
    out.push(line);
    bytes += Buffer.byteLength(line);
  };
  push({ type: "session", version: 3, id: uuid(sessionNumber), timestamp: time, cwd: CWD });
  let counter = 0;
  const newId = () => (sessionNumber * 0x100000 + counter++).toString(16).padStart(8, "0").slice(-8);
  const ids: string[] = [];
  let parentId: string | null = null;
  const add = (entry: Json) => {
    const id = newId();
    push({ ...entry, id, parentId, timestamp: (entry.timestamp as string | undefined) ?? time });
    ids.push(id);
    parentId = id;
  };
  add({ type: "model_change", model: "openai/gpt-5" });
  add({ type: "thinking_level_change", thinkingLevel: "medium" });
  const markers = markerBytes > 0
    ? [
        { at: 0.25, entry: () => ({ type: "reset_boundary" }) },
        {
          at: 0.4,
          entry: () => ({
            type: "compaction",
            summary: `## Goal\nKeep the bench session going.\n\n## Progress\n${"- [x] a step done\n".repeat(60)}`,
            shortSummary: "Kept the bench session going.",
            firstKeptEntryId: ids[ids.length - 30],
            tokensBefore: 180_000,
            tokensAfter: 24_000,
            method: "soft",
            details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] },
            fromExtension: false,
          }),
        },
        {
          at: 0.55,
          entry: () => ({
            type: "compaction",
            summary: "Resume prior conversation. Earlier turns archived under HISTORY below, oldest→newest.",
            shortSummary: "Archived 52,000 chars of history onto 0 snapcompact frames (+52,000 chars as text)",
            firstKeptEntryId: ids[ids.length - 30],
            tokensBefore: 190_000,
            tokensAfter: 30_000,
            method: "snapcompact",
            details: { readFiles: [], modifiedFiles: ["src/b.ts"] },
            fromExtension: false,
            preserveData: { snapcompact: { frames: [], totalChars: 52_000, truncatedChars: 0, text: "¶user:go on█¶ai:done█".repeat(2_600) } },
          }),
        },
      ]
    : [];
  let next = 0;
  do {
    for (const entry of messages) {
      const role = (entry.message as { role?: string }).role;
      if (next < markers.length && role === "user" && bytes >= markers[next]!.at * markerBytes) add(markers[next++]!.entry());
      add({ type: "message", timestamp: entry.timestamp, message: entry.message });
      if (targetBytes > 0 && bytes >= targetBytes && role === "assistant") break;
    }
  } while (bytes < targetBytes);
  return out.join("");
}

/** The ~100 MB omp session (`<tmp>/pi-sessions-bench-omp-<bytes>.jsonl`). */
export function ompBigSession(fixture: string, targetBytes: number): string {
  const file = join(tmpdir(), `pi-sessions-bench-omp-${targetBytes}.jsonl`);
  if (existsSync(file)) return file;
  writeFileSync(`${file}.tmp`, writeChain(fixtureMessages(fixture), targetBytes, 1, targetBytes));
  renameSync(`${file}.tmp`, file);
  return file;
}

/** A folder of `count` omp sessions cut from the fixture (most small, a few large), as omp names its files. */
export function ompCatalogueFolder(fixture: string, count: number): string {
  const folder = join(tmpdir(), `pi-sessions-bench-omp-catalogue-${count}`);
  if (existsSync(join(folder, ".complete"))) return folder;
  rmSync(folder, { recursive: true, force: true });
  const building = `${folder}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const messages = fixtureMessages(fixture);
  const fixtureBytes = messages.reduce((n, m) => n + JSON.stringify(m).length + 60, 0);
  let seed = 12345;
  const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < count; i++) {
    const take = Math.max(4, Math.floor(messages.length * random() ** 6));
    const time = new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
    // Every tenth session of 200 messages or more has a /clear and both compactions.
    const markerBytes = i % 10 === 0 && take > 200 ? Math.floor((fixtureBytes * take) / messages.length) : 0;
    const text = writeChain(messages.slice(0, take), 0, i + 2, markerBytes);
    writeFileSync(join(building, `${time.replace(/[:.]/g, "-")}_${uuid(i + 2)}.jsonl`), text);
  }
  writeFileSync(join(building, ".complete"), "");
  renameSync(building, folder);
  return folder;
}
