// Where each agent's own files are, asked through the seam: a pi session reads
// pi's settings.json files with the caller's values over pi's; an omp session
// reads omp's config.yml files (omp's agent dir, omp's own by default) and
// never pi's files or pi's values; its model registry adds omp's models.yml.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { OMP_18, PI_0_73, PI_1_5, semanticsFor, type AgentConfigs } from "../../../src/core/agent";

const root = mkdtempSync(join(tmpdir(), "agent-configs-"));
const piDir = join(root, "pi-agent");
const ompDir = join(root, "omp-agent");
const cwd = join(root, "project");
mkdirSync(piDir, { recursive: true });
mkdirSync(ompDir, { recursive: true });
mkdirSync(cwd, { recursive: true });
writeFileSync(join(piDir, "settings.json"), JSON.stringify({ compaction: { reserveTokens: 1111, keepRecentTokens: 2222 } }));
writeFileSync(join(ompDir, "config.yml"), "compaction:\n  reserveTokens: 3333\n  keepRecentTokens: 4444\n");

const pi = [semanticsFor(PI_0_73), semanticsFor(PI_1_5)];
const omp = semanticsFor(OMP_18);

afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

describe("each agent's own dirs and settings, through the seam", () => {
  const configs: AgentConfigs = { pi: { agentDir: piDir, overrides: { compaction: { keepRecentTokens: 5555 } } }, omp: { agentDir: ompDir } };

  it("pi: its agent dir's settings.json under the caller's values; its registry is pi's alone", () => {
    for (const s of pi) {
      expect(s.agentDir(configs)).toBe(piDir);
      const settings = s.resolveCompactionSettings(s.settingsFrom(configs, cwd, true)).settings;
      expect([settings.reserveTokens, settings.keepRecentTokens]).toEqual([1111, 5555]);
      expect(s.modelDirs(configs)).toEqual({ agentDir: piDir });
    }
  });

  it("omp: its config.yml, never pi's settings.json nor pi's values; values given for omp go over its files", () => {
    expect(omp.agentDir(configs)).toBe(ompDir);
    const settings = omp.resolveCompactionSettings(omp.settingsFrom(configs, cwd, true)).settings;
    expect([settings.reserveTokens, settings.keepRecentTokens]).toEqual([3333, 4444]);
    const flagged = { ...configs, omp: { agentDir: ompDir, overrides: { compaction: { keepRecentTokens: 6666 } } } };
    expect(omp.resolveCompactionSettings(omp.settingsFrom(flagged, cwd, true)).settings.keepRecentTokens).toBe(6666);
    expect(omp.modelDirs(configs)).toEqual({ agentDir: piDir, ompAgentDir: ompDir });
  });

  it("omp without an agent dir given: omp's own, from the environment", () => {
    vi.stubEnv("OMP_PROFILE", "");
    vi.stubEnv("PI_PROFILE", "");
    vi.stubEnv("PI_CODING_AGENT_DIR", ompDir);
    const own = { pi: { agentDir: piDir } };
    expect(omp.agentDir(own)).toBe(ompDir);
    expect(omp.resolveCompactionSettings(omp.settingsFrom(own, cwd)).settings.reserveTokens).toBe(3333);
  });

  it("what is shown while pi 1.5 rejects the files: pi's files as pi 0.73 reads them; omp's defaults for omp", () => {
    const badDir = join(root, "pi-bad");
    mkdirSync(badDir, { recursive: true });
    writeFileSync(join(badDir, "settings.json"), JSON.stringify({ compaction: { reserveTokens: 1111, modelOverrides: { "a/b": { reserveTokens: -1 } } } }));
    const bad: AgentConfigs = { pi: { agentDir: badDir }, omp: { agentDir: ompDir } };
    const pi15 = semanticsFor(PI_1_5);
    const from = pi15.settingsFrom(bad, cwd, true);
    expect(() => pi15.resolveCompactionSettings(from, "a/b")).toThrow(/reserveTokens/);
    expect(pi15.fallbackCompactionSettings(from).reserveTokens).toBe(1111);
    expect(omp.fallbackCompactionSettings(omp.settingsFrom(bad, cwd, true)).reserveTokens).toBe(16384);
  });
});
