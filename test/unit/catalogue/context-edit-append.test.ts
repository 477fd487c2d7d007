// pi 1.5 context edits appended to a listed session: the catalogue carries the
// row over them from the appended bytes when the edit targets one of the
// branch's newest entries (the projected estimate kept in the row's resume,
// persisted in the catalogue's log), and reads the file in full otherwise.
// Either way every row equals the row computed from scratch, on random pi 1.5
// sessions with random appends: edits (null, string, array with images, empty
// and junk replacements; of recent and old entries, of an edit's target, of an
// id not in the file), compactions, branch switches, system messages, failed
// and zero-usage answers, images, and a half-written line completed later.

import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowFromSession, rowVersionPolicy, type CatalogueRow } from "../../../src/core/catalogue/catalogue-row.js";
import { SessionCatalogue } from "../../../src/core/catalogue/session-catalogue.js";
import { streamRow } from "../../../src/core/catalogue/streamed-row.js";
import { decodeRecent } from "../../../src/core/catalogue/projected-resume.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { InProcessSums } from "../../support/in-process-sums.js";
import { Pi15File, s0, step, type Kind, type Step } from "../../support/pi15/edit-session-file.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-catalogue-edits-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const versionOf = rowVersionPolicy({ defaultVersion: "0.73" });

/** The row computed from scratch: the full index, and the streamed read (the catalogue's), which must agree. */
function fromScratch(path: string): CatalogueRow {
  const st = statSync(path);
  const full = rowFromSession(openSessionSync(path), st.size, st.mtimeMs, versionOf)!;
  const streamed = streamRow(path, versionOf)!.computed!;
  expect(streamed.row).toEqual(full.row);
  expect(streamed.resume?.projected).toEqual(full.resume?.projected);
  // The sum kept ahead (the fill child's read): the same on both routes.
  const fullAhead = rowFromSession(openSessionSync(path), st.size, st.mtimeMs, versionOf, true)!;
  const streamedAhead = streamRow(path, versionOf, { sumAhead: true })!.computed!;
  expect(streamedAhead.row).toEqual(full.row);
  expect(streamedAhead.resume?.projected).toEqual(fullAhead.resume?.projected);
  return full.row;
}

async function listOne(cache: string, path: string, sums?: InProcessSums): Promise<{ row: CatalogueRow; appended: boolean }> {
  // A new catalogue each time: the resume point comes back from the log on disk.
  const catalogue = await SessionCatalogue.open(cache);
  const rows = await catalogue.list([path], undefined, sums);
  await catalogue.sumsSettled();
  await catalogue.save();
  return { row: rows[0]!, appended: catalogue.stats.appended === 1 };
}

const op = fc.oneof(
  { weight: 8, arbitrary: fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 4 }), cut: fc.constant(false) }) },
  // pi's write seen half-way: the line completed on the next look.
  { weight: 1, arbitrary: fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 2 }), cut: fc.constant(true) }) },
);

