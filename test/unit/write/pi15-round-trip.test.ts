// Rename, labels and fork re-opened by pi 1.5.2 itself. pi 1.5 needs Node ≥ 22,
// so it runs in its own process (test/support/pi15-session.mjs), with the pi
// 1.5.2 oracle the test tooling installs (test/support/pi15; or
// PI_SESSIONS_PI15_MODULE / PI_SESSIONS_PI15_NODE). Skipped only where the
// pi 1.5 tests are opted out (never in CI); a failed install fails it.
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { forkSession, renameSession, setLabel } from "../../../src/core/write/index.js";
import { removeDir, tempDir } from "./support/sessions.js";

const provided = inject("pi15");
const install = "install" in provided ? provided.install : undefined;
if ("error" in provided && !process.env.PI_SESSIONS_PI15_MODULE) throw new Error(provided.error);
const MODULE = process.env.PI_SESSIONS_PI15_MODULE ?? (install ? join(install.dir, "package", "dist", "bundle", "index.js") : undefined);
const NODE = process.env.PI_SESSIONS_PI15_NODE ?? install?.node ?? process.execPath;
const FIXTURE = resolve("test/vscode/workspace/sessions/2026-01-12T14-00-00-000Z_7a1e5c3b-2d4f-4a6b-9c8d-1e2f3a4b5c6d.jsonl");
const dir = tempDir("pi-sessions-pi15-");
afterAll(() => removeDir(dir));

interface Pi15View {
  header: Record<string, unknown>;
  leafId: string | null;
  name: string | null;
  labels: Record<string, string>;
  context: unknown;
}

function pi15(...args: string[]): string {
  return execFileSync(NODE, [resolve("test/support/pi15-session.mjs"), ...args], { encoding: "utf8", env: { ...process.env, PI_SESSIONS_PI15_MODULE: MODULE } });
}
const open15 = (file: string, at?: string): Pi15View => JSON.parse(pi15("open", file, ...(at ? [at] : []))) as Pi15View;
const lines = (text: string): Record<string, unknown>[] => text.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
const withoutLabelIds = (entries: Record<string, unknown>[]) => entries.slice(1).map((e) => (e.type === "label" ? { ...e, id: "L", parentId: "P" } : e));

describe.skipIf(!MODULE)("pi 1.5.2 re-opens what rename, label and fork write", () => {
  it("the name (line breaks as spaces) and the labels", () => {
    const path = join(dir, "named.jsonl");
    copyFileSync(FIXTURE, path);
    renameSession({ session: openSessionSync(path), name: "one\r\ntwo" });
    setLabel({ session: openSessionSync(path), targetId: "u2000001", label: "mid" });
    setLabel({ session: openSessionSync(path), targetId: "a1000003", label: undefined });
    const view = open15(path);
    expect(view.name).toBe("one two");
    expect(view.labels).toEqual({ u2000001: "mid" });
  });

  it.each(["t2000001", "a1000003", "s3000001"])("a fork at %s equals pi 1.5.2's createBranchedSession (label ids aside) and has its context", (at) => {
    const path = join(dir, `fork-src-${at}.jsonl`);
    copyFileSync(FIXTURE, path);
    setLabel({ session: openSessionSync(path), targetId: "u2000001", label: "mid" });
    const fork = forkSession({ session: openSessionSync(path), atId: at, agentDir: dir, sessionDir: join(dir, "forks") });
    const mine = lines(readFileSync(fork.path, "utf8"));
    const theirs = lines(pi15("branch", path, at));
    expect(Object.keys(mine[0]!)).toEqual(Object.keys(theirs[0]!));
    expect(withoutLabelIds(mine)).toEqual(withoutLabelIds(theirs));
    expect(open15(fork.path).context).toEqual(open15(path, at).context);
  });
});
