// `pi-sessions pi-extension install|uninstall|status`: the extension's path in
// pi's global (<agent-dir>/settings.json) or project (.pi/settings.json)
// "extensions", every other setting kept; a settings file pi could not read is
// refused (exit 3) and left byte for byte. (That pi then loads what install
// listed is proven by test/unit/pi-extension/pi-cli.test.ts, whose agent folder
// is set up by the same installExtension.)

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "./run-cli.js";

const root = mkdtempSync(join(tmpdir(), "pi-ext-setup-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function setup(name: string): { agentDir: string; cwd: string; ext: string; args: string[] } {
  const base = join(root, name);
  const agentDir = join(base, "agent");
  const cwd = join(base, "project");
  const dist = join(base, "pi-sessions", "dist");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  mkdirSync(dist, { recursive: true });
  const ext = join(dist, "pi-extension.js");
  writeFileSync(ext, "module.exports = () => {};\n");
  writeFileSync(join(dist, "pi-extension-main.js"), "");
  return { agentDir, cwd, ext, args: ["--agent-dir", agentDir, "--path", ext] };
}

const settingsOf = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

describe("pi-sessions pi-extension", () => {
  it("install (global) lists it beside the user's other extensions and settings; status says active; install again changes nothing", async () => {
    const s = setup("global");
    const settings = join(s.agentDir, "settings.json");
    writeFileSync(settings, JSON.stringify({ theme: "dark", extensions: ["/opt/other-ext.js"] }));
    const before = await cli(["pi-extension", "status", ...s.args, "--json"], { cwd: s.cwd });
    expect(before.json()).toMatchObject({ active: false, global: { entries: [] } });

    const run = await cli(["pi-extension", "install", ...s.args, "--json"], { cwd: s.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ changed: true, settingsFile: settings, status: { active: true } });
    expect(settingsOf(settings)).toEqual({ theme: "dark", extensions: ["/opt/other-ext.js", s.ext] });

    const again = await cli(["pi-extension", "install", ...s.args, "--json"], { cwd: s.cwd });
    expect(again.json()).toMatchObject({ changed: false });
    const status = await cli(["pi-extension", "status", ...s.args], { cwd: s.cwd });
    expect(status.stdout).toContain("active: pi loads the pi-sessions extension");
    expect(status.stdout).toContain(`global: listed in ${settings}`);
  });

  it("install --project writes the project's .pi/settings.json; an older path of ours is replaced, not doubled", async () => {
    const s = setup("project");
    const projectSettings = join(s.cwd, ".pi", "settings.json");
    mkdirSync(join(s.cwd, ".pi"));
    writeFileSync(projectSettings, JSON.stringify({ extensions: ["/old/pi-sessions-0.0.9/dist/pi-extension.js"] }));
    const run = await cli(["pi-extension", "install", "--project", ...s.args, "--json"], { cwd: s.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(settingsOf(projectSettings)).toEqual({ extensions: [s.ext] });
    expect((await cli(["pi-extension", "status", ...s.args, "--json"], { cwd: s.cwd })).json()).toMatchObject({ active: true, project: { entries: [s.ext] }, global: { entries: [] } });
  });

  it("uninstall removes ours from both scopes and keeps the rest; status says not active", async () => {
    const s = setup("uninstall");
    await cli(["pi-extension", "install", ...s.args], { cwd: s.cwd });
    await cli(["pi-extension", "install", "--project", ...s.args], { cwd: s.cwd });
    const settings = join(s.agentDir, "settings.json");
    writeFileSync(settings, JSON.stringify({ ...settingsOf(settings), extensions: ["/opt/keep.js", s.ext] }));
    const run = await cli(["pi-extension", "uninstall", ...s.args, "--json"], { cwd: s.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ changed: true, status: { active: false } });
    expect(settingsOf(settings)).toEqual({ extensions: ["/opt/keep.js"] });
    expect(settingsOf(join(s.cwd, ".pi", "settings.json"))).toEqual({});
  });

  it("a settings file that is not JSON is refused (exit 3) and left as it was", async () => {
    const s = setup("broken");
    const settings = join(s.agentDir, "settings.json");
    writeFileSync(settings, '{ "theme": "dark", ');
    const run = await cli(["pi-extension", "install", ...s.args], { cwd: s.cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^error: .*settings\.json is not valid JSON/);
    expect(readFileSync(settings, "utf8")).toBe('{ "theme": "dark", ');
  });

  it("bad usage and a missing extension file: exit 1 with one error line", async () => {
    const s = setup("usage");
    expect((await cli(["pi-extension", "enable", ...s.args], { cwd: s.cwd })).code).toBe(1);
    expect((await cli(["pi-extension", "install", "--project", "--global", ...s.args], { cwd: s.cwd })).code).toBe(1);
    const missing = await cli(["pi-extension", "install", "--agent-dir", s.agentDir, "--path", join(root, "nope.js")], { cwd: s.cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*nope\.js: no such file/);
  });
});
