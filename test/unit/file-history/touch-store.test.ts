// The touch store: a session's touches from the store equal those of a full
// read of the file now, whatever happened to it since the last run (nothing,
// appends — analysed alone —, rewrites, truncation) and whatever happened to
// the store's own file (damage, another version).
import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initFilesTouched } from "../../../src/core/files-touched";
import { collectFileTouches } from "../../../src/core/file-history";
import { FileTouchStore } from "../../../src/core/file-history/touch-store";
import { touchStoreFile } from "../../../src/core/file-history/touch-store-file";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import type { SessionEntry } from "../../../src/core/session/format/types";
import { call, result, userBash } from "../files-touched/session-builder";

const CWD = "/work/repo";
let dir: string;
let n = 0;
beforeAll(async () => {
  await initFilesTouched();
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-touch-store-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fresh = (name: string) => join(dir, `${name}-${n++}`);
const header = (cwd = CWD) => `${JSON.stringify({ type: "session", version: 3, id: `s${n}`, timestamp: "2025-01-01T00:00:00.000Z", cwd })}\n`;
const lines = (entries: readonly SessionEntry[]) => entries.map((e) => `${JSON.stringify(e)}\n`).join("");
const fullRead = (path: string) => collectFileTouches(openSessionSync(path).entries(), { cwd: CWD });

const path = fc.constantFrom("a.ts", "src/b.ts", "/tmp/d.txt", "lib");
const callId = fc.constantFrom("c1", "c2", "c3", "c4");
const step: fc.Arbitrary<() => SessionEntry> = fc.oneof(
  fc.tuple(fc.constantFrom("read", "write", "edit"), path, callId).map(([name, p, id]) => () => call(name, { path: p, content: "z" }, id)),
  fc.tuple(path, path, callId).map(([a, b, id]) => () => call("bash", { command: `cat ${a} > ${b} && mv ${b} lib/` }, id)),
  fc.tuple(callId, fc.boolean()).map(([id, isError]) => () => result(id, isError)),
  path.map((p) => () => userBash(`rm -rf ${p}`)),
);
const batch = fc.array(step, { maxLength: 8 }).map((steps) => steps.map((make) => make()));

describe("file touch store", () => {
  it("answers an unchanged file from the store, also after a save and a new process", async () => {
    const folder = fresh("cache");
    const session = fresh("s.jsonl");
    writeFileSync(session, header() + lines([call("write", { path: "x.ts", content: "" }, "w"), result("w")]));
    const store = await FileTouchStore.open(folder);
    const first = store.touchesOf(session, "/");
    expect(store.lastAnswer).toBe("read");
    expect(first.map((t) => `${t.op} ${t.displayPath}`)).toEqual(["W x.ts"]);
    expect(store.touchesOf(session, "/")).toEqual(first);
    expect(store.lastAnswer).toBe("cached");
    await store.save();
    const again = await FileTouchStore.open(folder);
    expect(again.touchesOf(session, "/")).toEqual(first);
    expect(again.lastAnswer).toBe("cached");
  });

  it("appends, analysed alone, equal a full read (random batches, saved and reloaded between them)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 5 }), async (batches) => {
        const folder = fresh("cache");
        const session = fresh("s.jsonl");
        writeFileSync(session, header() + lines(batches[0]!));
        let store = await FileTouchStore.open(folder);
        expect(store.touchesOf(session, "/")).toEqual(fullRead(session));
        for (const more of batches.slice(1)) {
          if (more.length === 0) continue;
          appendFileSync(session, lines(more));
          expect(store.touchesOf(session, "/")).toEqual(fullRead(session));
          expect(store.lastAnswer).toBe("appended");
          await store.save();
          store = await FileTouchStore.open(folder);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("a rewrite, a truncation or a changed tail is read in full", async () => {
    const folder = fresh("cache");
    const session = fresh("s.jsonl");
    const start = [call("write", { path: "x.ts", content: "" }, "w"), result("w"), call("read", { path: "y.ts" }, "r"), result("r")];
    writeFileSync(session, header() + lines(start));
    const store = await FileTouchStore.open(folder);
    expect(store.touchesOf(session, "/").map((t) => t.op)).toEqual(["W", "R"]);
    // Truncated to the first two entries.
    const shorter = header() + lines(start.slice(0, 2));
    truncateSync(session, Buffer.byteLength(shorter));
    expect(store.touchesOf(session, "/")).toEqual(fullRead(session));
    expect(store.lastAnswer).toBe("read");
    expect(store.touchesOf(session, "/").map((t) => t.op)).toEqual(["W"]);
    // Rewritten longer, with the old bytes changed: not an append.
    writeFileSync(session, header() + lines([call("edit", { path: "z.ts" }, "e"), result("e"), userBash("rm x.ts")]));
    expect(store.touchesOf(session, "/")).toEqual(fullRead(session));
    expect(store.lastAnswer).toBe("read");
    // Same size, new mtime, other bytes.
    const text = readFileSync(session, "utf8");
    writeFileSync(session, text.replace("z.ts", "q.ts"));
    utimesSync(session, new Date(), new Date(Date.now() + 5000));
    expect(store.touchesOf(session, "/").map((t) => t.displayPath)).toContain("q.ts");
    expect(store.lastAnswer).toBe("read");
  });

  it("a damaged or foreign store file is rebuilt, never trusted", async () => {
    const session = fresh("s.jsonl");
    writeFileSync(session, header() + lines([call("write", { path: "x.ts", content: "" }, "w"), result("w")]));
    const folder = fresh("cache");
    const store = await FileTouchStore.open(folder);
    store.touchesOf(session, "/");
    await store.save();
    const good = JSON.parse(readFileSync(touchStoreFile(folder), "utf8"));
    const lie = structuredClone(good);
    lie.records[0].manifest.s[0][6] = ["a", [["X", "/evil"]]];
    const missing = structuredClone(good);
    missing.records[0].manifest.s[0].pop();
    const wrongVersion = { ...structuredClone(good), analysis: -1 };
    const badKey = structuredClone(good);
    badKey.records[0].key.tailHash = "not a hash";
    for (const damaged of ["{not json", JSON.stringify({ format: "other" }), JSON.stringify(lie), JSON.stringify(missing), JSON.stringify(wrongVersion), JSON.stringify(badKey), good.records ? readFileSync(touchStoreFile(folder), "utf8").slice(0, 40) : ""]) {
      writeFileSync(touchStoreFile(folder), damaged);
      const reopened = await FileTouchStore.open(folder);
      expect(reopened.touchesOf(session, "/")).toEqual(fullRead(session));
      expect(reopened.lastAnswer).toBe("read");
    }
    // The untouched file is trusted (the check above can fail).
    writeFileSync(touchStoreFile(folder), JSON.stringify(good));
    const reopened = await FileTouchStore.open(folder);
    reopened.touchesOf(session, "/");
    expect(reopened.lastAnswer).toBe("cached");
  });

  it("a v1 session (migrated in memory) is read in full after an append", async () => {
    const session = fresh("v1.jsonl");
    const v1 = (e: SessionEntry) => {
      const { id: _id, parentId: _p, ...rest } = e as SessionEntry & { parentId?: string | null };
      return `${JSON.stringify(rest)}\n`;
    };
    writeFileSync(session, `${JSON.stringify({ type: "session", id: "old", timestamp: "2025-01-01T00:00:00.000Z", cwd: CWD })}\n` + v1(call("write", { path: "x.ts", content: "" }, "w")));
    const store = await FileTouchStore.open(fresh("cache"));
    expect(store.touchesOf(session, "/")).toEqual(fullRead(session));
    expect(fullRead(session).map((t) => t.op)).toEqual(["W"]);
    appendFileSync(session, v1(result("w", true)));
    expect(store.touchesOf(session, "/")).toEqual(fullRead(session));
    expect(store.lastAnswer).toBe("read");
    expect(fullRead(session)).toEqual([]);
  });
});
