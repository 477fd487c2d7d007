// `--agent pi|omp` and the automatic choice (shared/spec/cli.md, "Which agent")
// through the real CLI entry: omp's five files answered with omp's semantics
// (context messages deep-equal omp's, prepare's fields, tree, files), `agent`
// in every read command's --json, pi files unchanged, and bad input — one
// line, never a crash, the file never written.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { digestImages } from "../../support/omp/image-digest.js";
import { OMP_FIXTURES, OMP_FIXTURES_DIR, readOmpExpected, readOmpExpectedLlm } from "../../support/omp/expected-fixtures.js";
import { cli } from "./run-cli";

const tmp = mkdtempSync(join(tmpdir(), "pi-sessions-cli-omp-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fixture = (name: string) => join(OMP_FIXTURES_DIR, `${name}.jsonl`);
/** An omp agent dir holding the fixtures' blobs (omp's `<agent>/blobs`). */
const AGENT_DIR = OMP_FIXTURES_DIR;
const home = join(tmp, "home");
mkdirSync(home);
const env = { HOME: home, PI_CODING_AGENT_DIR: undefined, PI_CONFIG_DIR: undefined, OMP_PROFILE: undefined, PI_PROFILE: undefined, XDG_DATA_HOME: undefined, PATH: join(tmp, "no-pi") };
const PI_FILE = resolve("examples/todo-cli-session.jsonl");
const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("omp's files through the CLI", () => {
  for (const name of OMP_FIXTURES) {
    it(`${name}: context --json is omp's (agent omp, no piVersion)`, async () => {
      const run = await cli(["context", fixture(name), "--json", "--agent-dir", AGENT_DIR], { env });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      const doc = run.json();
      const expected = readOmpExpected(name);
      expect(doc.agent).toBe("omp");
      expect(doc).not.toHaveProperty("piVersion");
      expect(doc.thinkingLevel).toBe(expected.context.thinkingLevel);
      expect(`${doc.model.provider}/${doc.model.modelId}`).toBe(expected.context.models.default);
      expect(digestImages(doc.messages)).toEqual(readOmpExpectedLlm(name));
    });

    it(`${name}: prepare --json at keep 2000 is omp's prepareCompaction`, async () => {
      const run = await cli(["prepare", fixture(name), "--json", "--keep-recent-tokens", "2000", "--agent-dir", join(tmp, "empty-agent")], { env });
      expect(run.code).toBe(0);
      const doc = run.json();
      const want = readOmpExpected(name).prepare.keep2000;
      expect(doc.agent).toBe("omp");
      expect({ ...doc, serializedHistory: doc.serializedHistory.length, serializedTurnPrefix: doc.serializedTurnPrefix.length, previousSummary: doc.previousSummary?.slice(0, 80) ?? null }).toMatchObject({
        compactable: true,
        firstKeptEntryId: want.firstKeptEntryId,
        isSplitTurn: want.isSplitTurn,
        tokensBefore: want.tokensBefore,
        messagesToSummarize: want.messagesToSummarize,
        turnPrefixMessages: want.turnPrefixMessages,
        readFiles: want.readFiles,
        modifiedFiles: want.modifiedFiles,
        serializedHistory: want.serializedHistoryChars,
        serializedTurnPrefix: want.serializedTurnPrefixChars,
        previousSummary: want.previousSummary === null ? null : want.previousSummary.replace(/…\[\+\d+\]$/, ""),
        tokensExact: true,
      });
    });
  }

  it("prepare at omp's defaults: nothing to compact where omp has nothing, the snapcompact file compactable as omp says", async () => {
    for (const name of OMP_FIXTURES) {
      const doc = (await cli(["prepare", fixture(name), "--json", "--agent-dir", join(tmp, "empty-agent")], { env })).json();
      const want = readOmpExpected(name).prepare.keep20000;
      expect(doc.compactable).toBe(want !== null);
      if (want) expect(doc.firstKeptEntryId).toBe(want.firstKeptEntryId);
    }
  });

  it("prepare reads compaction.keepRecentTokens from omp's config.yml (agent dir, then the project's .omp/config.yml)", async () => {
    const agentDir = join(tmp, "agent-yml");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "config.yml"), "# omp settings\ncompaction:\n  keepRecentTokens: 2000\n");
    const project = join(tmp, "project");
    mkdirSync(join(project, ".omp"), { recursive: true });
    const global = (await cli(["prepare", fixture("omp-simple"), "--json", "--agent-dir", agentDir, "--cwd", project], { env })).json();
    expect(global.settings.keepRecentTokens).toBe(2000);
    expect(global.firstKeptEntryId).toBe(readOmpExpected("omp-simple").prepare.keep2000.firstKeptEntryId);
    writeFileSync(join(project, ".omp", "config.yml"), "compaction: { keepRecentTokens: 20000 }\n");
    const local = (await cli(["prepare", fixture("omp-simple"), "--json", "--agent-dir", agentDir, "--cwd", project], { env })).json();
    expect(local.settings.keepRecentTokens).toBe(20000);
    expect(local.compactable).toBe(false);
  });

  it("tokensExact: false where omp would count with a native tokenizer (a catalog Claude model)", async () => {
    const file = join(tmp, "claude.jsonl");
    writeFileSync(file, readFileSync(fixture("omp-simple"), "utf8").replace('"model":"fake/fake-coder"', '"model":"anthropic/claude-sonnet-4-5"'));
    const doc = (await cli(["prepare", file, "--json", "--keep-recent-tokens", "2000"], { env })).json();
    expect(doc.agent).toBe("omp");
    expect(doc.tokensExact).toBe(false);
  });

  it("tree shows omp's entries for what they are, and omp's title from the slot", async () => {
    const text = (await cli(["tree", fixture("omp-soft-handoff-reset")], { env })).stdout;
    expect(text).toContain("reset_boundary  ── /clear ──");
    expect(text).toContain("compaction (handoff) of 3838 → 6939 tokens");
    expect(text).toContain("model fake/fake-vision");
    expect(text).toContain("thinking off");
    expect(text).not.toContain("unknown entry type");
    const titled = join(tmp, "titled.jsonl");
    const original = readFileSync(fixture("omp-simple"), "utf8");
    const slot = original.slice(0, original.indexOf("\n") + 1);
    const renamed = JSON.stringify({ ...JSON.parse(slot), title: "Hello file", source: "user", pad: "" });
    writeFileSync(titled, renamed.replace('"pad":""', `"pad":"${" ".repeat(256 - Buffer.byteLength(renamed) - 1)}"`) + "\n" + original.slice(slot.length));
    expect(readFileSync(titled).indexOf("\n")).toBe(255);
    const doc = (await cli(["tree", titled, "--json"], { env })).json();
    expect(doc).toMatchObject({ agent: "omp", name: "Hello file" });
  });

  it("files: the header's cwd, omp's resolvedPath and hashline edits", async () => {
    const doc = (await cli(["files", fixture("omp-simple"), "--json"], { env })).json();
    expect(doc).toMatchObject({ agent: "omp", cwd: "/home/u/omp/w/proj1", files: [{ path: "/home/u/omp/w/proj1/hello.txt", displayPath: "hello.txt", ops: "W" }] });
    const file = join(tmp, "hashline.jsonl");
    const lines = readFileSync(fixture("omp-simple"), "utf8").split("\n");
    const patch = "*** Begin Patch\n[src/a.ts#1A2B]\nPUT 3.=3:\n+const a = 2;\n[old.ts#0F0F]\nREM\n[b.ts#AAAA]\nPUT >$:\n+x\nMV lib/b.ts\n*** End Patch";
    const call = { type: "message", id: "eeee0001", parentId: "95ee93bc", timestamp: "2026-11-23T22:40:00.000Z", message: { role: "assistant", content: [{ type: "toolCall", id: "call_h", name: "edit", arguments: { input: patch } }], provider: "fake", model: "fake-coder", stopReason: "toolUse", timestamp: 1, api: "openai-completions", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 } } };
    const result = { type: "message", id: "eeee0002", parentId: "eeee0001", timestamp: "2026-11-23T22:40:01.000Z", message: { role: "toolResult", toolCallId: "call_h", toolName: "edit", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 2 } };
    writeFileSync(file, [...lines.filter(Boolean), JSON.stringify(call), JSON.stringify(result)].join("\n") + "\n");
    const edited = (await cli(["files", file, "--json"], { env })).json();
    const ops = Object.fromEntries(edited.files.map((f: { displayPath: string; ops: string }) => [f.displayPath, f.ops]));
    expect(ops).toMatchObject({ "hello.txt": "W", "src/a.ts": "E", "old.ts": "D", "lib/b.ts": "EM" });
  });
});

