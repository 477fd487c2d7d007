// Settings layers against pi's own SettingsManager (same files on disk, in a
// temp dir), plus what pi does not do: diagnostics for broken files, sources,
// untrusted workspaces.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SettingsManager } from "@mariozechner/pi-coding-agent";
import {
  resolveBranchSummarySettings,
  resolveCompactionSettings,
} from "../../../src/core/settings/resolve-settings.js";
import { loadSettings } from "../../../src/core/settings/load-settings.js";

let root: string;
let agentDir: string;
let cwd: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pi-sessions-settings-"));
  agentDir = join(root, "agent");
  cwd = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(cwd, ".pi"), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(globalText: string | undefined, projectText: string | undefined): void {
  if (globalText !== undefined) writeFileSync(join(agentDir, "settings.json"), globalText);
  if (projectText !== undefined) writeFileSync(join(cwd, ".pi", "settings.json"), projectText);
}

const j = (value: unknown) => JSON.stringify(value);

/** [name, global file, project file]; undefined = no file. All values well-typed, so pi and we must agree. */
const MATRIX: [string, string | undefined, string | undefined][] = [
  ["no files", undefined, undefined],
  ["empty files", "", ""],
  ["global only", j({ compaction: { reserveTokens: 9000 } }), undefined],
  ["project wins per key", j({ compaction: { reserveTokens: 9000, keepRecentTokens: 1000 } }), j({ compaction: { keepRecentTokens: 5000 } })],
  ["project disables", j({ compaction: { enabled: true } }), j({ compaction: { enabled: false } })],
  ["null resets to the default", j({ compaction: { reserveTokens: 9000 } }), j({ compaction: { reserveTokens: null } })],
  ["project section not an object replaces global's", j({ compaction: { reserveTokens: 9000 } }), j({ compaction: 5 })],
  ["project section as an array", j({ compaction: { keepRecentTokens: 7 } }), j({ compaction: [1] })],
  ["global section not an object, project object", j({ compaction: "x" }), j({ compaction: { keepRecentTokens: 42 } })],
  ["broken global JSON", "{ compaction: ", j({ compaction: { keepRecentTokens: 3 } })],
  ["broken project JSON", j({ compaction: { reserveTokens: 1234 } }), '{"compaction": {"reserveTokens": 1,}}'],
  ["global is an array", "[1,2]", undefined],
  ["global is null", "null", j({ branchSummary: { reserveTokens: 2048 } })],
  ["branch summary settings", j({ branchSummary: { reserveTokens: 4096, skipPrompt: true } }), j({ branchSummary: { skipPrompt: false } })],
  ["other keys untouched", j({ theme: "dark", compaction: { enabled: false } }), j({ defaultModel: "x" })],
  ["whitespace-only file", "  \n", undefined],
];

describe("resolved settings equal pi's SettingsManager", () => {
  it.each(MATRIX)("%s", (_name, globalText, projectText) => {
    write(globalText, projectText);
    const pi = SettingsManager.create(cwd, agentDir);
    expect(resolveCompactionSettings({ agentDir, cwd }).settings).toEqual(pi.getCompactionSettings());
    expect(resolveBranchSummarySettings({ agentDir, cwd }).settings).toEqual(pi.getBranchSummarySettings());
  });

  it.each([
    [{ compaction: { keepRecentTokens: 777 } }],
    [{ compaction: { enabled: false }, branchSummary: { reserveTokens: 1 } }],
    [{ compaction: 3 }],
  ])("with overrides applied last: %j", (overrides) => {
    write(j({ compaction: { reserveTokens: 9000, keepRecentTokens: 10 } }), j({ compaction: { keepRecentTokens: 20 } }));
    const pi = SettingsManager.create(cwd, agentDir);
    pi.applyOverrides(overrides as never);
    expect(resolveCompactionSettings({ agentDir, cwd, overrides }).settings).toEqual(pi.getCompactionSettings());
    expect(resolveBranchSummarySettings({ agentDir, cwd, overrides }).settings).toEqual(pi.getBranchSummarySettings());
  });
});

describe("diagnostics and sources", () => {
  it("reports a broken settings file by name and line, ignores it and keeps the other layer", () => {
    write(j({ compaction: { reserveTokens: 1234 } }), '{\n  "compaction": {\n    "keepRecentTokens": 1,\n  }\n}');
    const resolved = resolveCompactionSettings({ agentDir, cwd });
    expect(resolved.settings).toEqual({ enabled: true, reserveTokens: 1234, keepRecentTokens: 20000 });
    const projectFile = join(cwd, ".pi", "settings.json");
    expect(resolved.diagnostics).toHaveLength(1);
    expect(resolved.diagnostics[0]).toMatchObject({ severity: "warning", code: "invalid-settings", file: projectFile, line: 4 });
    expect(resolved.diagnostics[0]!.message).toContain(projectFile);
  });

  it("says where each value came from", () => {
    write(j({ compaction: { reserveTokens: 9000, keepRecentTokens: 1 } }), j({ compaction: { keepRecentTokens: 2 } }));
    const resolved = resolveCompactionSettings({ agentDir, cwd, overrides: { compaction: { enabled: false, reserveTokens: undefined } } });
    expect(resolved.settings).toEqual({ enabled: false, reserveTokens: 9000, keepRecentTokens: 2 });
    expect(resolved.sources).toEqual({
      enabled: { scope: "override" },
      reserveTokens: { scope: "global", file: join(agentDir, "settings.json") },
      keepRecentTokens: { scope: "project", file: join(cwd, ".pi", "settings.json") },
    });
  });

  it("loses the global value, and names the default, when the project replaces the whole section", () => {
    write(j({ compaction: { reserveTokens: 9000 } }), j({ compaction: "off" }));
    const resolved = resolveCompactionSettings({ agentDir, cwd });
    expect(resolved.settings.reserveTokens).toBe(16384);
    expect(resolved.sources.reserveTokens).toEqual({ scope: "default" });
  });

  it("skips the project file of an untrusted workspace", () => {
    write(j({ compaction: { keepRecentTokens: 1 } }), j({ compaction: { keepRecentTokens: 2 } }));
    const resolved = resolveCompactionSettings({ agentDir, cwd, trustProject: false });
    expect(resolved.settings.keepRecentTokens).toBe(1);
    expect(loadSettings({ agentDir, cwd, trustProject: false }).layers.map((l) => l.scope)).toEqual(["global"]);
  });

  it("uses the default for a value of the wrong type and says so (pi would use the junk value)", () => {
    write(j({ compaction: { reserveTokens: "big", enabled: "no" } }), undefined);
    const resolved = resolveCompactionSettings({ agentDir, cwd });
    expect(resolved.settings).toEqual({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 });
    expect(resolved.diagnostics.map((d) => d.code)).toEqual(["bad-field", "bad-field"]);
    expect(resolved.diagnostics.every((d) => d.file === join(agentDir, "settings.json"))).toBe(true);
  });

  it("never throws when a settings path is a directory", () => {
    mkdirSync(join(agentDir, "settings.json"));
    const resolved = resolveCompactionSettings({ agentDir, cwd });
    expect(resolved.settings).toEqual({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 });
    expect(resolved.diagnostics[0]).toMatchObject({ code: "invalid-settings", file: join(agentDir, "settings.json") });
  });
});
