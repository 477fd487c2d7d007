// pi 1.5.2's getCompactionSettings(model): modelOverrides by "provider/modelId",
// each field falling back on its own, layers merged recursively, and pi 1.5's
// errors for token values that are not non-negative safe integers.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidSettingError, resolveModelCompactionSettings } from "../../../src/core/settings/index.js";

const root = mkdtempSync(join(tmpdir(), "pi15-settings-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function dirs(global: unknown, project?: unknown): { agentDir: string; cwd: string } {
  const base = join(root, String(++n));
  const agentDir = join(base, "agent");
  const cwd = join(base, "project");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(global));
  if (project !== undefined) writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify(project));
  return { agentDir, cwd };
}
const MODEL = "anthropic/claude-sonnet-4-5";

describe("resolveModelCompactionSettings (pi 1.5.2)", () => {
  it("the model's override wins per field; the ordinary value, then the default, fill the rest", () => {
    const where = dirs({ compaction: { reserveTokens: 9000, modelOverrides: { [MODEL]: { keepRecentTokens: 3000 } } } });
    expect(resolveModelCompactionSettings(where, MODEL).settings).toEqual({ enabled: true, reserveTokens: 9000, keepRecentTokens: 3000 });
    expect(resolveModelCompactionSettings(where, "openai/gpt-5").settings).toEqual({ enabled: true, reserveTokens: 9000, keepRecentTokens: 20000 });
    expect(resolveModelCompactionSettings(where).settings.keepRecentTokens).toBe(20000);
  });

  it("enabled is pi 1.5's truthiness of the value as written (0 off, \"no\" on, null the default)", () => {
    expect(resolveModelCompactionSettings(dirs({ compaction: { enabled: 0 } }), MODEL).settings.enabled).toBe(false);
    expect(resolveModelCompactionSettings(dirs({ compaction: { enabled: "no" } }), MODEL).settings.enabled).toBe(true);
    expect(resolveModelCompactionSettings(dirs({ compaction: { enabled: null } }), MODEL).settings.enabled).toBe(true);
  });

  it("global and project overrides of one model merge (pi 1.5 merges settings recursively)", () => {
    const where = dirs(
      { compaction: { modelOverrides: { [MODEL]: { keepRecentTokens: 3000 } } } },
      { compaction: { modelOverrides: { [MODEL]: { reserveTokens: 5000 } } } },
    );
    expect(resolveModelCompactionSettings(where, MODEL).settings).toMatchObject({ reserveTokens: 5000, keepRecentTokens: 3000 });
  });

  it("explicit overrides (flags) win over the model's override", () => {
    const where = dirs({ compaction: { modelOverrides: { [MODEL]: { keepRecentTokens: 3000 } } } });
    const resolved = resolveModelCompactionSettings({ ...where, overrides: { compaction: { keepRecentTokens: 100 } } }, MODEL);
    expect(resolved.settings.keepRecentTokens).toBe(100);
  });

  it.each([
    [{ compaction: { keepRecentTokens: 1.5 } }, "Invalid compaction.keepRecentTokens setting: 1.5. Expected a non-negative safe integer."],
    [{ compaction: { reserveTokens: "8000" } }, "Invalid compaction.reserveTokens setting: 8000. Expected a non-negative safe integer."],
    [{ compaction: { reserveTokens: null } }, "Invalid compaction.reserveTokens setting: null. Expected a non-negative safe integer."],
    [{ compaction: { modelOverrides: { [MODEL]: 5 } } }, `Invalid compaction.modelOverrides["${MODEL}"] setting: 5. Expected an object.`],
    [{ compaction: { modelOverrides: { [MODEL]: { keepRecentTokens: -1 } } } }, `Invalid compaction.modelOverrides["${MODEL}"].keepRecentTokens setting: -1. Expected a non-negative safe integer.`],
  ])("%j throws pi 1.5's error, naming the file", (settings, message) => {
    const where = dirs(settings);
    let caught: unknown;
    try {
      resolveModelCompactionSettings(where, MODEL);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidSettingError);
    expect((caught as Error).message).toBe(message);
    expect((caught as InvalidSettingError).file).toBe(join(where.agentDir, "settings.json"));
  });
});
