// A compaction and a branch summary written by pi-sessions into an omp session
// are made exactly as omp 18.3.4 makes them: the real `omp` (RPC mode: its own
// `compact` and a /tree move with a summary) and our CLI (`compact` /
// `branch-summary --agent omp`) run on two copies of the same session against
// the same loopback model, which answers every call by a hash of its prompt.
// The requests must be equal — system prompt, every message's role and text,
// the output budget and the reasoning fields as sent on the wire, in the same
// number — and so must the entries, but for id, timestamp and omp's
// tokensAfter. omp's own SessionManager then loads our entry back as the leaf.

import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer, type RecordedRequest } from "../../support/model-server.js";
import { OMP_FIXTURE_BLOBS, OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { describeOmp, fastTempDir, type OmpLoadBack } from "../../support/omp/oracle.js";
import { OMP_LOOPBACK_PROVIDER } from "../../support/omp/run-omp-cli.js";
import { OmpRpc } from "../../support/omp/run-omp-rpc.js";
import { cli } from "../cli/run-cli.js";

const KEY = "sk-omp-loopback-0123456789";
const MODEL = "loopback-coder";
const CONFIG = "compaction:\n  keepRecentTokens: 2000\n";

type Json = Record<string, any>;

/** What a request says, transport aside: the model, each message's role and text, the output budget, the reasoning fields. */
function wire(request: RecordedRequest): Json {
  const body = request.body as Json;
  const text = (content: unknown): string =>
    typeof content === "string" ? content : (content as Json[]).map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("");
  const reasoning: Json = {};
  for (const key of Object.keys(body)) if (/reason|think/i.test(key)) reasoning[key] = body[key];
  return {
    model: body.model,
    messages: (body.messages as Json[]).map((m) => ({ role: m.role, text: text(m.content) })),
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? null,
    reasoning,
  };
}

/** The same requests in a stable order (omp sends the history and turn-prefix calls together). */
const sorted = (requests: readonly RecordedRequest[]): Json[] => requests.map(wire).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const reply = (prompt: string): string => `## Goal\nSummary ${createHash("sha256").update(prompt).digest("hex").slice(0, 12)}\n\n## Next Steps\n1. Carry on`;

function entriesOf(bytes: Buffer): Json[] {
  return bytes
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim().startsWith("{"))
    .map((l) => JSON.parse(l.slice(l.indexOf("{"))) as Json)
    .filter((e) => e.type !== "session");
}

const without = (entry: Json, ...keys: string[]): Json => Object.fromEntries(Object.entries(entry).filter(([k]) => !keys.includes(k)));

