// Choosing the summary model: explicit model, presets (file + extra), the
// default preset, "current", fallbacks with warnings; and the session model
// compared with pi's buildSessionContext (the oracle).

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildSessionContext } from "@mariozechner/pi-coding-agent";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { ModelConfigError } from "../../../src/core/summarize/model-config-error.js";
import { sessionModel } from "../../../src/core/context/session-model.js";
import { resolveSummaryModel } from "../../../src/core/summarize/summary-model.js";
import type { ResolveSummaryModelOptions } from "../../../src/core/summarize/summary-model.js";
import { LOOPBACK_ANTHROPIC, LOOPBACK_OPENAI, TEST_KEY, writeLoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import type { LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { startModelServer } from "../../support/model-server.js";
import type { ModelServer } from "../../support/model-server.js";

let seq = 0;
function entry(fields: Record<string, unknown>): SessionEntry {
  seq++;
  return { id: `e${seq}`, parentId: seq === 1 ? null : `e${seq - 1}`, timestamp: new Date(seq * 1000).toISOString(), ...fields } as unknown as SessionEntry;
}
function chain(...fields: Record<string, unknown>[]): SessionEntry[] {
  seq = 0;
  return fields.map(entry);
}
const user = (text: string) => ({ type: "message", message: { role: "user", content: text, timestamp: 1 } });
const assistant = (provider: string, model: string) => ({
  type: "message",
  message: { role: "assistant", content: [{ type: "text", text: "ok" }], provider, model, api: "x", stopReason: "stop", timestamp: 2 },
});
const modelChange = (provider: string, modelId: string) => ({ type: "model_change", provider, modelId });
const thinking = (thinkingLevel: string) => ({ type: "thinking_level_change", thinkingLevel });

describe("sessionModel equals pi's buildSessionContext model and thinking level", () => {
  const cases: [string, SessionEntry[]][] = [
    ["empty", chain()],
    ["only a user message", chain(user("hi"))],
    ["assistant only", chain(user("hi"), assistant("anthropic", "claude-a"))],
    ["model_change after the assistant wins", chain(user("hi"), assistant("anthropic", "claude-a"), modelChange("openai", "gpt-x"))],
    ["assistant after the model_change wins", chain(modelChange("openai", "gpt-x"), user("hi"), assistant("anthropic", "claude-a"))],
    ["thinking level changes, last wins", chain(thinking("high"), user("hi"), thinking("low"), assistant("a", "b"))],
  ];
  it.each(cases)("%s", (_name, entries) => {
    const pi = buildSessionContext(entries as never);
    const ours = sessionModel(entries);
    expect(ours.model).toEqual(pi.model);
    expect(ours.thinkingLevel).toBe(pi.thinkingLevel);
  });
});

let server: ModelServer;
let agent: LoopbackAgentDir;

beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY });
});
afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  vi.stubEnv("ANTHROPIC_API_KEY", "");
  vi.stubEnv("ANTHROPIC_OAUTH_TOKEN", "");
  agent = await writeLoopbackAgentDir(server, {
    files: {
      "pi-sessions.json": JSON.stringify({
        defaultPreset: "cheap",
        presets: {
          cheap: { model: `${LOOPBACK_OPENAI}/small-output` },
          deep: { model: `${LOOPBACK_ANTHROPIC}/reasoner`, thinkingLevel: "high" },
          "deep-fast": { model: `${LOOPBACK_ANTHROPIC}/summarizer` },
          gone: { model: "nowhere/nothing" },
          keyless: { model: "anthropic/claude-3-5-haiku-20241022" },
        },
      }),
    },
  });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await agent.cleanup();
});

const sessionPath = () => chain(user("hi"), thinking("medium"), assistant(LOOPBACK_OPENAI, "summarizer"));

function resolve(options: Omit<ResolveSummaryModelOptions, "agentDir">) {
  return resolveSummaryModel({ agentDir: agent.agentDir, pathEntries: sessionPath(), ...options });
}

async function rejection(options: Omit<ResolveSummaryModelOptions, "agentDir">): Promise<ModelConfigError> {
  const error = await resolve(options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelConfigError);
  return error as ModelConfigError;
}