describe("catalogue: pi 1.5 context edits appended to a listed session", () => {
  it("rows carried over appended edits equal rows from scratch; edits of recent entries take the append path", async () => {
    let run = 0;
    let editsAppended = 0;
    let editsRead = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 0, maxLength: 12 }), fc.array(op, { minLength: 1, maxLength: 10 }), async (start, ops) => {
        const path = join(dir, `s${run}.jsonl`);
        const cache = join(dir, `cache${run++}`);
        const file = new Pi15File();
        for (const s of start) file.lines.push(file.line(s));
        writeFileSync(path, file.text());
        expect((await listOne(cache, path)).row).toEqual(fromScratch(path));
        for (const o of ops) {
          const added = o.steps.map((s) => file.line(s));
          file.lines.push(...added);
          const text = added.map((l) => `${l}\n`).join("");
          if (o.cut) {
            const half = text.length - Math.ceil(added[added.length - 1]!.length / 2) - 1;
            appendFileSync(path, text.slice(0, half));
            expect((await listOne(cache, path)).row).toEqual(fromScratch(path));
            appendFileSync(path, text.slice(half));
          } else appendFileSync(path, text);
          const { row, appended } = await listOne(cache, path);
          expect(row).toEqual(fromScratch(path));
          if (o.steps.some((s) => s.kind === "edit")) {
            if (appended) editsAppended++;
            else editsRead++;
          }
        }
        rmSync(cache, { recursive: true, force: true });
      }),
      {
        numRuns: 200,
        ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
        examples: [
          // Found by a run: an answer after the compaction omitted by an edit (null) and restored by a later one (an
          // empty replacement keeps its usage) is an answer again; the row carried over it said "no answer yet".
          [
            [s0("compaction", { target: "missing" }), s0("edit", { target: "next" }), s0("assistant")],
            [{ steps: [s0("edit", { target: "recent", replacement: "empty", pick: 3 }), s0("label")], cut: true }, { steps: [s0("assistant")], cut: false }],
          ],
        ],
      },
    );
    if (process.env.EDITS_COUNTS) console.log({ editsAppended, editsRead });
    // Both paths were taken: edits of recent entries from the appended bytes, the others by a full read.
    expect(editsAppended).toBeGreaterThan(15);
    expect(editsRead).toBeGreaterThan(5);
  }, 120_000);

  it("with sums ahead (answers arriving some writes later, the catalogue saved and reopened between): rows equal rows from scratch, and first edits after a full read take the append path", async () => {
    let run = 0;
    let editsAppended = 0;
    let editsRead = 0;
    let firstEditsAppended = 0;
    let carried = 0;
    let awaited = 0;
    // pi writes one entry at a time: an edit's write mostly follows the failed answer's (split), sometimes both are seen at once.
    const sumOp = fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 3 }), split: fc.nat(3).map((n) => n > 0), cut: fc.nat(7).map((n) => n === 0), release: fc.boolean(), reopen: fc.nat(9) });
    await fc.assert(
      // Starts without an edit (then every full read keeps the sum: pi's count needs the whole branch), as a listed session pi has not retried in.
      fc.asyncProperty(fc.array(step.filter((s) => s.kind !== "edit"), { minLength: 0, maxLength: 12 }), fc.array(sumOp, { minLength: 1, maxLength: 10 }), fc.boolean(), async (start, ops, hold) => {
        const path = join(dir, `sum${run}.jsonl`);
        const cache = join(dir, `sum-cache${run++}`);
        const file = new Pi15File();
        for (const s of start) file.lines.push(file.line(s));
        writeFileSync(path, file.text());
        const sums = new InProcessSums();
        sums.hold = hold;
        let catalogue = await SessionCatalogue.open(cache);
        expect((await catalogue.list([path], undefined, sums))[0]).toEqual(fromScratch(path));
        // Sums kept so far (over reopened catalogues), and when the file was last read in full or edited.
        let keptBefore = 0;
        const kept = (): number => keptBefore + catalogue.stats.sumsKept;
        let keptAtRead = 0;
        const refresh = async (): Promise<{ row: CatalogueRow; appended: boolean }> => {
          const before = { ...catalogue.stats };
          const refreshed = catalogue.refresh(path, sums);
          // It waits for the sum being computed (an edit the row cannot carry without it): the held answers come now.
          if (catalogue.stats.sumsAwaited > before.sumsAwaited) {
            awaited++;
            await release();
          }
          const row = (await refreshed)!;
          if (catalogue.stats.read > before.read) keptAtRead = kept();
          return { row, appended: catalogue.stats.appended > before.appended };
        };
        // Everything asked so far answered (a path asked again meanwhile too), then held again.
        const release = async (): Promise<void> => {
          const before = kept();
          sums.hold = false;
          sums.release();
          await catalogue.sumsSettled();
          sums.hold = hold;
          if (hold && kept() > before) carried++;
        };
        for (const o of ops) {
          const firstEdit = o.steps.findIndex((s) => s.kind === "edit");
          const writes = o.split && firstEdit > 0 ? [o.steps.slice(0, firstEdit), o.steps.slice(firstEdit)] : [o.steps];
          for (const [w, steps] of writes.entries()) {
            const added = steps.map((s) => file.line(s));
            file.lines.push(...added);
            const text = added.map((l) => `${l}\n`).join("");
            if (o.cut) {
              const half = text.length - Math.ceil(added[added.length - 1]!.length / 2) - 1;
              appendFileSync(path, text.slice(0, half));
              expect((await refresh()).row).toEqual(fromScratch(path));
              appendFileSync(path, text.slice(half));
            } else appendFileSync(path, text);
            const { row, appended } = await refresh();
            expect(row).toEqual(fromScratch(path));
            if (steps.some((s) => s.kind === "edit")) {
              if (appended) editsAppended++;
              else editsRead++;
              if (appended && kept() > keptAtRead) firstEditsAppended++;
              keptAtRead = kept();
            }
            if (o.release && w === 0) await release();
          }
          if (o.reopen === 0) {
            await catalogue.save();
            keptBefore = kept();
            catalogue = await SessionCatalogue.open(cache);
          }
        }
        await release();
        rmSync(cache, { recursive: true, force: true });
      }),
      { numRuns: 200, endOnFailure: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
    if (process.env.EDITS_COUNTS) console.log({ editsAppended, editsRead, firstEditsAppended, carried, awaited });
    expect(editsAppended).toBeGreaterThan(15);
    expect(editsRead).toBeGreaterThan(5);
    // The sum kept ahead carried the first edit after a full read, also when it arrived after later writes.
    expect(firstEditsAppended).toBeGreaterThan(5);
    expect(carried).toBeGreaterThan(5);
    // Edits written while their row's sum was computed waited for it.
    expect(awaited).toBeGreaterThan(5);
  }, 180_000);

  it("a full read keeps no sum when its count did not need it; an ordinary append asks for one ahead, kept in the row and the log; the first edit then takes the append path", async () => {
    const path = join(dir, "kept.jsonl");
    const cache = join(dir, "kept-cache");
    const file = new Pi15File();
    const s = (kind: Kind, extra: Partial<Step> = {}): string => file.line({ kind, target: "newest", replacement: "null", pick: 0, text: "x", usage: 1000, ...extra });
    file.lines.push(s("user"), s("assistant"), s("assistant-tool"), s("tool"), s("assistant"));
    writeFileSync(path, file.text());
    writtenLongAgo(path); // not live when listed
    const sums = new InProcessSums();
    expect((await listOne(cache, path, sums)).appended).toBe(false);
    // Usage after every reset: the row's tokens come from the last answer, and the read kept no sum (nor asked for one).
    const streamed = streamRow(path, versionOf)!.computed!;
    expect(streamed.row.contextSource).toBe("usage");
    expect(streamed.resume!.projected).toBeUndefined();
    expect(sums.asked).toBe(0);
    expect(readFileSync(join(cache, readdir(cache)), "utf8")).not.toContain('"projected":');
    const failed = s("assistant-error");
    appendFileSync(path, `${failed}\n`);
    expect((await listOne(cache, path, sums)).appended).toBe(true);
    expect(sums.asked).toBe(1);
    expect(readFileSync(join(cache, readdir(cache)), "utf8")).toContain('"projected":{"estimate":');
    const edit = s("edit"); // the failed answer, as pi's _omitRecoveryAttempt
    expect(JSON.parse(edit).targetId).toBe(JSON.parse(failed).id);
    appendFileSync(path, `${edit}\n`);
    let listed = await listOne(cache, path, sums);
    expect(listed.appended).toBe(true);
    expect(listed.row).toEqual(fromScratch(path));
    expect(listed.row.contextSource).toBe("estimate");
    // From then on: a retry's answer, another failure and its omission, all from the appended bytes (no more sums asked).
    for (const kind of ["user", "assistant", "assistant-error", "edit", "assistant", "tool", "edit"] as Kind[]) {
      appendFileSync(path, `${s(kind, { replacement: kind === "edit" ? "string" : "null" })}\n`);
      listed = await listOne(cache, path, sums);
      expect(listed.appended).toBe(true);
      expect(listed.row).toEqual(fromScratch(path));
    }
    expect(sums.asked).toBe(1);
  });

  it("without sums ahead (no child process: Restricted Mode, the CLI), or a row stored without one: the first edit reads the file once, the next ones are appended", async () => {
    const path = join(dir, "old-row.jsonl");
    const cache = join(dir, "old-row-cache");
    const file = new Pi15File();
    const s = (kind: Kind): string => file.line({ kind, target: "newest", replacement: "null", pick: 0, text: "x", usage: 1000 });
    file.lines.push(s("user"), s("assistant"));
    writeFileSync(path, file.text());
    await listOne(cache, path);
    const failed = s("assistant-error");
    appendFileSync(path, `${failed}\n`);
    expect((await listOne(cache, path)).appended).toBe(true);
    appendFileSync(path, `${s("edit")}\n`);
    let listed = await listOne(cache, path);
    expect(listed.appended).toBe(false);
    expect(listed.row).toEqual(fromScratch(path));
    for (const kind of ["assistant-error", "edit", "assistant"] as Kind[]) {
      appendFileSync(path, `${s(kind)}\n`);
      listed = await listOne(cache, path);
      expect(listed.appended).toBe(true);
      expect(listed.row).toEqual(fromScratch(path));
    }
  });

  it("a sum that arrives after more writes is carried over them (read from the file): the edit of an entry written meanwhile, and of one before, are exact", async () => {
    const path = join(dir, "carried.jsonl");
    const cache = join(dir, "carried-cache");
    const file = new Pi15File();
    const s = (kind: Kind, pick = 0): string => file.line({ kind, target: "recent", replacement: "string", pick, text: "xyz", usage: 1000 });
    file.lines.push(s("user"), s("assistant"));
    writeFileSync(path, file.text());
    const sums = new InProcessSums();
    sums.hold = true;
    const catalogue = await SessionCatalogue.open(cache);
    await catalogue.list([path], undefined, sums);
    appendFileSync(path, `${s("user")}\n`);
    await catalogue.refresh(path, sums);
    // Computed now (the file ends on that user message), answered after three more writes.
    await new Promise((resolve) => setImmediate(resolve));
    for (const kind of ["assistant-tool", "tool", "assistant-tool"] as Kind[]) {
      appendFileSync(path, `${s(kind)}\n`);
      expect(await catalogue.refresh(path, sums)).toEqual(fromScratch(path));
    }
    sums.release();
    await catalogue.sumsSettled();
    expect(catalogue.stats).toMatchObject({ read: 1, appended: 4, sumsAsked: 1, sumsKept: 1 });
    // Of the newest six entries: the tool result written after the sum was computed, then the user message before.
    for (const pick of [4, 1]) {
      appendFileSync(path, `${s("edit", pick)}\n`);
      expect(await catalogue.refresh(path, sums)).toEqual(fromScratch(path));
    }
    expect(catalogue.stats).toMatchObject({ read: 1, appended: 6 });
  });

  it("a listing asks sums ahead for the few sessions written in the last minutes (maybe live), not for older ones; the first edit of a recent one is carried from its bytes (of an older one, after the sum asked then)", async () => {
    const cache = join(dir, "recent-cache");
    const paths: string[] = [];
    const files: Pi15File[] = [];
    for (let i = 0; i < 7; i++) {
      const file = new Pi15File();
      file.lines.push(file.line({ kind: "user", target: "newest", replacement: "null", pick: 0, text: "q", usage: 1 }), file.line({ kind: "assistant", target: "newest", replacement: "null", pick: 0, text: "a", usage: 1000 }));
      const path = join(dir, `recent${i}.jsonl`);
      writeFileSync(path, file.text());
      // Two written an hour ago; of the five recent ones, the newest four are asked for.
      const when = new Date(i < 2 ? Date.now() - 3_600_000 : Date.now() - 60_000 + i * 1000);
      utimesSync(path, when, when);
      paths.push(path);
      files.push(file);
    }
    const sums = new InProcessSums();
    const catalogue = await SessionCatalogue.open(cache);
    await catalogue.list(paths, undefined, sums);
    await catalogue.sumsSettled();
    expect(sums.asked).toBe(4);
    expect(catalogue.stats).toMatchObject({ read: 7, sumsAsked: 4, sumsKept: 4 });
    for (const i of [6, 0]) {
      const edit = files[i]!.line({ kind: "edit", target: "newest", replacement: "null", pick: 0, text: "", usage: 1 });
      appendFileSync(paths[i]!, `${edit}\n`);
      expect(await catalogue.refresh(paths[i]!, sums)).toEqual(fromScratch(paths[i]!));
    }
    // The recent one's edit from its bytes and its sum ahead; the old one got no sum: asked at its edit, and waited for.
    expect(catalogue.stats).toMatchObject({ read: 7, appended: 2, sumsAsked: 5, sumsAwaited: 1 });
  });

  it("a context edit arriving while the sum is computed waits for it, then is carried from its bytes (no whole read); the edit's own refresh and a watcher's second one alike", async () => {
    const path = join(dir, "awaited.jsonl");
    const cache = join(dir, "awaited-cache");
    const file = new Pi15File();
    const s = (kind: Kind): string => file.line({ kind, target: "newest", replacement: "null", pick: 0, text: "x", usage: 1000 });
    file.lines.push(s("user"), s("assistant-tool"), s("tool"), s("assistant"));
    writeFileSync(path, file.text());
    writtenLongAgo(path); // asked on the failed answer's append, not by the listing
    const sums = new InProcessSums();
    sums.hold = true;
    const catalogue = await SessionCatalogue.open(cache);
    await catalogue.list([path], undefined, sums);
    appendFileSync(path, `${s("assistant-error")}\n`);
    await catalogue.refresh(path, sums);
    // pi writes the edit right after the failed answer: the sum is computed of the file without it (the row's size).
    appendFileSync(path, `${s("edit")}\n`);
    const refreshed = [catalogue.refresh(path, sums), catalogue.refresh(path, sums)];
    expect(catalogue.stats).toMatchObject({ appended: 1, read: 1, sumsAsked: 1, sumsAwaited: 2 });
    sums.release();
    const rows = await Promise.all(refreshed);
    expect(rows[0]).toEqual(fromScratch(path));
    expect(rows[1]).toBe(rows[0]);
    expect(rows[0]!.contextSource).toBe("estimate");
    expect(catalogue.stats).toMatchObject({ appended: 2, read: 1, sumsAsked: 1, sumsKept: 1 });
    appendFileSync(path, `${s("assistant-error")}\n${s("edit")}\n`);
    expect(await catalogue.refresh(path, sums)).toEqual(fromScratch(path));
    expect(catalogue.stats).toMatchObject({ appended: 3, read: 1, sumsAsked: 1, sumsAwaited: 2 });
  });

  it("a sum that does not come (the child stopped early) leaves the waiting edit to one read, once", async () => {
    const path = join(dir, "late.jsonl");
    const cache = join(dir, "late-cache");
    const file = new Pi15File();
    const s = (kind: Kind): string => file.line({ kind, target: "newest", replacement: "null", pick: 0, text: "x", usage: 1000 });
    file.lines.push(s("user"), s("assistant"));
    writeFileSync(path, file.text());
    writtenLongAgo(path); // asked on the append, not by the listing
    const sums = new InProcessSums();
    sums.drop = true;
    const catalogue = await SessionCatalogue.open(cache);
    await catalogue.list([path], undefined, sums);
    appendFileSync(path, `${s("assistant-error")}\n`);
    await catalogue.refresh(path, sums);
    appendFileSync(path, `${s("edit")}\n`);
    expect(await catalogue.refresh(path, sums)).toEqual(fromScratch(path));
    expect(catalogue.stats).toMatchObject({ appended: 1, read: 2, sumsAsked: 1, sumsAwaited: 1, sumsKept: 0 });
    // The read kept the sum its count needed: the next edits are carried.
    appendFileSync(path, `${s("assistant-error")}\n${s("edit")}\n`);
    expect(await catalogue.refresh(path, sums)).toEqual(fromScratch(path));
    expect(catalogue.stats).toMatchObject({ appended: 2, read: 2, sumsAsked: 1, sumsAwaited: 1 });
  });

  it("pi's edit seen in the same write as the failed answer (no sum asked yet): the sum is asked then, and waited for; without a child, one read", async () => {
    for (const child of [true, false]) {
      const path = join(dir, `same-write-${child}.jsonl`);
      const file = new Pi15File();
      const s = (kind: Kind): string => file.line({ kind, target: "newest", replacement: "null", pick: 0, text: "x", usage: 1000 });
      file.lines.push(s("user"), s("assistant-tool"), s("tool"), s("assistant"));
      writeFileSync(path, file.text());
      writtenLongAgo(path);
      const sums = child ? new InProcessSums() : undefined;
      const catalogue = await SessionCatalogue.open(join(dir, `same-write-${child}-cache`));
      await catalogue.list([path], undefined, sums);
      appendFileSync(path, `${s("assistant-error")}\n${s("edit")}\n`);
      expect(await catalogue.refresh(path, sums)).toEqual(fromScratch(path));
      expect(catalogue.stats).toMatchObject(child ? { read: 1, appended: 1, sumsAsked: 1, sumsAwaited: 1, sumsKept: 1 } : { read: 2, appended: 0, sumsAsked: 0 });
      // Appends that need no sum ask for none: a branch switch reads the file, without waiting.
      appendFileSync(path, `${s("switch")}\n`);
      expect(await catalogue.refresh(path, sums)).toEqual(fromScratch(path));
      expect(catalogue.stats).toMatchObject(child ? { read: 2, sumsAsked: 1, sumsAwaited: 1 } : { read: 3, sumsAsked: 0 });
    }
  });
});

