// `prepare` writes the same bytes as before it streamed: stdout of `prepare
// --json` equals JSON.stringify of describePreparation(planCompaction(path)) (with the agent and pi version)
// (the document both differential suites prove against pi) for both pis, at
// several leaves and keepRecentTokens; and the piecewise JSON writer equals
// JSON.stringify on texts with quotes, control characters, lone surrogates
// cut at piece edges and its own marker.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printJsonWithTextPieces } from "../../../src/cli/output";
import { semanticsFor, type PiVersion } from "../../../src/core/agent/index.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { generateRandomSession } from "../../support/random-session.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { hostileWriter } from "../../support/hostile-json.js";
import { trickyMessage } from "../../support/tricky-messages.js";
import { cli } from "./run-cli";

const FIXTURES = join(__dirname, "../../fixtures");

let dir: string;
let agentDir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-prepare-output-"));
  agentDir = mkdtempSync(join(tmpdir(), "pi-sessions-prepare-agent-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(agentDir, { recursive: true, force: true });
});

async function expectSameOutput(file: string, version: PiVersion, leaf: string | undefined, keep: number): Promise<boolean> {
  const args = ["prepare", file, "--json", "--pi-version", version, "--agent-dir", agentDir, "--keep-recent-tokens", String(keep)];
  if (leaf) args.push("--leaf", leaf);
  const run = await cli(args);
  expect(run.code).toBe(0);
  const out = run.json();
  const session = openSessionSync(file);
  const s = semanticsFor(version);
  const described = s.describePreparation(s.planCompaction(session.pathTo(leaf), out.settings));
  const leafId = leaf ?? session.index.leafId;
  const expected = `${JSON.stringify({ ...described, agent: "pi", piVersion: version, leafId, settings: out.settings }, null, 2)}\n`;
  expect(run.stdout).toBe(expected);
  // Byte for byte: history written from the line bytes must be the UTF-8 JSON.stringify writes.
  expect(run.stdoutBytes.equals(Buffer.from(expected, "utf8"))).toBe(true);

  const text = await cli(args.filter((a) => a !== "--json"));
  expect(text.code).toBe(0);
  if (described.compactable) {
    expect(text.stdout).toContain(`would summarise ${described.messagesToSummarize} messages`);
    expect(text.stdout).toContain(`serialised history: ${described.serializedHistory.length} chars; turn prefix: ${described.serializedTurnPrefix.length} chars`);
  } else {
    expect(text.stdout).toContain(`not compactable: ${described.reason}`);
  }
  return described.compactable;
}

describe.each(["0.73", "1.5"] as PiVersion[])("prepare --json writes what it wrote before streaming (pi %s)", (version) => {
  it("on pi's fixtures and 12 random sessions, several leaves and budgets", async () => {
    const files = [join(FIXTURES, "pi-mono/large-session.jsonl"), join(FIXTURES, "pi-mono/before-compaction.jsonl")];
    for (let seed = 1; seed <= 12; seed++) files.push(generateRandomSession(seed * 17, dir).path);
    const seen = { compactable: 0, not: 0 };
    for (const file of files) {
      const rng = createSeededRandom(file.length);
      const ids = openSessionSync(file).index.entries.map((m) => m.id);
      for (const leaf of [undefined, rng.pick(ids), rng.pick(ids)]) {
        for (const keep of [0, 300, 20000]) {
          if (await expectSameOutput(file, version, leaf, keep)) seen.compactable++;
          else seen.not++;
        }
      }
    }
    expect(seen.compactable).toBeGreaterThan(20);
    expect(seen.not).toBeGreaterThan(5);
  });

  it("on sessions of tricky messages, written as JSON.stringify writes them and otherwise", async () => {
    let compactable = 0;
    for (let seed = 1; seed <= 4; seed++) {
      const file = trickySession(seed, join(dir, `tricky-${seed}.jsonl`));
      const ids = openSessionSync(file).index.entries.map((m) => m.id);
      for (const leaf of [undefined, ids[Math.floor(ids.length / 2)]]) {
        for (const keep of [0, 2000]) if (await expectSameOutput(file, version, leaf, keep)) compactable++;
      }
    }
    expect(compactable).toBeGreaterThan(8);
  });
});

/** A linear session of tricky messages; from seed 3 on, messages written with non-canonical bytes too. */
function trickySession(seed: number, file: string): string {
  const rng = createSeededRandom(seed * 104729);
  const writer = seed === 2 ? hostileWriter(rng, 0, 0.05) : hostileWriter(rng, seed === 1 ? 0 : 0.05);
  const lines = [Buffer.from(JSON.stringify({ type: "session", version: 3, id: `s${seed}`, timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" }))];
  let parentId: string | null = null;
  for (let i = 0; i < 150; i++) {
    const id = `e${seed}-${i}`;
    const head = JSON.stringify({ type: "message", id, parentId, timestamp: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), message: 0 });
    lines.push(Buffer.concat([Buffer.from(head.slice(0, -2)), writer.line(trickyMessage(rng)), Buffer.from("}")]));
    parentId = id;
  }
  writeFileSync(file, Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")])));
  return file;
}

describe("printJsonWithTextPieces", () => {
  it("writes JSON.stringify(value, null, 2) of the joined text", () => {
    const rng = createSeededRandom(7);
    const alphabet = ["a", "\"", "\\", "\n", "\u0000", "\u001f", "\u2028", "é", "😀", "\ud83d", "\ude00", "\u0000text pieces\u0000", "\"serializedHistory\": \""];
    const text = (): string => Array.from({ length: rng.int(1, 12) }, () => rng.pick(alphabet)).join("");
    for (let run = 0; run < 300; run++) {
      const pieces = Array.from({ length: rng.int(0, 5) }, text);
      const value = { before: text(), serializedHistory: { pieces }, after: [text()], previousSummary: text() };
      // Some pieces given as the bytes JSON.stringify writes for them, written as they are.
      const given = pieces.map((p) => (rng.chance(0.5) ? p : { escaped: Buffer.from(JSON.stringify(p).slice(1, -1)) }));
      const expected = `${JSON.stringify({ ...value, serializedHistory: pieces.join("\n\n") }, null, 2)}\n`;
      let out = "";
      const ctx = { io: { stdout: (t: string) => (out += t) } } as unknown as Parameters<typeof printJsonWithTextPieces>[0];
      printJsonWithTextPieces(ctx, value, "serializedHistory", given);
      expect(out).toBe(expected);
      const bytes: Buffer[] = [];
      const byteCtx = { io: { stdout: (t: string) => bytes.push(Buffer.from(t)), stdoutBytes: (b: Uint8Array) => bytes.push(Buffer.from(b)) } } as unknown as Parameters<typeof printJsonWithTextPieces>[0];
      printJsonWithTextPieces(byteCtx, value, "serializedHistory", given);
      expect(Buffer.concat(bytes).equals(Buffer.from(expected))).toBe(true);
    }
  });
});
