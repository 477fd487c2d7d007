import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSessionContext, convertToLlm, migrateSessionEntries, parseSessionEntries, SessionManager } from "@mariozechner/pi-coding-agent";
import { cli } from "./run-cli";

const FIXTURES = resolve("test/fixtures/pi-mono");
const LARGE = join(FIXTURES, "large-session.jsonl");
const BEFORE = join(FIXTURES, "before-compaction.jsonl");

const piCompaction = await import(pathToFileURL(resolve("node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js")).href);
const piUtils = await import(pathToFileURL(resolve("node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/utils.js")).href);

function piEntries(file: string) {
  const entries = parseSessionEntries(readFileSync(file, "utf8")) as any[];
  migrateSessionEntries(entries);
  return entries.filter((e) => e.type !== "session");
}

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("context", () => {
  it.each([LARGE, BEFORE])("--json messages deep-equal pi's convertToLlm(buildSessionContext) for %s", async (file) => {
    const before = sha(file);
    const run = await cli(["context", file, "--json"]);
    expect(run.code).toBe(0);
    const ours = run.json();
    const pi = buildSessionContext(piEntries(file) as any);
    expect(ours.messages).toEqual(convertToLlm(pi.messages));
    expect(ours.thinkingLevel).toBe(pi.thinkingLevel);
    expect(ours.model).toEqual(pi.model);
    expect(sha(file)).toBe(before);
  });

  it("--leaf takes an id that `tree --json` showed, on a v1 file, across runs", async () => {
    const tree = (await cli(["tree", LARGE, "--json"])).json();
    const again = (await cli(["tree", LARGE, "--json"])).json();
    expect(again.nodes.map((n: any) => n.id)).toEqual(tree.nodes.map((n: any) => n.id));
    const mid = tree.nodes[100];
    const run = await cli(["context", LARGE, "--leaf", mid.id, "--json"]);
    expect(run.code).toBe(0);
    const pi = piEntries(LARGE);
    // pi's ids are random for a v1 file: the same entry is the one at the same position.
    const piLeaf = pi[100].id;
    expect(run.json().messages).toEqual(convertToLlm(buildSessionContext(pi as any, piLeaf).messages));
  });
});

describe("prepare", () => {
  it.each([LARGE, BEFORE])("--json matches pi's prepareCompaction with default settings for %s", async (file) => {
    const run = await cli(["prepare", file, "--json"], { env: { PI_CODING_AGENT_DIR: mkdtempSync(join(tmpdir(), "agent-")) } });
    expect(run.code).toBe(0);
    const ours = run.json();
    const pi = piEntries(file);
    const prep = piCompaction.prepareCompaction(pi, { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 });
    const lists = piUtils.computeFileLists(prep.fileOps);
    expect(ours.compactable).toBe(true);
    expect(ours.isSplitTurn).toBe(prep.isSplitTurn);
    expect(ours.tokensBefore).toBe(prep.tokensBefore);
    expect(ours.messagesToSummarize).toBe(prep.messagesToSummarize.length);
    expect(ours.turnPrefixMessages).toBe(prep.turnPrefixMessages.length);
    expect(ours.previousSummary).toBe(prep.previousSummary ?? null);
    expect(ours.readFiles).toEqual(lists.readFiles);
    expect(ours.modifiedFiles).toEqual(lists.modifiedFiles);
    expect(ours.serializedHistory).toBe(piUtils.serializeConversation(convertToLlm(prep.messagesToSummarize)));
    expect(ours.serializedTurnPrefix).toBe(piUtils.serializeConversation(convertToLlm(prep.turnPrefixMessages)));
    // firstKeptEntryId: same position in the file as pi's (ids differ for v1 files).
    const ourIds = (await cli(["tree", file, "--json"])).json().nodes.map((n: any) => n.id);
    expect(ourIds.indexOf(ours.firstKeptEntryId)).toBe(pi.findIndex((e: any) => e.id === prep.firstKeptEntryId));
  });

  it("reads keepRecentTokens from the agent dir's settings.json, and a flag overrides it", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "agent-"));
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 5000 } }));
    const fromFile = (await cli(["prepare", LARGE, "--json", "--agent-dir", agentDir])).json();
    const pi = piEntries(LARGE);
    const at5000 = piCompaction.prepareCompaction(pi, { enabled: true, reserveTokens: 16384, keepRecentTokens: 5000 });
    expect(fromFile.messagesToSummarize).toBe(at5000.messagesToSummarize.length);
    const flag = (await cli(["prepare", LARGE, "--json", "--agent-dir", agentDir, "--keep-recent-tokens", "50000"])).json();
    const at50000 = piCompaction.prepareCompaction(pi, { enabled: true, reserveTokens: 16384, keepRecentTokens: 50000 });
    expect(flag.messagesToSummarize).toBe(at50000.messagesToSummarize.length);
  });

  it("says why when there is nothing to compact (leaf is a compaction)", async () => {
    const tree = (await cli(["tree", BEFORE, "--json"])).json();
    const compaction = tree.nodes.find((n: any) => n.type === "compaction");
    const run = await cli(["prepare", BEFORE, "--leaf", compaction.id, "--json"]);
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ compactable: false });
    expect(run.json().reason).toMatch(/compaction/i);
  });
});