describe("catalogue: the projected estimate kept ahead", () => {
  it("is one string per row (no object per entry); a log holding its recent entries as arrays (the previous build's) still carries the first edit", async () => {
    const path = join(dir, "arrays.jsonl");
    const cache = join(dir, "arrays-cache");
    const file = new Pi15File();
    const s = (kind: Kind): string => file.line({ kind, target: "newest", replacement: "null", pick: 0, text: "x", usage: 1000 });
    file.lines.push(s("user"), s("assistant-tool"), s("tool"), s("assistant"));
    writeFileSync(path, file.text());
    const sums = new InProcessSums();
    await listOne(cache, path, sums);
    appendFileSync(path, `${s("assistant-error")}\n`);
    await listOne(cache, path, sums);
    const projected = streamRow(path, versionOf, { sumAhead: true })!.computed!.resume!.projected!;
    expect(typeof projected.recent).toBe("string");
    const entries = decodeRecent(projected.recent)!;
    expect(entries.map((e) => e[1])).toEqual(["other", "user", "assistant", "toolResult", "assistant", "assistant"]);
    rewriteProjected(join(cache, readdir(cache)), (resume) => {
      resume.projected!.recent = decodeRecent(resume.projected!.recent as string)!.map((e) => [e[0], e[1] === "other" ? "system" : e[1], e[2], e[3], e[4]]);
    });
    appendFileSync(path, `${s("edit")}\n`);
    const listed = await listOne(cache, path);
    expect(listed.appended).toBe(true);
    expect(listed.row).toEqual(fromScratch(path));
  });

  it("a body the row did not need that cannot be parsed (the skim does not check every byte) leaves the row as it was, without the sum", async () => {
    const path = join(dir, "unparsable.jsonl");
    const file = new Pi15File();
    const s = (kind: Kind): string => file.line({ kind, target: "newest", replacement: "null", pick: 0, text: "x", usage: 1000 });
    // A big tool output with an invalid escape in its middle: JSON.parse throws on it, pi's loader drops the line.
    const tool = JSON.parse(s("tool")) as { message: { content: { text: string }[] } };
    tool.message.content[0]!.text = `${"a".repeat(20_000)}@${"b".repeat(20_000)}`;
    const broken = JSON.stringify(tool).replace("@", "\\q");
    expect(() => JSON.parse(broken)).toThrow();
    file.lines.push(s("user"), s("assistant-tool"), broken, s("assistant"));
    writeFileSync(path, file.text());
    writtenLongAgo(path);
    const streamed = streamRow(path, versionOf, { sumAhead: true })!.computed!;
    const skimmed = rowFromSession(openSessionSync(path, { skim: true }), statSync(path).size, statSync(path).mtimeMs, versionOf, true)!;
    expect(streamed.row).toEqual(skimmed.row);
    expect(streamed.row.contextSource).toBe("usage");
    expect(streamed.resume!.projected).toBeUndefined();
    expect(skimmed.resume!.projected).toBeUndefined();
    const cache = join(dir, "unparsable-cache");
    const sums = new InProcessSums();
    expect((await listOne(cache, path, sums)).row).toEqual(streamed.row);
    // Live: a sum is asked for, the child's read finds none (the same body), the row stays as the skimmed read's.
    appendFileSync(path, `${s("user")}\n`);
    expect((await listOne(cache, path, sums)).row).toEqual(streamRow(path, versionOf)!.computed!.row);
    expect(sums.asked).toBe(1);
  });
});

/** Rewrites the projected estimate of every row of a catalogue log (checksums made anew). */
function rewriteProjected(log: string, rewrite: (resume: { projected?: { recent: unknown } }) => void): void {
  const lines = readFileSync(log, "utf8").trimEnd().split("\n");
  let stripped = 0;
  const out = lines.map((line) => {
    const value = JSON.parse(line.slice(17)) as { resume?: { projected?: { recent: unknown } } };
    if (!value.resume?.projected) return line;
    rewrite(value.resume);
    stripped++;
    const json = JSON.stringify(value);
    return `${createHash("sha256").update(json).digest("hex").slice(0, 16)} ${json}`;
  });
  expect(stripped).toBeGreaterThan(0);
  writeFileSync(log, `${out.join("\n")}\n`);
}

/** The file's mtime an hour back: a listing does not take it for a live session (no sum asked ahead). */
function writtenLongAgo(path: string): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(path, hourAgo, hourAgo);
}

function readdir(folder: string): string {
  return readdirSync(folder).find((f) => f.endsWith(".jsonl"))!;
}
