// A session replaced at the same path (omp rewrites old entries with an atomic
// rename: a new inode) is read again, never continued from the old file's
// resume point — even when the new file's bytes at the old tail are the same.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openSession, refreshSession } from "../../../src/core/session/open/open-session.js";

const dir = mkdtempSync(join(tmpdir(), "replaced-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}';
const msg = (id: string, parentId: string | null, text: string) =>
  `{"type":"message","id":"${id}","parentId":${parentId === null ? "null" : `"${id === "b" ? "a" : parentId}"`},"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"${text}","timestamp":1}}`;

it("an atomic replacement with the same tail bytes and more lines: the new first entry is seen", async () => {
  const path = join(dir, "s.jsonl");
  const tail = msg("b", "a", "same tail");
  // A long entry between them: the old file's last 4 KiB (its fingerprint) do not reach the first message.
  const filler = msg("f", "a", "x".repeat(6000)).replace('"parentId":"a"', '"parentId":"a"');
  writeFileSync(path, [header, msg("a", null, "old text"), filler, tail].join("\n") + "\n");
  const session = await openSession(path);
  expect((session.entry("a") as { message: { content: string } }).message.content).toBe("old text");
  // omp's rewrite: the same length of the first message (so the old tail's bytes sit at the same offset), one more line.
  const replaced = join(dir, ".s.jsonl.tmp");
  writeFileSync(replaced, [header, msg("a", null, "new text"), filler, tail, msg("c", "b", "appended")].join("\n") + "\n");
  renameSync(replaced, path);
  const { change, session: after } = await refreshSession(session);
  expect(change).toBe("rewritten");
  expect((after.entry("a") as { message: { content: string } }).message.content).toBe("new text");
  expect(after.index.size).toBe(4);
  expect(readFileSync(path, "utf8")).toContain("new text");
});

it("the catalogue reads a replaced file again instead of carrying its row over the 'appended' bytes", async () => {
  const { SessionCatalogue } = await import("../../../src/core/catalogue/session-catalogue.js");
  const path = join(dir, "c.jsonl");
  const filler = msg("f", "a", "x".repeat(6000));
  const tail = msg("b", "a", "same tail");
  writeFileSync(path, [header, msg("a", null, "old text"), filler, tail].join("\n") + "\n");
  const catalogue = await SessionCatalogue.open(join(dir, "cache"));
  expect((await catalogue.list([path]))[0]!.firstUserMessage).toBe("old text");
  const replaced = join(dir, ".c.jsonl.tmp");
  writeFileSync(replaced, [header, msg("a", null, "new text"), filler, tail, msg("c", "b", "appended")].join("\n") + "\n");
  renameSync(replaced, path);
  const row = (await catalogue.list([path]))[0]!;
  expect(row.firstUserMessage).toBe("new text");
  expect(row.entries).toBe(4);
});