describe("resolveSummaryModel", () => {
  it("an explicit model wins over presets and carries its key", async () => {
    const r = await resolve({ model: `${LOOPBACK_ANTHROPIC}/summarizer`, preset: "deep" });
    expect([r.label, r.source, r.apiKey, r.keySource, r.thinkingLevel]).toEqual([`${LOOPBACK_ANTHROPIC}/summarizer`, "model", TEST_KEY, "auth.json", undefined]);
  });

  it("an explicit preset gives its model and thinking level", async () => {
    const r = await resolve({ preset: "deep" });
    expect([r.label, r.source, r.presetName, r.thinkingLevel, r.warnings]).toEqual([`${LOOPBACK_ANTHROPIC}/reasoner`, "preset", "deep", "high", []]);
  });

  it("without model or preset: the file's default preset", async () => {
    const r = await resolve({});
    expect([r.label, r.source, r.presetName]).toEqual([`${LOOPBACK_OPENAI}/small-output`, "default-preset", "cheap"]);
  });

  it("the defaultPreset option and extra presets override the file", async () => {
    const r = await resolve({ defaultPreset: "mine", presets: { mine: { model: `${LOOPBACK_ANTHROPIC}/small-output`, thinkingLevel: "low" } } });
    expect([r.label, r.presetName, r.thinkingLevel]).toEqual([`${LOOPBACK_ANTHROPIC}/small-output`, "mine", "low"]);
  });

  it('"current" is the session model with the session thinking level', async () => {
    const r = await resolve({ preset: "current" });
    expect([r.label, r.source, r.presetName, r.thinkingLevel]).toEqual([`${LOOPBACK_OPENAI}/summarizer`, "session", "current", "medium"]);
  });

  it("a preset whose model does not exist falls back to the session model, with a warning", async () => {
    const r = await resolve({ preset: "gone" });
    expect([r.label, r.source]).toEqual([`${LOOPBACK_OPENAI}/summarizer`, "session"]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('Preset "gone"');
    expect(r.warnings[0]).toContain('Unknown model "nowhere/nothing"');
    expect(r.warnings[0]).toContain("Using the session model");
  });

  it("a preset whose model has no key falls back too", async () => {
    const r = await resolve({ preset: "keyless" });
    expect(r.source).toBe("session");
    expect(r.warnings[0]).toContain('No API key for provider "anthropic"');
  });

  it("an ambiguous explicit preset is an error listing the candidates", async () => {
    const error = await rejection({ preset: "de" });
    expect(error.code).toBe("ambiguous-preset");
    expect(error.message).toContain("deep, deep-fast");
  });

  it("an unknown explicit preset is an error; an unknown default preset only warns", async () => {
    expect((await rejection({ preset: "zzz" })).code).toBe("unknown-preset");
    const r = await resolve({ defaultPreset: "zzz" });
    expect(r.source).toBe("session");
    expect(r.warnings[0]).toContain('No default preset named "zzz"');
  });

  it("an unknown explicit model never falls back", async () => {
    expect((await rejection({ model: "nowhere/nothing" })).code).toBe("unknown-model");
  });

  it("no model anywhere: a clear error", async () => {
    const error = await resolveSummaryModel({ agentDir: agent.agentDir, pathEntries: chain(user("hi")), preset: "current" }).catch((e: unknown) => e);
    expect((error as ModelConfigError).code).toBe("no-session-model");
  });

  it("a session model that is not known: an error naming it", async () => {
    const error = await resolveSummaryModel({
      agentDir: agent.agentDir,
      pathEntries: chain(user("hi"), assistant("mystery", "m1")),
      preset: "current",
    }).catch((e: unknown) => e);
    expect((error as ModelConfigError).code).toBe("unknown-model");
    expect((error as ModelConfigError).message).toContain("mystery/m1");
  });

  it("a broken pi-sessions.json is an error, not a silent fallback", async () => {
    await writeFile(join(agent.agentDir, "pi-sessions.json"), "{ nope");
    const error = await rejection({});
    expect(error.code).toBe("invalid-json");
    expect(error.file).toBe(join(agent.agentDir, "pi-sessions.json"));
  });
});
