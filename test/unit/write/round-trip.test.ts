// Round trips through the oracle: after each write (compact, undo, navigate,
// branch summary), pi 0.73.1's SessionManager opens the file and its
// buildSessionContext shows what we intended. On 24 random sessions written
// by pi itself, and on both pi-mono fixtures after `migrate`. The writers are
// told "0.73": the random sessions hold unknown `usage` entries, which the
// automatic choice would read as pi 1.x markers.

import { copyFileSync, mkdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { migrateSessionFile } from "../../../src/core/session/append/migrate-file.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { planCompaction } from "../../../src/core/compaction/index.js";
import { runBranchSummary, runCompaction, runNavigate, undoCompaction } from "../../../src/core/write/index.js";
import { generateRandomSession } from "../../support/random-session.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { loadPiOracle, type PiOracle } from "../../support/pi-oracle.js";
import { piOpen, removeDir, tempDir } from "./support/sessions.js";

const dir = tempDir();
let pi: PiOracle;
beforeAll(async () => {
  pi = await loadPiOracle();
});
afterAll(() => removeDir(dir));

const SETTINGS = { enabled: true, reserveTokens: 16384, keepRecentTokens: 400 };
type Entry = Record<string, unknown> & { id: string; parentId: string | null; type: string };
type Message = Record<string, unknown>;

let copies = 0;
function copy(file: string): string {
  const target = join(dir, `rt-${copies++}-${basename(file)}`);
  copyFileSync(file, target);
  return target;
}

/** The leaf pi's /tree moves to for a target (worked out here from pi's documented rule, not from our code). */
function expectedLeaf(target: Entry): string | null {
  const message = target.message as { role?: string } | undefined;
  if ((target.type === "message" && message?.role === "user") || target.type === "custom_message") return target.parentId;
  return target.id;
}

const tally = { compacted: 0, notCompactable: 0, undone: 0, navigated: 0, summarised: 0, movedOnly: 0 };

function checkCompactAndUndo(file: string): Promise<void> {
  return (async () => {
    const path = copy(file);
    const before = piOpen(path, dir);
    const session = openSessionSync(path);
    const plan = planCompaction(session.pathTo(), SETTINGS);
    if (!plan.compactable) {
      // pi agrees: nothing it would summarise (no preparation, or an empty one).
      const piPrep = pi.prepareCompaction(SessionManager.open(before.copy).getBranch() as never, SETTINGS);
      expect(!piPrep || (piPrep.messagesToSummarize.length === 0 && piPrep.turnPrefixMessages.length === 0)).toBe(true);
      tally.notCompactable++;
      return;
    }
    const result = await runCompaction({ session, piVersion: "0.73", agentDir: dir, settings: SETTINGS, summarizer: { digest: true } });
    const after = piOpen(path, dir);
    expect(after.leafId).toBe(result.entry!.id);
    const messages = after.context.messages as Message[];
    expect(messages[0]).toMatchObject({ role: "compactionSummary", summary: result.entry!.summary, tokensBefore: result.entry!.tokensBefore });
    // The kept messages are the tail of the context before compacting.
    const kept = messages.slice(1);
    const beforeMessages = before.context.messages as Message[];
    expect(kept).toEqual(beforeMessages.slice(beforeMessages.length - kept.length));
    expect(result.tokensAfter).toBe(messages.reduce((n, m) => n + pi.estimateTokens(m), 0));
    tally.compacted++;

    undoCompaction({ session: openSessionSync(path), piVersion: "0.73" });
    expect(piOpen(path, dir).context).toEqual(before.context);
    tally.undone++;
  })();
}

function checkNavigate(file: string, targetId: string): void {
  const path = copy(file);
  const sm = SessionManager.open(piOpen(path, dir).copy);
  const target = sm.getEntry(targetId) as unknown as Entry;
  const entries = sm.getEntries() as never;
  const result = runNavigate({ session: openSessionSync(path), targetId, piVersion: "0.73" });
  const leaf = expectedLeaf(target);
  expect(result.newLeafId).toBe(leaf);
  expect(piOpen(path, dir).context).toEqual(pi.buildSessionContext(entries, leaf));
  tally.navigated++;
}

async function checkBranchSummary(file: string, targetId: string): Promise<void> {
  const path = copy(file);
  const sm = SessionManager.open(piOpen(path, dir).copy);
  const entries = sm.getEntries() as never;
  const oldLeaf = sm.getLeafId();
  const piCollected = pi.collectEntriesForBranchSummary(sm as never, oldLeaf, targetId);
  const leaf = expectedLeaf(sm.getEntry(targetId) as unknown as Entry);
  const result = await runBranchSummary({ session: openSessionSync(path), targetId, piVersion: "0.73", agentDir: dir, summarizer: { digest: true } });
  expect(result.commonAncestorId).toBe(piCollected.commonAncestorId);
  expect(result.abandonedEntries).toBe(piCollected.entries.length);
  expect(result.newLeafId).toBe(leaf);
  const context = piOpen(path, dir).context;
  const atLeaf = pi.buildSessionContext(entries, leaf);
  if (result.entry) {
    expect(result.entry).toMatchObject({ parentId: leaf, fromId: leaf ?? "root" });
    expect(context.messages.slice(0, -1)).toEqual(atLeaf.messages);
    expect(context.messages.at(-1)).toMatchObject({ role: "branchSummary", summary: result.entry.summary });
    tally.summarised++;
  } else {
    expect(piCollected.entries.length).toBe(0);
    expect(context).toEqual(atLeaf);
    tally.movedOnly++;
  }
}

const SEEDS = Array.from({ length: 24 }, (_, i) => 4100 + i);

describe("24 random sessions written by pi", () => {
  it.each(SEEDS)("seed %i: compact + undo, navigate, branch summary", async (seed) => {
    const seedDir = join(dir, `seed-${seed}`);
    mkdirSync(seedDir);
    const generated = generateRandomSession(seed, seedDir);
    await checkCompactAndUndo(generated.path);
    const rng = createSeededRandom(seed * 7 + 1);
    const targets = [rng.pick(generated.ids), rng.pick(generated.ids)];
    checkNavigate(generated.path, targets[0]!);
    await checkBranchSummary(generated.path, targets[1]!);
  });

  it("covered every kind of outcome", () => {
    console.info(`round trips: ${JSON.stringify(tally)}`);
    expect(tally.compacted).toBeGreaterThanOrEqual(15);
    expect(tally.undone).toBe(tally.compacted);
    expect(tally.navigated).toBe(SEEDS.length);
    expect(tally.summarised).toBeGreaterThan(5);
  });
});

describe.each(["large-session.jsonl", "before-compaction.jsonl"])("fixture %s after migrate", (name) => {
  const migrated = join(dir, `migrated-${name}`);
  beforeAll(() => {
    copyFileSync(resolve("test/fixtures/pi-mono", name), migrated);
    migrateSessionFile(migrated);
  });

  it("compact with pi's default settings, then undo", async () => {
    const path = copy(migrated);
    const before = piOpen(path, dir);
    const result = await runCompaction({ session: openSessionSync(path), piVersion: "0.73", agentDir: dir, settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 }, summarizer: { digest: true } });
    const piPrep = pi.prepareCompaction(SessionManager.open(before.copy).getBranch() as never, { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 })!;
    expect(result.entry).toMatchObject({ firstKeptEntryId: piPrep.firstKeptEntryId, tokensBefore: piPrep.tokensBefore });
    expect(result.entry!.details).toMatchObject(pi.computeFileLists(piPrep.fileOps));
    const messages = piOpen(path, dir).context.messages as Message[];
    expect(messages[0]).toMatchObject({ role: "compactionSummary", summary: result.entry!.summary });
    const beforeMessages = before.context.messages as Message[];
    expect(messages.slice(1)).toEqual(beforeMessages.slice(beforeMessages.length - (messages.length - 1)));
    undoCompaction({ session: openSessionSync(path), piVersion: "0.73" });
    expect(piOpen(path, dir).context).toEqual(before.context);
  });

  it("navigate to the middle, and a branch summary back to the end", async () => {
    const session = openSessionSync(migrated);
    const ids = session.entries().map((e) => e.id);
    checkNavigate(migrated, ids[Math.floor(ids.length / 2)]!);
    await checkBranchSummary(migrated, ids[Math.floor(ids.length / 3)]!);
  });
});
