// Preset lookup (grounded-compaction's order: exact, case-insensitive,
// prefix, normalised substring; "current" = the session model) and the
// pi-sessions.json file. Expected results are worked out by hand from the table.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelConfigError } from "../../../src/core/summarize/model-config-error.js";
import { checkPresets, readPiSessionsConfig } from "../../../src/core/summarize/pi-sessions-config.js";
import type { PresetTable } from "../../../src/core/summarize/pi-sessions-config.js";
import { lookupPreset, mergePresets } from "../../../src/core/summarize/presets.js";

const PRESETS: PresetTable = {
  fast: { model: "openai/gpt-4o-mini", thinkingLevel: "low" },
  Deep: { model: "anthropic/claude-opus-4-1" },
  "deep-think": { model: "anthropic/claude-opus-4-1", thinkingLevel: "high" },
  "large-context": { model: "google/gemini-2.5-pro" },
  "large-cheap": { model: "google/gemini-2.5-flash" },
};

describe("lookupPreset", () => {
  it.each([
    ["fast", "fast", "exact"],
    ["FAST", "fast", "case-insensitive"],
    ["deep", "Deep", "case-insensitive"],
    ["Deep", "Deep", "exact"],
    ["deep-t", "deep-think", "prefix"],
    ["  fast ", "fast", "exact"],
    ["context", "large-context", "substring"],
    ["LARGE_CHEAP", "large-cheap", "substring"],
    ["deepthink", "deep-think", "substring"],
  ])("%j finds %s by %s", (query, name, matchedBy) => {
    expect(lookupPreset(PRESETS, query)).toEqual({ kind: "found", name, preset: PRESETS[name], matchedBy });
  });

  it("reports an ambiguous step with its candidates", () => {
    expect(lookupPreset(PRESETS, "large")).toEqual({ kind: "ambiguous", candidates: ["large-cheap", "large-context"] });
    expect(lookupPreset(PRESETS, "dee")).toEqual({ kind: "ambiguous", candidates: ["Deep", "deep-think"] });
  });

  it('"current" in any case is the session model, even when a preset is named so', () => {
    expect(lookupPreset(PRESETS, "current")).toEqual({ kind: "current" });
    expect(lookupPreset({ ...PRESETS, current: { model: "x/y" } }, "Current")).toEqual({ kind: "current" });
  });

  it("an unknown name lists what exists", () => {
    expect(lookupPreset(PRESETS, "nope")).toEqual({ kind: "unknown", available: ["Deep", "deep-think", "fast", "large-cheap", "large-context"] });
    expect(lookupPreset(PRESETS, "")).toEqual({ kind: "unknown", available: ["Deep", "deep-think", "fast", "large-cheap", "large-context"] });
  });

  it("extra presets (VS Code settings) win over the file's by name", () => {
    const merged = mergePresets(PRESETS, { fast: { model: "groq/llama" }, extra: { model: "a/b" } });
    expect(merged.fast).toEqual({ model: "groq/llama" });
    expect(merged.extra).toEqual({ model: "a/b" });
    expect(merged.Deep).toEqual(PRESETS.Deep);
  });
});

describe("pi-sessions.json", () => {
  let agentDir: string;
  beforeEach(async () => {
    agentDir = await mkdtemp(join(tmpdir(), "pi-sessions-config-"));
  });
  afterEach(async () => {
    await rm(agentDir, { recursive: true, force: true });
  });

  it("is optional", async () => {
    expect(await readPiSessionsConfig(agentDir)).toEqual({ file: join(agentDir, "pi-sessions.json"), exists: false, presets: {} });
  });

  it("reads presets, the default preset and prompt files (relative to the agent dir)", async () => {
    await writeFile(
      join(agentDir, "pi-sessions.json"),
      `{
        // comments are fine
        "presets": { "fast": { "model": "openai/gpt-4o-mini", "thinkingLevel": "low" }, },
        "defaultPreset": "fast",
        "compactionPromptFile": "prompts/compaction.md",
        "branchSummaryPromptFile": "/abs/branch.md",
      }`,
    );
    expect(await readPiSessionsConfig(agentDir)).toEqual({
      file: join(agentDir, "pi-sessions.json"),
      exists: true,
      presets: { fast: { model: "openai/gpt-4o-mini", thinkingLevel: "low" } },
      defaultPreset: "fast",
      compactionPromptFile: join(agentDir, "prompts/compaction.md"),
      branchSummaryPromptFile: "/abs/branch.md",
    });
  });

  it.each([
    [`{"presets": {"a": {"thinkingLevel": "low"}}}`, `preset "a" needs "model"`],
    [`{"presets": {"a": {"model": "x/y", "thinkingLevel": "max"}}}`, `"thinkingLevel" must be one of off, minimal, low, medium, high, xhigh`],
    [`{"presets": []}`, `"presets" must be an object`],
    [`{"defaultPreset": 3}`, `"defaultPreset" must be a preset name`],
  ])("rejects %s", async (content, expected) => {
    await writeFile(join(agentDir, "pi-sessions.json"), content);
    const error = await readPiSessionsConfig(agentDir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as ModelConfigError).message).toContain(expected);
    expect((error as ModelConfigError).message).toContain(join(agentDir, "pi-sessions.json"));
  });

  it("broken JSON names the file and position", async () => {
    await writeFile(join(agentDir, "pi-sessions.json"), `{\n  "presets": {\n}`);
    const error = (await readPiSessionsConfig(agentDir).catch((e: unknown) => e)) as ModelConfigError;
    expect(error.code).toBe("invalid-json");
    expect(error.message).toContain(`${join(agentDir, "pi-sessions.json")}:3:2`);
  });

  it("checkPresets names the source for VS Code settings", () => {
    expect(() => checkPresets({ a: "x" }, "settings piSessions.presets")).toThrow(/settings piSessions\.presets: preset "a" must be an object/);
  });
});
