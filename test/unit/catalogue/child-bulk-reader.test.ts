// The cold catalogue fill in a child process: the real fill-child bundle,
// forked with this Node. Its rows equal the in-process read; what it does not
// answer (it cannot start, dies, lies) is read in-process, with one warning.

import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueRow } from "../../../src/core/catalogue/catalogue-row.js";
import { childBulkReader } from "../../../src/core/catalogue/child-bulk-reader.js";
import { SessionCatalogue, type CatalogueProgress } from "../../../src/core/catalogue/session-catalogue.js";
import { FileModel } from "../../support/session-lines.js";

let dir: string;
let script: string;
let files: string[];
const models: FileModel[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-child-fill-"));
  script = join(dir, "catalogue-fill.js");
  await build({ entryPoints: ["src/core/catalogue/fill-child.ts"], outfile: script, bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "warning" });
  const folder = join(dir, "sessions");
  mkdirSync(folder);
  files = [];
  for (let i = 0; i < 40; i++) {
    const model = new FileModel();
    models.push(model);
    for (let t = 0; t < 1 + (i % 5); t++) {
      model.lines.push(model.line({ kind: "user", parent: "leaf", pick: t, text: `question ${i}.${t}`, usage: 1 }));
      model.lines.push(model.line({ kind: "assistant", parent: "leaf", pick: t, text: `answer ${i}.${t}`, usage: 1000 + i }));
    }
    const path = join(folder, `s${i}.jsonl`);
    writeFileSync(path, model.text());
    files.push(path);
  }
  writeFileSync(join(folder, "notes.jsonl"), '{"hello":1}\n');
  files.push(join(folder, "notes.jsonl"), join(folder, "gone.jsonl"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const cache = () => join(dir, `cache${n++}`);
const byPath = (rows: CatalogueRow[]) => [...rows].sort((a, b) => a.path.localeCompare(b.path));

async function inProcess(): Promise<CatalogueRow[]> {
  return byPath(await (await SessionCatalogue.open(cache())).list(files));
}

/** A stand-in child (a script of a few lines) for the failures the real one should not have. */
function fakeChild(body: string): string {
  const path = join(dir, `fake${n++}.js`);
  writeFileSync(path, `process.once("message", (m) => { ${body} });`);
  return path;
}

describe("cold fill in a child process", () => {
  it("gives the rows and records of the in-process read, and the catalogue it saves appends afterwards", async () => {
    const expected = await inProcess();
    const folder = cache();
    const catalogue = await SessionCatalogue.open(folder);
    const warnings: string[] = [];
    const progress: number[] = [];
    const rows = await catalogue.list(files, (p) => progress.push(p.done), childBulkReader(script, { minFiles: 1, warn: (m) => warnings.push(m) }));
    expect(byPath(rows)).toEqual(expected);
    expect(rows.length).toBe(40);
    expect(warnings).toEqual([]);
    expect(catalogue.stats.readByChild).toBe(41); // the sessions and notes.jsonl (gone.jsonl is not stat-able)
    expect(catalogue.stats.childCpuMs).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(files.length);

    // The child appended what it read to the catalogue's log: a new process answers from it, and the
    // host's save has nothing of the fill to write.
    const logged = statSync(catalogue.file).size;
    let fromLog!: CatalogueProgress;
    expect(byPath(await (await SessionCatalogue.open(folder)).list(files, (p) => (fromLog = p)))).toEqual(expected);
    expect(fromLog).toMatchObject({ read: 0, cached: 41 });
    await catalogue.save();
    expect(statSync(catalogue.file).size).toBe(logged);

    // The id filter came over from the child: an append is read as an append.
    models[0]!.lines.length = 0;
    appendFileSync(files[0]!, models[0]!.line({ kind: "user", parent: "leaf", pick: 7, text: "one more", usage: 1 }) + "\n");
    const appended = await catalogue.refresh(files[0]!);
    expect(catalogue.stats.appended).toBe(1);
    expect(appended).toEqual((await inProcess()).find((r) => r.path === files[0]));
    await catalogue.save();

    const again = await SessionCatalogue.open(folder);
    expect(byPath(await again.list(files))).toEqual(byPath(await inProcess()));
    expect(again.stats).toMatchObject({ read: 0, appended: 0 });
  });

  it("sums ahead: a live pi 1.5 row without its sum gets it from the child (nothing logged by the child), and the first context edit is carried from its bytes", async () => {
    const live = livePi15("live");
    const options = { explicitVersion: "1.5" as const };
    const catalogue = await SessionCatalogue.open(cache(), options);
    const warnings: string[] = [];
    const reader = childBulkReader(script, { warn: (m) => warnings.push(m) });
    await catalogue.list([live.path], undefined, reader);
    appendFileSync(live.path, live.user("again"));
    await catalogue.refresh(live.path, reader);
    const failedId = live.nextId();
    appendFileSync(live.path, live.answer("error"));
    await catalogue.refresh(live.path, reader);
    await catalogue.sumsSettled();
    expect(warnings).toEqual([]);
    expect(catalogue.stats).toMatchObject({ read: 1, appended: 2, sumsAsked: 1, sumsKept: 1 });
    appendFileSync(live.path, live.edit(failedId));
    const row = await catalogue.refresh(live.path, reader);
    expect(catalogue.stats).toMatchObject({ read: 1, appended: 3 });
    const scratch = await (await SessionCatalogue.open(cache(), options)).list([live.path]);
    expect(row).toEqual(scratch[0]);
    expect(row!.contextSource).toBe("estimate");
  });

  it("sums ahead: pi's context edit written right after the failed answer, while the child computes the sum, waits for it (no whole read here) and equals the row from scratch", async () => {
    const live = livePi15("in-flight", 2000);
    const options = { explicitVersion: "1.5" as const };
    const catalogue = await SessionCatalogue.open(cache(), options);
    const warnings: string[] = [];
    const reader = childBulkReader(script, { warn: (m) => warnings.push(m) });
    await catalogue.list([live.path], undefined, reader);
    const failedId = live.nextId();
    appendFileSync(live.path, live.answer("error"));
    const first = catalogue.refresh(live.path, reader);
    // Written before the child can have answered (nor, mostly, started): it reads the file with the edit in it.
    appendFileSync(live.path, live.edit(failedId));
    const edited = catalogue.refresh(live.path, reader);
    expect(catalogue.stats).toMatchObject({ read: 1, appended: 1, sumsAsked: 1, sumsAwaited: 1 });
    await first;
    const row = await edited;
    expect(warnings).toEqual([]);
    expect(catalogue.stats, "carried, not read").toMatchObject({ read: 1, appended: 2, sumsKept: 1 });
    const scratch = await (await SessionCatalogue.open(cache(), options)).list([live.path]);
    expect(row).toEqual(scratch[0]);
    expect(row!.contextSource).toBe("estimate");
  });

  it("sums ahead: a child that hangs leaves the waiting context edit to one read after its time limit, one warning", async () => {
    const live = livePi15("hung");
    const options = { explicitVersion: "1.5" as const };
    const catalogue = await SessionCatalogue.open(cache(), options);
    const warnings: string[] = [];
    const reader = childBulkReader(fakeChild("setInterval(() => {}, 1000);"), { idleMs: 300, warn: (m) => warnings.push(m) });
    await catalogue.list([live.path], undefined, reader);
    const failedId = live.nextId();
    appendFileSync(live.path, live.answer("error"));
    await catalogue.refresh(live.path, reader);
    appendFileSync(live.path, live.edit(failedId));
    const row = await catalogue.refresh(live.path, reader);
    expect(catalogue.stats).toMatchObject({ read: 2, appended: 1, sumsAsked: 1, sumsAwaited: 1, sumsKept: 0 });
    expect(warnings).toEqual([expect.stringMatching(/answered nothing for 0.3 s/)]);
    const scratch = await (await SessionCatalogue.open(cache(), options)).list([live.path]);
    expect(row).toEqual(scratch[0]);
  });

  it("small fills stay in-process", async () => {
    const catalogue = await SessionCatalogue.open(cache());
    await catalogue.list(files, undefined, childBulkReader(script));
    expect(catalogue.stats.readByChild).toBe(0);
  });

  it("a child that cannot start: every row read in-process, one warning", async () => {
    const expected = await inProcess();
    const catalogue = await SessionCatalogue.open(cache());
    const warnings: string[] = [];
    const rows = await catalogue.list(files, undefined, childBulkReader(join(dir, "missing.js"), { minFiles: 1, warn: (m) => warnings.push(m) }));
    expect(byPath(rows)).toEqual(expected);
    expect(catalogue.stats.readByChild).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/catalogue reader process stopped \(it exited \(code 1\).*; 41 sessions left to read\); sessions are read in this process, no sums ahead; tried again in 30 s/);
  });

  it("a child that keeps failing is not started during its back-off (fills in-process, no sums ahead, no line per request); one that works again after it is used again", async () => {
    const expected = await inProcess();
    let now = 0;
    const later = join(dir, `later${n++}.js`);
    const warnings: string[] = [];
    const reader = childBulkReader(later, { minFiles: 1, now: () => now, retryDelaysMs: [1000, 5000], warn: (m) => warnings.push(m) });
    const fill = async (): Promise<SessionCatalogue> => {
      const catalogue = await SessionCatalogue.open(cache());
      expect(byPath(await catalogue.list(files, undefined, reader))).toEqual(expected);
      return catalogue;
    };
    expect((await fill()).stats.readByChild).toBe(0);
    expect(warnings).toEqual([expect.stringMatching(/catalogue reader process stopped .*tried again in 1 s/)]);
    // During the back-off: not handed over, no sums asked of a child, nothing logged.
    expect(reader.wants([{ path: files[0]!, size: 1 }])).toBe(false);
    expect((await fill()).stats.readByChild).toBe(0);
    const answers = [];
    for await (const a of reader.sums!([{ path: files[0]!, size: statSync(files[0]!).size }], {})) answers.push(a);
    expect(answers).toEqual([]);
    expect(warnings).toHaveLength(1);
    now += 1000;
    expect((await fill()).stats.readByChild).toBe(0);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/tried again in 5 s/);
    writeFileSync(later, readFileSync(script));
    now += 4999;
    expect((await fill()).stats.readByChild, "still in its back-off").toBe(0);
    now += 1;
    expect((await fill()).stats.readByChild, "every file but the one gone").toBe(files.length - 1);
    expect(warnings).toHaveLength(3);
    expect(warnings[2]).toMatch(/catalogue reader process works again/);
  });

  it("a child that dies after some answers: those kept, the rest read in-process", async () => {
    const expected = await inProcess();
    const real = join(dir, "dies.js");
    // The real reader, killed after its fifth answer.
    writeFileSync(real, `let sent = 0; const send = process.send.bind(process); process.send = (m, ...rest) => { if (++sent > 5) process.exit(3); return send(m, ...rest); }; require(${JSON.stringify(script)});`);
    const catalogue = await SessionCatalogue.open(cache());
    const warnings: string[] = [];
    const rows = await catalogue.list(files, undefined, childBulkReader(real, { minFiles: 1, warn: (m) => warnings.push(m) }));
    expect(byPath(rows)).toEqual(expected);
    expect(catalogue.stats.readByChild).toBeGreaterThan(0);
    expect(catalogue.stats.readByChild).toBeLessThanOrEqual(5);
    expect(warnings.join("\n")).toMatch(/it exited \(code 3\)/);
  });

  it("a child that claims lines it did not write costs a read next time, never a wrong or lost row", async () => {
    const expected = await inProcess();
    const real = join(dir, "claims.js");
    // The real reader without the log, each record answer claiming a logged line.
    writeFileSync(real, `const send = process.send.bind(process); process.send = (m, ...rest) => send(m.kind === "record" ? { ...m, logged: 100 } : m, ...rest); const on = process.once.bind(process); process.once = (e, f) => on(e, e === "message" ? (m) => f({ ...m, log: undefined }) : f); require(${JSON.stringify(script)});`);
    const folder = cache();
    const catalogue = await SessionCatalogue.open(folder);
    expect(byPath(await catalogue.list(files, undefined, childBulkReader(real, { minFiles: 1 })))).toEqual(expected);
    expect(catalogue.stats.readByChild).toBe(41);
    await catalogue.save();
    let progress!: CatalogueProgress;
    expect(byPath(await (await SessionCatalogue.open(folder)).list(files, (p) => (progress = p)))).toEqual(expected);
    expect(progress).toMatchObject({ read: 41, cached: 0 });
  });

  it("answers that do not validate stop the child: a damaged row, a path it was not asked for", async () => {
    const expected = await inProcess();
    for (const body of [
      `process.send({ kind: "record", record: { path: m.paths[0], key: { size: 1, mtimeMs: 1, tailHash: "x", tailLength: 1 }, kind: "other" } });`,
      `process.send({ kind: "unreadable", path: "/etc/passwd" });`,
      `process.send("hello");`,
    ]) {
      const catalogue = await SessionCatalogue.open(cache());
      const warnings: string[] = [];
      const rows = await catalogue.list(files, undefined, childBulkReader(fakeChild(body + " setInterval(() => {}, 1000);"), { minFiles: 1, warn: (m) => warnings.push(m) }));
      expect(byPath(rows)).toEqual(expected);
      expect(catalogue.stats.readByChild).toBe(0);
      expect(warnings).toEqual([expect.stringMatching(/it sent an invalid answer/)]);
    }
  });

  it("a child that hangs is stopped after the idle time", async () => {
    const expected = await inProcess();
    const catalogue = await SessionCatalogue.open(cache());
    const warnings: string[] = [];
    const rows = await catalogue.list(files, undefined, childBulkReader(fakeChild("setInterval(() => {}, 1000);"), { minFiles: 1, idleMs: 300, warn: (m) => warnings.push(m) }));
    expect(byPath(rows)).toEqual(expected);
    expect(warnings).toEqual([expect.stringMatching(/answered nothing for 0.3 s/)]);
  });
});

/** A pi 1.5 session (its system message, `turns` questions answered with usage) written an hour ago, and the lines pi appends to it. */
function livePi15(name: string, turns = 20) {
  mkdirSync(join(dir, "sessions-pi15"), { recursive: true });
  const path = join(dir, "sessions-pi15", `${name}.jsonl`);
  const usage = { input: 900, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 910, cost: { total: 0.25 } };
  let parentId: string | null = null;
  let k = 0;
  const line = (body: Record<string, unknown>): string => {
    const id = `p${k++}`;
    const text = JSON.stringify({ ...body, id, parentId, timestamp: new Date(Date.UTC(2026, 0, 1) + k * 1000).toISOString() });
    parentId = id;
    return `${text}\n`;
  };
  const user = (t: string) => line({ type: "message", message: { role: "user", content: t, timestamp: 1 } });
  const answer = (stopReason: string) => line({ type: "message", message: { role: "assistant", content: stopReason === "error" ? [] : [{ type: "text", text: "fine" }], provider: "p", model: "m", usage, stopReason, timestamp: 2 } });
  let text = `${JSON.stringify({ type: "session", version: 3, id: name, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" })}\n`;
  text += line({ type: "message", message: { role: "system", content: "You are pi.", timestamp: 0 } });
  for (let i = 0; i < turns; i++) text += user(`question ${i}`) + answer("stop");
  writeFileSync(path, text);
  // Not live when listed (no sum asked by the listing): the appends ask.
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(path, hourAgo, hourAgo);
  return {
    path,
    user,
    answer,
    nextId: () => `p${k}`,
    edit: (targetId: string) => line({ type: "context_edit", targetId, replacement: null }),
  };
}