describe("which agent", () => {
  it("a pi file stays pi's: piVersion as before, and agent pi", async () => {
    const doc = (await cli(["context", PI_FILE, "--json"], { env })).json();
    expect(doc).toMatchObject({ agent: "pi", piVersion: "0.73" });
    const explicit = (await cli(["context", PI_FILE, "--json", "--pi-version", "1.5"], { env })).json();
    expect(explicit).toMatchObject({ agent: "pi", piVersion: "1.5" });
  });

  it("--agent omp reads a pi file as omp would (omp's summary wrapper)", async () => {
    const file = join(tmp, "pi-only.jsonl");
    writeFileSync(file, readFileSync(fixture("pi073-digest-compaction-resumed-by-omp"), "utf8").split("\n").slice(0, 167).join("\n") + "\n");
    const pi = (await cli(["context", file, "--json"], { env })).json();
    const omp = (await cli(["context", file, "--json", "--agent", "omp"], { env })).json();
    expect(pi.agent).toBe("pi");
    expect(omp.agent).toBe("omp");
    expect(pi.messages[0].content[0].text).toMatch(/^The conversation history before this point was compacted/);
    expect(omp.messages[0].content[0].text).toMatch(/^Prior model work\/tool state available\./);
  });

  it("--agent pi on omp's file: pi's reading (the slot is no header for pi)", async () => {
    const doc = (await cli(["context", fixture("omp-simple"), "--json", "--agent", "pi"], { env })).json();
    expect(doc.agent).toBe("pi");
    expect(doc.piVersion).toBeDefined();
  });

  it("a file under omp's folder is omp's", async () => {
    const dir = join(home, ".omp", "agent", "sessions", "-proj");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "s.jsonl");
    copyFileSync(PI_FILE, file);
    expect((await cli(["tree", file, "--json"], { env })).json().agent).toBe("omp");
    expect((await cli(["tree", file, "--json", "--agent", "pi"], { env })).json().agent).toBe("pi");
  });

  it("bad flags: one line", async () => {
    const bad = await cli(["context", PI_FILE, "--agent", "claude"], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe("error: --agent must be pi or omp, got 'claude'");
    const both = await cli(["context", PI_FILE, "--agent", "omp", "--pi-version", "1.5"], { env });
    expect(both.code).toBe(1);
    expect(both.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("bad input in omp files: explained in one line, never a crash, never written", () => {
  const slot = readFileSync(fixture("omp-simple"), "utf8").split("\n")[0]! + "\n";
  const cases: [string, string, number, RegExp][] = [
    ["slot then a non-header object", slot + '{"type":"message","id":"a","parentId":null,"timestamp":"x","message":{"role":"user","content":"hi"}}\n', 0, /omp would refuse to resume/],
    ["slot only", slot, 1, /omp would start a new session here/],
    ["empty file", "", 1, /no session header and no entries/],
    ["truncated last line", readFileSync(fixture("omp-simple"), "utf8").slice(0, -40), 0, /last line is incomplete/],
    ["unknown omp entry type", readFileSync(fixture("omp-simple"), "utf8") + '{"type":"hologram","id":"zz","parentId":"95ee93bc","timestamp":"2026-11-23T22:40:00.000Z"}\n', 0, /$/],
  ];
  for (const [what, text, code, message] of cases) {
    it(what, async () => {
      const file = join(tmp, `bad-${what.replace(/\W+/g, "-")}.jsonl`);
      writeFileSync(file, text);
      const before = sha(file);
      for (const command of ["context", "prepare", "tree", "files"]) {
        const run = await cli([command, file, "--json", "--agent-dir", join(tmp, "none")], { env });
        expect(run.code, `${command}: ${run.stderr}`).toBe(code);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(run.stderr).toMatch(message);
        if (code !== 0) expect(run.stderr.trim().split("\n")).toHaveLength(1);
        else JSON.parse(run.stdout);
      }
      expect(sha(file)).toBe(before);
    });
  }

  it("in omp's words: a first line that is no header under omp's folder, a truncated last line", async () => {
    const dir = join(home, ".omp", "agent", "sessions", "-words");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "no-header.jsonl");
    writeFileSync(file, readFileSync(fixture("omp-simple"), "utf8").split("\n").slice(2).join("\n"));
    const before = sha(file);
    const run = await cli(["tree", file, "--json"], { env });
    expect(run.code).toBe(0);
    expect(run.json().agent).toBe("omp");
    expect(run.stderr).toContain("omp would refuse to resume this file");
    expect(run.stderr).not.toContain("overwrite");
    const cut = join(tmp, "cut.jsonl");
    writeFileSync(cut, readFileSync(fixture("omp-simple"), "utf8").slice(0, -40));
    expect((await cli(["tree", cut, "--json"], { env })).stderr).toContain("omp would glue the next entry it appends onto this line");
    expect(sha(file)).toBe(before);
  });

  it("a missing blob: omp's notice in place of the frames", async () => {
    const doc = (await cli(["context", fixture("omp-snapcompact"), "--json", "--agent-dir", join(tmp, "no-blobs")], { env })).json();
    expect(doc.messages[0].content.map((b: { type: string }) => b.type)).toEqual(["text", "text", "text"]);
    expect(doc.messages[0].content[2].text).toContain("5 archived image frames unavailable here");
  });

  it("frames from the blob store beside the sessions root the file lies in (a profile's)", async () => {
    const root = join(home, ".omp", "profiles", "work", "agent");
    mkdirSync(join(root, "sessions", "-proj"), { recursive: true });
    const file = join(root, "sessions", "-proj", "snap.jsonl");
    copyFileSync(fixture("omp-snapcompact"), file);
    mkdirSync(join(root, "blobs"));
    for (const blob of ["83a6492afe373eee8884e612cec4e7b1e09a92960df70ae675428458df7354e8", "b1139a8558d34a1b09587b09c70ca210f111f200cdd2a0c52c2093bb626319e3", "b38b1278ae938234b44cbf1fdc09b100092c9048415dde25293bb44d0f81c4d5", "36d060466137d2f8e9e667aab982e94dd33df107afda5cabf9e94592711fcaa3", "9ca1a1abacfd1420766bc3ef2a57d269df875f134ad9619149de9261ea6b6c5d"]) {
      copyFileSync(join(OMP_FIXTURES_DIR, "blobs", blob), join(root, "blobs", blob));
    }
    const doc = (await cli(["context", file, "--json"], { env })).json();
    expect(digestImages(doc.messages)).toEqual(readOmpExpectedLlm("omp-snapcompact"));
  });

  it("writers write omp sessions the omp way, say agent omp, and refuse what omp could not take (exit 3, the file unchanged)", async () => {
    const file = join(tmp, "omp-write.jsonl");
    copyFileSync(fixture("omp-simple"), file);
    for (const args of [["label", file, "--target", "95ee93bc", "x"], ["rename", file, "new name"], ["navigate", file, "--target", "ff44a757"]]) {
      const run = await cli([...args, "--json"], { env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.json().agent).toBe("omp");
    }
    // No title slot: omp reads no name from the file, so a rename is refused.
    const slotless = join(tmp, "omp-write-slotless.jsonl");
    copyFileSync(fixture("pi073-digest-compaction-resumed-by-omp"), slotless);
    const before = sha(slotless);
    const run = await cli(["rename", slotless, "new name", "--json"], { env });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/no title slot/);
    // omp migrates its own files.
    expect((await cli(["migrate", slotless], { env })).code).toBe(3);
    expect(sha(slotless)).toBe(before);
  });
});