describe("tree", () => {
  it("--json has pi's tree: every entry, children in getTree order, the last entry as leaf", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tree-"));
    const sm = SessionManager.create("/tmp/project", dir);
    const u1 = sm.appendMessage({ role: "user", content: "first", timestamp: 1 } as any);
    sm.appendMessage({ role: "assistant", content: [{ type: "text", text: "a" }], provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: "stop", timestamp: 2 } as any);
    sm.branch(u1);
    const b = sm.appendMessage({ role: "assistant", content: [{ type: "text", text: "b" }], provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: "stop", timestamp: 3 } as any);
    sm.appendLabelChange(b, "keep me");
    const file = sm.getSessionFile()!;
    const run = await cli(["tree", file, "--json"]);
    const ours = run.json();
    const pi = SessionManager.open(file);
    expect(ours.leafId).toBe(pi.getLeafId());
    const piChildren = new Map<string, string[]>();
    const walk = (nodes: any[]) => nodes.forEach((n) => { piChildren.set(n.entry.id, n.children.map((c: any) => c.entry.id)); walk(n.children); });
    walk(pi.getTree());
    expect(ours.nodes).toHaveLength(pi.getEntries().length);
    for (const node of ours.nodes) expect(node.children).toEqual(piChildren.get(node.id));
    expect(ours.nodes.find((n: any) => n.id === b).label).toBe("keep me");
    const text = (await cli(["tree", file])).stdout;
    expect(text).toContain("⑂2");
    expect(text).toContain("[keep me]");
    expect(text).toMatch(new RegExp(`${pi.getLeafId()}.*← leaf`));
  });
});

describe("list", () => {
  it("finds pi's encoded session folder for the cwd under the agent dir, and session files inside the dir", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "agent-"));
    const project = mkdtempSync(join(tmpdir(), "project-"));
    const piDir = join(agentDir, "sessions", `--${project.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
    mkdirSync(piDir, { recursive: true });
    copyFileSync(LARGE, join(piDir, "2025-11-20T23-33-50-805Z_d703a1a9.jsonl"));
    mkdirSync(join(project, "logs"));
    copyFileSync(BEFORE, join(project, "logs", "kept.jsonl"));
    writeFileSync(join(project, "logs", "not-a-session.jsonl"), '{"hello":1}\n');
    const run = await cli(["list", "--json", "--agent-dir", agentDir, "--cwd", project], { env: { PI_SESSIONS_CACHE_DIR: mkdtempSync(join(tmpdir(), "cache-")) } });
    expect(run.code).toBe(0);
    const sessions = run.json().sessions;
    expect(sessions.map((s: any) => s.id).sort()).toEqual(["d703a1a9-1b7b-4fb1-b512-c9738b1fe617", "ffae836b-9420-4060-ac13-7745215f90ff"]);
    expect(sessions[0].modified >= sessions[1].modified).toBe(true);
    for (const s of sessions) expect(Object.keys(s)).toEqual(expect.arrayContaining(["path", "id", "cwd", "name", "entries", "modified"]));
  });
});

describe("errors", () => {
  it.each([
    [["tree"], /needs a session FILE/],
    [["tree", "/nonexistent/x.jsonl"], /no such file/],
    [["nope"], /unknown command/],
    [["tree", LARGE, "--bogus"], /unknown option --bogus/],
    [["context", LARGE, "--leaf", "00000000"], /no entry with id/],
    [["prepare", LARGE, "--keep-recent-tokens", "lots"], /non-negative integer/],
  ])("%j → exit 1 with one error: line", async (args, message) => {
    const run = await cli(args as string[]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^error: /);
    expect(run.stderr).toMatch(message as RegExp);
    expect(run.stdout).toBe("");
  });

  it("a file with entries but no header is shown with a warning naming file and line (pi would treat it as empty)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bad-"));
    const file = join(dir, "x.jsonl");
    writeFileSync(file, '{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"x","timestamp":1}}\n');
    const before = sha(file);
    const run = await cli(["tree", file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: ${file}:1:`);
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(sha(file)).toBe(before);
  });

  it("a file with no header and no entries is an error naming file and line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bad-"));
    const file = join(dir, "x.jsonl");
    writeFileSync(file, "not json at all\n");
    const run = await cli(["context", file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: ${file}:1:`);
  });
});

describe("the built bin", () => {
  beforeAll(() => {
    if (!existsSync("dist/cli.js")) execFileSync("node", ["esbuild.mjs"]);
  });

  it("runs as a process: --json is one document on stdout; errors have no stack trace", () => {
    const ok = spawnSync("node", ["dist/cli.js", "prepare", LARGE, "--json"], { encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).compactable).toBe(true);
    const bad = spawnSync("node", ["dist/cli.js", "context", "/nonexistent.jsonl"], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^error: /);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it("survives a closed stdout pipe (tree | head)", () => {
    const out = execFileSync("bash", ["-c", `node dist/cli.js tree ${LARGE} | head -1; echo "rc=\${PIPESTATUS[0]}"`], { encoding: "utf8" });
    expect(out).toMatch(/rc=0/);
  });
});
