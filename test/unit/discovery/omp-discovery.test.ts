// Discovery of omp sessions against omp 18.3.4's own code: a home folder laid
// out as omp lays it out (agent dir overrides, profiles, XDG; home, tmp and
// elsewhere cwds; symlinked cwds; legacy folders), and what /resume lists.

import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentRoot, defaultAgentRoots, rootOfFile } from "../../../src/core/discovery/agent-roots.js";
import { ompAgentDir, ompBlobsDir, ompSessionsRoot } from "../../../src/core/agent/omp-18/omp-dirs.js";
import { ompDisplayName, ompListedFiles, ompListedFilesIn, readOmpListing } from "../../../src/core/discovery/omp-listing.js";
import { ompSessionDirForCwd, ompSessionDirsForCwd } from "../../../src/core/discovery/omp-session-folder.js";
import { ompDiscovery } from "../../support/omp/discovery-oracle.js";
import { fastTempDir, ompSkipReason } from "../../support/omp/oracle.js";
import { titleSlotLine } from "../../support/omp/title-slot-line.js";

const skip = ompSkipReason();
const suite = skip ? describe.skip : describe;

let base: string;
let home: string;
let tmp: string;
let elsewhere: string;
beforeAll(() => {
  base = fastTempDir("omp-discovery-");
  home = join(base, "home");
  tmp = join(base, "tmp");
  elsewhere = join(base, "srv");
  for (const dir of [home, tmp, elsewhere, join(home, "code", "proj"), join(tmp, "scratch", "x"), join(elsewhere, "app:v2", "src")]) mkdirSync(dir, { recursive: true });
  symlinkSync(join(elsewhere, "app:v2", "src"), join(home, "linked"));
  symlinkSync(join(home, "code", "proj"), join(elsewhere, "to-home-proj"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const header = (id: string, cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-11-20T10:00:00.000Z", cwd, ...extra });
const user = (id: string, parentId: string | null, text: unknown) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-11-20T10:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } });

suite(`omp's agent dir, sessions root and blob store${skip ? ` (skipped: ${skip})` : ""}`, () => {
  const cases: [string, (b: string) => Record<string, string>][] = [
    ["the defaults", () => ({})],
    ["PI_CONFIG_DIR", () => ({ PI_CONFIG_DIR: ".omp-alt" })],
    ["PI_CODING_AGENT_DIR", (b) => ({ PI_CODING_AGENT_DIR: join(b, "custom-agent") })],
    ["OMP_PROFILE (PI_CODING_AGENT_DIR ignored)", (b) => ({ OMP_PROFILE: "work", PI_CODING_AGENT_DIR: join(b, "custom-agent") })],
    ["PI_PROFILE", () => ({ PI_PROFILE: "alt" })],
    ["an empty OMP_PROFILE hides PI_PROFILE", () => ({ OMP_PROFILE: "", PI_PROFILE: "alt" })],
    ["OMP_PROFILE=default", () => ({ OMP_PROFILE: "default" })],
    ["an invalid profile name", () => ({ OMP_PROFILE: "Bad Name" })],
    ["XDG_DATA_HOME with an omp folder", (b) => ({ XDG_DATA_HOME: join(b, "xdg-with") })],
    ["XDG_DATA_HOME without an omp folder", (b) => ({ XDG_DATA_HOME: join(b, "xdg-without") })],
    ["XDG_DATA_HOME with PI_CODING_AGENT_DIR", (b) => ({ XDG_DATA_HOME: join(b, "xdg-with"), PI_CODING_AGENT_DIR: join(b, "custom-agent") })],
    ["XDG_DATA_HOME with a profile folder", (b) => ({ XDG_DATA_HOME: join(b, "xdg-with"), OMP_PROFILE: "work" })],
    ["XDG_DATA_HOME without the profile's folder", (b) => ({ XDG_DATA_HOME: join(b, "xdg-with"), OMP_PROFILE: "other" })],
  ];
  beforeAll(() => {
    mkdirSync(join(base, "xdg-with", "omp", "profiles", "work"), { recursive: true });
    mkdirSync(join(base, "xdg-without"), { recursive: true });
  });

  it.each(cases)("%s: ours = omp's", async (_name, envOf) => {
    const env = { HOME: home, TMPDIR: tmp, ...envOf(base) };
    const omp = await ompDiscovery(env);
    const agentDir = ompAgentDir({ env, home });
    expect(agentDir).toBe(omp.agentDir);
    expect(ompSessionsRoot(agentDir, { env, home })).toBe(omp.sessionsDir);
    expect(ompBlobsDir(agentDir, { env, home })).toBe(omp.blobsDir);
    expect(agentRoot("omp", undefined, { env, home }).sessionsRoot).toBe(omp.sessionsDir);
  });
});

suite(`omp's folder for a cwd${skip ? ` (skipped: ${skip})` : ""}`, () => {
  it("home, tmp and elsewhere cwds, the home and temp roots themselves, symlinked cwds, a missing cwd: ours = omp's", async () => {
    const cwds = [
      home,
      join(home, "code", "proj"),
      join(home, "code", "proj", "missing", "deeper"),
      tmp,
      join(tmp, "scratch", "x"),
      join(elsewhere, "app:v2", "src"),
      join(home, "linked"),
      join(elsewhere, "to-home-proj"),
      "/nonexistent/a:b/c",
    ];
    const env = { HOME: home, TMPDIR: tmp };
    const ours = cwds.map((cwd) => ompSessionDirForCwd(cwd, ompSessionsRoot(ompAgentDir({ env, home }), { env, home }), { home, tmpdir: tmp }));
    const omp = await ompDiscovery(env, { cwds });
    expect(ours).toEqual(cwds.map((cwd) => omp.folders[cwd]));
    // The names themselves (spec §1.2), so a change on both sides is seen.
    expect(ours.map((p) => p.slice(p.lastIndexOf("/") + 1))).toEqual([
      "-",
      "-code-proj",
      "-code-proj-missing-deeper",
      "-tmp",
      "-tmp-scratch-x",
      `--${join(elsewhere, "app:v2", "src").slice(1).replace(/[/:]/g, "-")}--`,
      `--${join(elsewhere, "app:v2", "src").slice(1).replace(/[/:]/g, "-")}--`,
      "-code-proj",
      "--nonexistent-a-b-c--",
    ]);
  });

  it("a cwd's sessions are also found in the pi-style folders omp renames on its next run", async () => {
    const h2 = join(base, "legacy-home");
    const proj = join(h2, "p");
    mkdirSync(proj, { recursive: true });
    const env = { HOME: h2, TMPDIR: tmp };
    const root = ompSessionsRoot(ompAgentDir({ env, home: h2 }), { env, home: h2 });
    const [own, ...legacy] = ompSessionDirsForCwd(proj, root, { home: h2, tmpdir: tmp });
    expect(legacy.length).toBeGreaterThan(0);
    const piStyle = legacy[0]!;
    mkdirSync(piStyle, { recursive: true });
    writeFileSync(join(piStyle, "a.jsonl"), `${header("legacy-1", proj)}\n`);
    const omp = await ompDiscovery(env, { cwds: [proj] });
    // omp moved the pi-style folder's file into its own folder: the one we list first.
    expect(omp.folders[proj]).toBe(own);
    expect(await ompListedFilesIn(own!)).toEqual([join(own!, "a.jsonl")]);
  });
});

suite(`what omp's /resume lists, and the names it shows${skip ? ` (skipped: ${skip})` : ""}`, () => {
  it("<root>/*/*.jsonl only; titles from the slot, the header, a shortSummary in 4 KiB; first messages; not a header → not listed", async () => {
    const h3 = join(base, "list-home");
    mkdirSync(h3, { recursive: true });
    const env = { HOME: h3, TMPDIR: tmp };
    const root = ompSessionsRoot(ompAgentDir({ env, home: h3 }), { env, home: h3 });
    const folder = join(root, "-proj");
    const write = (rel: string, lines: string[]) => {
      const path = join(root, rel);
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, lines.map((l) => `${l}\n`).join(""));
      return path;
    };
    const cwd = join(h3, "proj");
    const long = "x".repeat(5000);
    write("-proj/slot-titled.jsonl", [titleSlotLine({ title: "My title", source: "user" }), header("s1", cwd, { title: "header title" }), user("u1", null, "hello")]);
    write("-proj/slot-empty.jsonl", [titleSlotLine({ title: "" }), header("s2", cwd, { title: "hidden by the empty slot" }), user("u1", null, [{ type: "text", text: "a" }, { type: "text", text: "b" }])]);
    write("-proj/header-title.jsonl", [header("s3", cwd, { title: "From the header" })]);
    write("-proj/short-summary.jsonl", [titleSlotLine({ title: "" }), header("s4", cwd), JSON.stringify({ type: "compaction", id: "c1", parentId: null, timestamp: "2026-11-20T10:00:00.000Z", summary: "s", shortSummary: "I compacted it.", firstKeptEntryId: "c1", tokensBefore: 1 })]);
    write("-proj/long-first-message.jsonl", [titleSlotLine({ title: "" }), header("s5", cwd), user("u1", null, `${"long "}${long}`)]);
    write("-proj/garbage-first.jsonl", ["not json", header("s6", cwd), user("u1", null, "after garbage")]);
    write("-proj/bad-header.jsonl", [titleSlotLine({ title: "x" }), JSON.stringify({ type: "message", id: "m" })]);
    write("-proj/slot-only.jsonl", [titleSlotLine({ title: "" })]);
    write("-proj/empty.jsonl", []);
    write("-proj/.hidden.jsonl", [header("s7", cwd)]);
    write(".hidden-folder/a.jsonl", [header("s8", cwd)]);
    write("-proj/2026-11-20_s1/sub.jsonl", [header("s9", cwd)]);
    write("top-level.jsonl", [header("s10", cwd)]);
    mkdirSync(join(base, "outside-folder"), { recursive: true });
    writeFileSync(join(base, "outside-folder", "linked-in.jsonl"), `${header("s11", cwd)}\n`);
    symlinkSync(join(base, "outside-folder"), join(root, "-symlinked-folder"));
    symlinkSync(join(folder, "slot-titled.jsonl"), join(root, "-proj", "symlinked-file.jsonl"));

    const omp = await ompDiscovery(env, { listDirs: [folder] });
    const listedByOmp = omp.listAll.map((s) => s.path).sort();
    // Candidates = our glob; listed = those with a header in the prefix.
    const ours = (await ompListedFiles(root)).filter((p) => readOmpListing(p) !== null);
    expect(ours).toEqual(listedByOmp);
    for (const s of omp.listAll) {
      const listing = readOmpListing(s.path)!;
      expect({ id: listing.id, cwd: listing.cwd, title: listing.title, firstMessage: listing.firstMessage ?? "(no messages)" }).toEqual({
        id: s.id,
        cwd: s.cwd,
        title: s.title,
        firstMessage: s.firstMessage,
      });
    }
    expect((await ompListedFilesIn(folder)).filter((p) => readOmpListing(p) !== null)).toEqual(omp.listDirs[folder]!.map((s) => s.path).sort());
    // The shown names (ompDisplayName) for the interesting rows.
    const name = (file: string) => ompDisplayName(readOmpListing(join(folder, file))!, new Date());
    expect(name("slot-titled.jsonl")).toBe("My title");
    expect(name("slot-empty.jsonl")).toBe("a b");
    expect(name("header-title.jsonl")).toBe("From the header");
    expect(name("short-summary.jsonl")).toBe("I compacted it.");
    expect(name("long-first-message.jsonl").startsWith("long xxx")).toBe(true);
    expect(readOmpListing(join(folder, "bad-header.jsonl"))).toBeNull();
    expect(readOmpListing(join(folder, "slot-only.jsonl"))).toBeNull();
    expect(ompDisplayName({ title: null, firstMessage: null, created: "2026-11-20T10:00:00.000Z" }, new Date())).toMatch(/^Untitled · /);
  });
});

describe("both agents side by side", () => {
  it("pi's and omp's default roots, and which one a file lies under", () => {
    const env = { HOME: "/h" };
    const roots = defaultAgentRoots({ env, home: "/h" });
    expect(roots.map((r) => [r.agent, r.sessionsRoot])).toEqual([
      ["pi", "/h/.pi/agent/sessions"],
      ["omp", "/h/.omp/agent/sessions"],
    ]);
    expect(defaultAgentRoots({ env, home: "/h", omp: false }).map((r) => r.agent)).toEqual(["pi"]);
    expect(rootOfFile("/h/.omp/agent/sessions/-p/a.jsonl", roots)?.agent).toBe("omp");
    expect(rootOfFile("/h/.pi/agent/sessions/--h-p--/a.jsonl", roots)?.agent).toBe("pi");
    expect(rootOfFile("/h/p/a.jsonl", roots)).toBeUndefined();
  });
});