describeOmp(
  "a compaction and a branch summary made for an omp session as omp 18.3.4 makes them",
  (oracle) => {
    let server: ModelServer;
    let agent: LoopbackAgentDir;
    let dir: string;
    let copies = 0;
    let comparisons = 0;

    beforeAll(async () => {
      server = await startModelServer({ expectedKey: KEY, respond: (r) => scenarios.success(reply(r.promptText)) });
      agent = await writeLoopbackAgentDir(server, {
        key: KEY,
        models: [],
        extraProviders: {
          [OMP_LOOPBACK_PROVIDER]: {
            baseUrl: server.openaiBaseUrl,
            api: "openai-completions",
            apiKey: "PI_SESSIONS_LOOPBACK_UNSET_KEY_VAR",
            models: [{ id: MODEL, name: MODEL, reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 8192 }],
          },
        },
        authJson: { [OMP_LOOPBACK_PROVIDER]: { type: "api_key", key: KEY } },
        files: { "config.yml": CONFIG },
      });
      dir = fastTempDir("omp-summary-requests-");
    });
    afterAll(async () => {
      await server?.close();
      await agent?.cleanup();
      if (dir) rmSync(dir, { recursive: true, force: true });
      console.log(`omp summary requests: ${comparisons} requests compared with the real omp's`);
    });

    function copy(source: string): string {
      const file = join(dir, `${++copies}-${source.split("/").pop()}`);
      copyFileSync(source, file);
      return file;
    }

    /** omp runs `commands` on one copy; our CLI runs `args` on another. Returns both sides' requests and new entries. */
    async function both(source: string, commands: Json[], args: (file: string) => string[], config = CONFIG) {
      const ompFile = copy(source);
      const before = entriesOf(readFileSync(ompFile)).length;
      const rpc = await OmpRpc.start(oracle().install, { file: ompFile, server, key: KEY, model: MODEL, agentFiles: { "config.yml": config }, blobs: blobsOf(source) });
      for (const command of commands) {
        const response = await rpc.send(command as { type: string });
        expect(response.success, response.error).toBe(true);
      }
      const closed = await rpc.close();
      expect(closed.code, closed.stderr).toBe(0);
      const ompNew = entriesOf(closed.fileAfter).slice(before);

      const ourFile = copy(source);
      writeFileSync(join(agent.agentDir, "config.yml"), config);
      const start = server.requests.length;
      const run = await cli([...args(ourFile), "--agent", "omp", "--agent-dir", agent.agentDir, "--model", `${OMP_LOOPBACK_PROVIDER}/${MODEL}`, "--max-retries", "0", "--json"]);
      expect(run.code, run.stderr).toBe(0);
      const ours = server.requests.slice(start);
      return { omp: closed.requests, ours, ompNew, out: run.json<Json>(), ourFile };
    }

    /** The blobs a file refers to, from the fixtures' store or the oracle's (where generated sessions keep theirs). */
    function blobsOf(source: string): Record<string, string> {
      const hashes = (readFileSync(source, "utf8").match(/blob:sha256:[0-9a-f]{64}/g) ?? []).map((ref) => ref.slice("blob:sha256:".length));
      const found: Record<string, string> = {};
      for (const hash of hashes) {
        for (const store of [OMP_FIXTURE_BLOBS, join(oracle().agentDir, "blobs")]) {
          if (existsSync(join(store, hash))) {
            found[hash] = join(store, hash);
            break;
          }
        }
      }
      return found;
    }

    function sameRequests(omp: readonly RecordedRequest[], ours: readonly RecordedRequest[]): void {
      expect(omp.length).toBeGreaterThan(0);
      expect(sorted(ours)).toEqual(sorted(omp));
      comparisons += omp.length;
    }

    async function compaction(source: string, focus?: string) {
      const r = await both(source, [{ type: "compact", ...(focus ? { customInstructions: focus } : {}) }], (file) => ["compact", file, ...(focus ? ["--instructions", focus] : [])]);
      sameRequests(r.omp, r.ours);
      const theirs = r.ompNew.find((e) => e.type === "compaction")!;
      expect(theirs).toBeDefined();
      // Resuming a file whose last turn never finished, omp first records that turn as aborted (not part of its compaction).
      const resumed = r.ompNew.slice(0, r.ompNew.indexOf(theirs));
      for (const e of resumed) expect(e.message).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Previous OMP process exited before completing the turn." });
      const ignored = resumed.length > 0 ? ["parentId"] : [];
      if (resumed.length > 0) expect(r.out.entry.parentId).toBe(resumed[0]!.parentId);
      expect(without(r.out.entry, "id", "timestamp", "tokensAfter", ...ignored)).toEqual(without(theirs, "id", "timestamp", "tokensAfter", ...ignored));
      const back = (await oracle().loadBack(r.ourFile)) as OmpLoadBack;
      expect(back.leafId).toBe(r.out.entry.id);
      expect(back.context.messages[0]).toMatchObject({ role: "compactionSummary", summary: theirs.summary });
      return { theirs, requests: r.omp };
    }

    it("omp-simple: a split turn (no history before it: \"No prior history.\"), the turn-prefix and short-summary calls", async () => {
      const { theirs, requests } = await compaction(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"));
      expect(theirs).toMatchObject({ method: "soft", fromExtension: false });
      expect(theirs.summary).toMatch(/^No prior history\.\n\n---\n\n\*\*Turn Context \(split turn\):\*\*/);
      expect(requests).toHaveLength(2);
    });

    it("omp-simple with focus text: \"Additional focus\" on the history call only", async () => {
      await compaction(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), "the file names");
    });

    it("a previous soft summary: the update prompt over <previous-summary> (omp-soft-compaction-branch-summary)", async () => {
      const { requests } = await compaction(join(OMP_FIXTURES_DIR, "omp-soft-compaction-branch-summary.jsonl"));
      expect(requests.some((r) => wire(r).messages[1].text.includes("<previous-summary>"))).toBe(true);
    });

    it("after a handoff and /clear (omp-soft-handoff-reset)", async () => {
      await compaction(join(OMP_FIXTURES_DIR, "omp-soft-handoff-reset.jsonl"));
    });

    it("a previous snapcompact archive: its text merged into the previous summary (omp-snapcompact)", async () => {
      const { requests } = await compaction(join(OMP_FIXTURES_DIR, "omp-snapcompact.jsonl"));
      expect(requests.some((r) => wire(r).messages[1].text.includes("Previous snapcompact archive source text:"))).toBe(true);
    });

    it("a pi 0.73 session resumed by omp", async () => {
      await compaction(join(OMP_FIXTURES_DIR, "pi073-digest-compaction-resumed-by-omp.jsonl"));
    });

    it("sessions omp wrote at random (every entry type, /clear, branches, snapcompact archives, pi files resumed)", async () => {
      let compacted = 0;
      for (let seed = 1; compacted < 5 && seed <= 12; seed++) {
        const generated = await oracle().generate({ seed: 9100 + seed, dir: join(dir, `seed-${seed}`) });
        const text = readFileSync(generated.path, "utf8");
        // After an OpenAI remote compaction omp may pick another range: ours is then marked fromExtension (omp-summary-oracle.test.ts).
        if (text.includes('"method":"remote"')) continue;
        const answer = await oracle().answers({ file: generated.path, settings: [{ keepRecentTokens: 2000 }] });
        if (!answer.leaves[0]!.preparations[0]) continue;
        const { theirs } = await compaction(generated.path);
        expect(theirs.method).toBe("soft");
        compacted++;
      }
      expect(compacted).toBe(5);
    });

    async function branchSummary(target: string, config?: string) {
      const source = join(OMP_FIXTURES_DIR, "omp-soft-compaction-branch-summary.jsonl");
      const r = await both(source, [{ type: "prompt", message: `/pisessions-navigate ${target}` }], (file) => ["branch-summary", file, "--target", target], config);
      sameRequests(r.omp, r.ours);
      const theirs = r.ompNew.find((e) => e.type === "branch_summary")!;
      expect(theirs).toBeDefined();
      expect(without(r.out.entry, "id", "timestamp")).toEqual(without(theirs, "id", "timestamp"));
      expect(theirs.summary).toMatch(/^User explored another conversation branch, then returned here\.\nExploration summary:## Goal/);
      const back = (await oracle().loadBack(r.ourFile)) as OmpLoadBack;
      expect(back.leafId).toBe(r.out.entry.id);
      return theirs;
    }

    it("a branch summary back to a user request (the new leaf is its parent)", async () => {
      const entry = await branchSummary("daad7ae2");
      expect(entry).toMatchObject({ parentId: "78d8f4ef", fromId: "78d8f4ef", fromExtension: false });
    });

    it("a branch summary back to an assistant message (the new leaf is the target), under omp's branchSummary.reserveTokens from config.yml", async () => {
      // A 128000-token window less 127900 reserved: only the newest abandoned messages fit.
      const entry = await branchSummary("95fdcdba", `${CONFIG}branchSummary:\n  reserveTokens: 127900\n`);
      expect(entry).toMatchObject({ parentId: "95fdcdba", fromId: "95fdcdba" });
    });
    // Custom instructions reach omp's navigateTree only from its TUI (the extension API passes `summarize` alone):
    // they are compared with omp's own generateBranchSummary in omp-summary-oracle.test.ts.
  },
  { blobsFrom: [OMP_FIXTURE_BLOBS] },
);
