// Which pi's semantics a session gets: explicit choice, then the session's 1.x
// markers (read from the index; only compaction bodies are parsed), then the
// installed pi, then 0.73.

import { describe, expect, it } from "vitest";
import { choosePiVersion, parsePiVersion, sessionPi1xMarker } from "../../../src/core/agent/index.js";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSessionSync, refreshSession, sessionFromBytes } from "../../../src/core/session/open/open-session.js";

const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp" };
const bytes = (...lines: unknown[]) => new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
const entry = (id: string, parentId: string | null, body: Record<string, unknown>) => ({ id, parentId, timestamp: "2026-01-01T00:00:01.000Z", ...body });
const user = (id: string, parentId: string | null) => entry(id, parentId, { type: "message", message: { role: "user", content: "hi", timestamp: 1 } });
const noPi = () => undefined;

describe("parsePiVersion", () => {
  it("any 0.x is 0.73, any 1.x is 1.5, anything else undefined", () => {
    expect(["0.73", "0.73.1", "0.70.0", "1", "1.5", "1.5.2", "1.6.0-beta.1"].map(parsePiVersion)).toEqual(["0.73", "0.73", "0.73", "1.5", "1.5", "1.5", "1.5"]);
    expect(["2.0", "", "latest", "1.5.x.y"].map(parsePiVersion)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe("1.x markers", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["system message", { type: "message", message: { role: "system", content: "", timestamp: 1 } }],
    ["context_edit entry", { type: "context_edit", targetId: "u1", replacement: null }],
    ["usage entry", { type: "usage", kind: "cache_warm", provider: "p", model: "m", usage: {} }],
    ["compaction with a systemMessage", { type: "compaction", summary: "S", firstKeptEntryId: "u1", tokensBefore: 1, systemMessage: { role: "system", content: "", timestamp: 1 } }],
  ];
  for (const [what, body] of cases) {
    it(`a ${what} makes the session 1.5`, () => {
      const session = sessionFromBytes(bytes(header, user("u1", null), entry("x", "u1", body)));
      expect(sessionPi1xMarker(session)).toEqual({ entryId: "x", line: 3, what });
      expect(choosePiVersion({ session, findPi: noPi })).toMatchObject({ version: "1.5", source: "session" });
    });
  }

  it("a 0.73 compaction (no systemMessage), unknown types and roles are no marker", () => {
    const session = sessionFromBytes(
      bytes(header, user("u1", null), entry("c", "u1", { type: "compaction", summary: "S", firstKeptEntryId: "u1", tokensBefore: 1 }), entry("f", "c", { type: "future" })),
    );
    expect(sessionPi1xMarker(session)).toBeUndefined();
    expect(choosePiVersion({ session, findPi: noPi })).toMatchObject({ version: "0.73", source: "default" });
  });

  it("a live session: entries pi appends later are scanned, and a marker among them is found", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-markers-"));
    try {
      const file = join(dir, "s.jsonl");
      writeFileSync(file, bytes(header, user("u1", null)));
      const session = openSessionSync(file);
      expect(sessionPi1xMarker(session)).toBeUndefined();
      appendFileSync(file, bytes(entry("e", "u1", { type: "context_edit", targetId: "u1", replacement: null })));
      const refreshed = (await refreshSession(session)).session;
      expect(refreshed.index.size).toBe(2);
      expect(sessionPi1xMarker(refreshed)?.entryId).toBe("e");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("choosePiVersion order", () => {
  const marked = sessionFromBytes(bytes(header, entry("s1", null, { type: "message", message: { role: "system", content: "", timestamp: 1 } })));
  const plain = sessionFromBytes(bytes(header, user("u1", null)));
  const pi15 = () => ({ version: "1.5" as const, packageVersion: "1.5.2", packageName: "@earendil-works/pi-coding-agent", command: "/bin/pi" });

  it("explicit beats markers; markers beat the installed pi; a setting naming the installed pi beats PATH", () => {
    expect(choosePiVersion({ explicit: "0.73", session: marked, findPi: pi15 })).toMatchObject({ version: "0.73", source: "explicit" });
    expect(choosePiVersion({ session: marked, installed: "0.73", findPi: noPi })).toMatchObject({ version: "1.5", source: "session" });
    expect(choosePiVersion({ session: plain, installed: "0.73", findPi: pi15 })).toMatchObject({ version: "0.73", source: "installed-setting" });
    expect(choosePiVersion({ session: plain, findPi: pi15 })).toMatchObject({ version: "1.5", source: "installed-pi" });
    expect(choosePiVersion({ session: plain, findPi: noPi })).toMatchObject({ version: "0.73", source: "default" });
  });
});

describe("findInstalledPi (never runs pi)", () => {
  it("a shim beside node_modules (npm on Windows) names its package; a foreign first `pi` on PATH decides nothing", async () => {
    const { findInstalledPi } = await import("../../../src/core/agent/index.js");
    const { mkdirSync } = await import("node:fs");
    const dir = mkdtempSync(join(tmpdir(), "pi-shim-"));
    try {
      const bin = join(dir, "bin");
      mkdirSync(join(bin, "node_modules/@earendil-works/pi-coding-agent"), { recursive: true });
      writeFileSync(join(bin, "node_modules/@earendil-works/pi-coding-agent/package.json"), JSON.stringify({ name: "@earendil-works/pi-coding-agent", version: "1.5.2" }));
      writeFileSync(join(bin, "pi"), "exit 99\n");
      expect(findInstalledPi({ PATH: bin })).toMatchObject({ version: "1.5", packageVersion: "1.5.2", command: join(bin, "pi") });
      const foreign = join(dir, "foreign");
      mkdirSync(foreign);
      writeFileSync(join(foreign, "pi"), "exit 99\n");
      expect(findInstalledPi({ PATH: `${foreign}:${bin}` })).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
