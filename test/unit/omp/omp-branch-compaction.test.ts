// omp's streamed `prepare` (describeBranchCompaction on a lazily read branch)
// equals describePreparation(planCompaction(path)) — the whole-path preparation
// the omp differential suite proves equal to omp 18.3.4 — on the 220 sessions
// omp's own SessionManager writes for that suite and on the five files omp
// wrote, at every entry as the leaf, for several keep budgets, each file read
// both ways (bodies parsed from the file, and held in memory as `prepare` reads
// it); and it reads only the bodies its decisions and the summary need. Also:
// omp's context usage recounted from where `ompRecountStart` says (what the
// catalogue's rows and live views read) equals it on the whole branch.

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOmpSemantics, type OmpSemantics } from "../../../src/core/agent/omp-18/semantics.js";
import { transcriptString } from "../../../src/core/compaction/transcript-builder.js";
import { sessionBranchReader } from "../../../src/core/context/branch-reader.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { openSessionInMemory } from "../../../src/core/session/open/open-session-in-memory.js";
import type { LoadedSession } from "../../../src/core/session/open/loaded-session.js";
import type { EntryMeta } from "../../../src/core/session/format/entry-meta.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import type { BranchTokenView, ContextTokenRule, EntryTokens } from "../../../src/core/tokens/context-token-rule.js";
import { framePngs, piFilesToResume } from "../../support/omp/corpus.js";
import { OMP_FIXTURE_BLOBS, OMP_FIXTURES, OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { describeOmp, fastTempDir, type GeneratedOmpSession } from "../../support/omp/oracle.js";

const KEEP_VALUES = [0, 1, 40, 500, 2000, 20000];

/** Compares at one leaf for every keep budget; returns the comparisons and how many of them were compactable. */
/** A BranchTokenView over a path in memory (what ompRecountStart reads: types, entry tokens, positions). */
function pathView(rule: ContextTokenRule, path: readonly SessionEntry[]): BranchTokenView {
  const tokens = new Map<number, EntryTokens>();
  const tokensAt = (p: number): EntryTokens => {
    let t = tokens.get(p);
    if (!t) tokens.set(p, (t = rule.entryTokens(path[p]!)));
    return t;
  };
  const last = (is: (p: number) => boolean): number => {
    for (let p = path.length - 1; p >= 0; p--) if (is(p)) return p;
    return -1;
  };
  const unused = (): never => {
    throw new Error("not asked by ompRecountStart");
  };
  return {
    length: path.length,
    typeAt: (p) => path[p]!.type,
    tokensAt,
    lastUsage: last((p) => tokensAt(p).usage !== undefined),
    lastReset: last((p) => tokensAt(p).reset !== undefined),
    lastCompaction: last((p) => path[p]!.type === "compaction"),
    positionOf: (id) => path.findIndex((e) => e.id === id),
    estimateSum: unused,
    messageCount: unused,
  };
}

/**
 * At every entry as the leaf: omp's usage from the recount start equals the
 * whole branch's, and the context, its model roles and usage on the context
 * path (stubs for the bodies not read) equal the whole branch's. Returns how
 * many recount starts were past the root and how many context paths held stubs.
 */
function compareUsageTails(s: OmpSemantics, file: string): { runs: number; later: number; stubbed: number } {
  const session = openSessionSync(file);
  const rule = s.contextTokenRule;
  let runs = 0;
  let later = 0;
  let stubbed = 0;
  for (const leaf of [undefined, ...session.index.entries.map((m) => m.id)]) {
    const path = session.pathTo(leaf);
    const start = rule.recountStart!(pathView(rule, path));
    if (start > 0) later++;
    expect(rule.usageOfPath(path.slice(start))).toStrictEqual(rule.usageOfPath(path));
    const sparse = s.contextPath!(sessionBranchReader(session, leaf));
    expect(sparse.length).toBe(path.length);
    if (sparse.some((e, i) => e !== path[i] && JSON.stringify(e) !== JSON.stringify(path[i]))) stubbed++;
    expect(s.ompContext(sparse)).toStrictEqual(s.ompContext(path));
    expect(s.buildSessionContext(sparse)).toStrictEqual(s.buildSessionContext(path));
    expect(s.contextUsage(sparse)).toStrictEqual(s.contextUsage(path));
    runs++;
  }
  return { runs, later, stubbed };
}

function compareAt(s: OmpSemantics, session: LoadedSession, leaf: string | null | undefined): { runs: number; compactable: number } {
  const branch = sessionBranchReader(session, leaf);
  const path = session.pathTo(leaf);
  expect(branch.length).toBe(path.length);
  expect(s.branchModel(branch)).toStrictEqual(s.buildSessionContext(path).model);
  let compactable = 0;
  for (const keepRecentTokens of KEEP_VALUES) {
    const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens };
    const streamed = s.describeBranchCompaction(branch, settings);
    const whole = s.describePreparation(s.planCompaction(path, settings));
    const joined = streamed.compactable ? { ...streamed, serializedHistory: transcriptString(streamed.serializedHistory) } : streamed;
    // Same members in the same order (the CLI writes them as they come).
    expect(JSON.stringify(joined)).toBe(JSON.stringify(whole));
    if (streamed.compactable && joined.compactable) {
      compactable++;
      expect(streamed.serializedHistory.length).toBe(joined.serializedHistory.length);
    }
  }
  return { runs: KEEP_VALUES.length, compactable };
}

/**
 * The file's leaf, none, every `step`th entry and `extraLeaves` (the tips) as
 * the leaf, read from the file and held in memory.
 */
function compareFile(s: OmpSemantics, file: string, step = 1, extraLeaves: readonly string[] = []): { runs: number; compactable: number } {
  const total = { runs: 0, compactable: 0 };
  for (const session of [openSessionSync(file), openSessionInMemory(file)]) {
    const every = session.index.entries.map((m) => m.id).filter((_, i) => i % step === 0);
    const leaves: (string | null | undefined)[] = [undefined, null, ...new Set([...every, ...extraLeaves])];
    for (const leaf of leaves) {
      const counted = compareAt(s, session, leaf);
      total.runs += counted.runs;
      total.compactable += counted.compactable;
    }
  }
  return total;
}

describe("omp's streamed prepare on the files omp wrote", () => {
  it("equals the whole-path preparation at every leaf", () => {
    const s = createOmpSemantics(OMP_FIXTURE_BLOBS);
    let runs = 0;
    let compactable = 0;
    for (const name of OMP_FIXTURES) {
      const counted = compareFile(s, join(OMP_FIXTURES_DIR, `${name}.jsonl`));
      runs += counted.runs;
      compactable += counted.compactable;
    }
    expect(runs).toBeGreaterThan(1000);
    expect(compactable).toBeGreaterThan(300);
  });
});

/** Counts the bodies a session parses (JSON.parse of a line: its body store's parse, below entryAt, eachEntryAt, pathTo and its cache) from now on. */
function countingParses(session: LoadedSession): Map<string, number> {
  const parsed = new Map<string, number>();
  type Parse = (meta: EntryMeta, ...rest: unknown[]) => unknown;
  const bodies = (session as unknown as { bodies: { parse: Parse } }).bodies;
  const parse = bodies.parse.bind(bodies);
  bodies.parse = (meta, ...rest) => {
    parsed.set(meta.id, (parsed.get(meta.id) ?? 0) + 1);
    return parse(meta, ...rest);
  };
  return parsed;
}

describe("omp's context usage from the recount start", () => {
  it("equals the whole branch's on the files omp wrote, at every leaf", () => {
    const s = createOmpSemantics(OMP_FIXTURE_BLOBS);
    let later = 0;
    for (const name of OMP_FIXTURES) later += compareUsageTails(s, join(OMP_FIXTURES_DIR, `${name}.jsonl`)).later;
    expect(later).toBeGreaterThan(20);
  });

  it("equals it where omp's context notebook lies before the kept range, and where a compaction replays a provider's history", () => {
    const dir = fastTempDir("omp-usage-tails-");
    try {
      for (const withNotes of [true, false]) {
      const time = (i: number) => new Date(Date.UTC(2026, 10, 23, 22, 0, i)).toISOString();
      const lines = [JSON.stringify({ type: "session", version: 3, id: "s-omp-notes", timestamp: time(0), cwd: "/w" })];
      let parentId: string | null = null;
      let i = 0;
      const ids: string[] = [];
      const add = (entry: Record<string, unknown>) => {
        const id = `e${i}`;
        lines.push(JSON.stringify({ ...entry, id, parentId, timestamp: time(i) }));
        ids.push(id);
        parentId = id;
        i++;
      };
      const turn = (t: number) => {
        add({ type: "message", message: { role: "user", content: `step ${t} ${"u".repeat(300)}`, timestamp: i } });
        const usage = { input: 200 + t, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 210 + t };
        add({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `done ${t}` }], provider: "fake", model: "fake-coder", usage, stopReason: "stop", timestamp: i } });
      };
      for (let t = 0; t < 3; t++) turn(t);
      add({ type: "reset_boundary" });
      if (withNotes) add({ type: "custom", customType: "experimental_context_notes", data: { version: 1, text: "- the notebook, written before the kept range" } });
      for (let t = 3; t < 9; t++) turn(t);
      add({ type: "compaction", summary: "so far", firstKeptEntryId: ids[ids.length - 4], tokensBefore: 900 });
      for (let t = 9; t < 12; t++) turn(t);
      add({
        type: "compaction",
        summary: "replayed",
        firstKeptEntryId: ids[ids.length - 2],
        tokensBefore: 900,
        providerReplayThroughEntryId: ids[ids.length - 10],
        preserveData: { openaiRemoteCompaction: { provider: "openai", replacementHistory: [{ type: "message", role: "user", content: "x" }] } },
      });
      turn(12);
      const file = join(dir, `notes-${withNotes}.jsonl`);
      writeFileSync(file, lines.join("\n") + "\n");
      const s = createOmpSemantics(undefined);
      const { runs, later } = compareUsageTails(s, file);
      expect(runs).toBe(ids.length + 1);
      expect(later).toBeGreaterThan(10);
      const session = openSessionSync(file);
      // The notebook is part of the context at the first compaction's leaf (it would be missed from the kept range on).
      if (withNotes) expect(JSON.stringify(s.buildSessionContext(session.pathTo(ids[ids.length - 10])).messages)).toContain("the notebook, written before the kept range");
      // The replayed entries before the kept range are part of it at the file's leaf.
      else expect(JSON.stringify(s.buildSessionContext(session.pathTo()).messages)).toContain("step 8");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("omp's streamed prepare reads only the bodies it needs", () => {
  const line = (entry: object) => JSON.stringify(entry) + "\n";
  const time = (i: number) => new Date(Date.UTC(2026, 10, 23, 22, 0, i)).toISOString();
  const user = (id: string, parentId: string | null, i: number, text: string) => ({ type: "message", id, parentId, timestamp: time(i), message: { role: "user", content: text, timestamp: i } });
  const assistant = (id: string, parentId: string, i: number, text: string, input: number) => ({
    type: "message",
    id,
    parentId,
    timestamp: time(i),
    message: { role: "assistant", content: [{ type: "text", text }], provider: "fake", model: "fake-coder", usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 }, stopReason: "stop", timestamp: i },
  });
  let dir: string;
  beforeAll(() => {
    dir = fastTempDir("omp-branch-compaction-");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * 100 turns, then a /clear, then 60 turns with a label on each answer, a
   * compaction keeping the last 20 of them and 40 more turns.
   */
  function writeSession(): { file: string; beforeClear: string[]; labels: string[]; compacted: string[]; after: string[] } {
    let parent: string | null = null;
    let i = 0;
    const lines = [line({ type: "session", version: 3, id: "s-omp-lazy", timestamp: time(0), cwd: "/w" }), line({ type: "model_change", id: "m0", parentId: null, timestamp: time(0), model: "fake/fake-coder" })];
    parent = "m0";
    const ids = { beforeClear: [] as string[], labels: [] as string[], compacted: [] as string[], after: [] as string[] };
    const turn = (into: string[], label: boolean) => {
      const u = `u${i}`;
      const a = `a${i}`;
      lines.push(line(user(u, parent, i, `question ${i} ${"x".repeat(200)}`)), line(assistant(a, u, i, `answer ${i} ${"y".repeat(400)}`, 1000 + i * 300)));
      into.push(u, a);
      parent = a;
      if (label) {
        lines.push(line({ type: "label", id: `l${i}`, parentId: parent, timestamp: time(i), targetId: a, label: `L${i}` }));
        ids.labels.push(`l${i}`);
        parent = `l${i}`;
      }
      i++;
    };
    for (let t = 0; t < 100; t++) turn(ids.beforeClear, false);
    lines.push(line({ type: "reset_boundary", id: "clear", parentId: parent, timestamp: time(i) }));
    parent = "clear";
    const afterClear: string[] = [];
    for (let t = 0; t < 60; t++) turn(afterClear, true);
    const firstKept = afterClear[afterClear.length - 40]!;
    lines.push(line({ type: "compaction", id: "c1", parentId: parent, timestamp: time(i), summary: "the story so far", firstKeptEntryId: firstKept, tokensBefore: 9000 }));
    parent = "c1";
    ids.compacted = afterClear.slice(0, afterClear.length - 40);
    ids.after = afterClear.slice(afterClear.length - 40);
    for (let t = 0; t < 40; t++) turn(ids.after, false);
    const file = join(dir, "lazy.jsonl");
    writeFileSync(file, lines.join(""));
    return { file, ...ids };
  }

  it("never parses a body before the previous compaction's kept range, a label or a /clear, and every message after it once", () => {
    const { file, beforeClear, labels, compacted, after } = writeSession();
    const s = createOmpSemantics(undefined);
    for (const open of [openSessionSync, openSessionInMemory]) {
      const session = open(file);
      const parsed = countingParses(session);
      const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 2000 };
      const streamed = s.describeBranchCompaction(sessionBranchReader(session), settings);
      // The eager preparation (parses the whole branch) agrees.
      const copy = open(file);
      const joined = streamed.compactable ? { ...streamed, serializedHistory: transcriptString(streamed.serializedHistory) } : streamed;
      expect(joined).toStrictEqual(s.describePreparation(s.planCompaction(copy.pathTo(), settings)));
      expect(streamed.compactable).toBe(true);
      if (!streamed.compactable) return;
      expect(streamed.previousSummary).toBe("the story so far");
      expect(streamed.messagesToSummarize).toBeGreaterThan(10);

      for (const id of [...beforeClear, ...compacted, ...labels, "m0", "clear"]) expect(parsed.get(id), id).toBeUndefined();
      // The compaction once (its firstKeptEntryId and details).
      expect(parsed.get("c1")).toBe(1);
      for (const id of after) expect(parsed.get(id), id).toBe(1);
      // Nothing else.
      expect(parsed.size).toBe(after.length + 1);

      // The context path: the model_change, the compaction and what follows its kept range; no label, nothing before.
      parsed.clear();
      const sparse = s.contextPath!(sessionBranchReader(session));
      expect(s.buildSessionContext(sparse)).toStrictEqual(s.buildSessionContext(copy.pathTo()));
      // (The compaction's body may still be in the session's body cache from the preparation above.)
      expect([...parsed.keys()].filter((id) => id !== "c1").sort()).toStrictEqual(["m0", ...after].sort());

      // The model: the newest model_change only.
      parsed.clear();
      expect(s.branchModel(sessionBranchReader(session))).toStrictEqual({ provider: "fake", modelId: "fake-coder" });
      expect([...parsed.keys()]).toStrictEqual(["m0"]);
    }
  });
});

describe("omp's streamed prepare where a message's text depends on the list it is in", () => {
  let dir: string;
  beforeAll(() => {
    dir = fastTempDir("omp-branch-compaction-texts-");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("an interrupted-thinking notice right after the history's or the prefix's last message, a useless result before or after the cut: equal at every leaf and budget", () => {
    const time = (i: number) => new Date(Date.UTC(2026, 10, 23, 22, 0, i)).toISOString();
    const lines = [JSON.stringify({ type: "session", version: 3, id: "s-omp-texts", timestamp: time(0), cwd: "/w" })];
    let parentId: string | null = null;
    let i = 0;
    const add = (entry: Record<string, unknown>) => {
      const id = `e${i}`;
      lines.push(JSON.stringify({ ...entry, id, parentId, timestamp: time(i) }));
      parentId = id;
      i++;
    };
    const usage = (input: number) => ({ input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 });
    for (let t = 0; t < 12; t++) {
      add({ type: "message", message: { role: "user", content: `step ${t} ${"u".repeat(80)}`, timestamp: i } });
      const call = `call-${t}`;
      add({
        type: "message",
        message: {
          role: "assistant",
          // An interrupted answer ends in thinking (which omp strips while the notice follows it).
          content:
            t % 3 === 0
              ? [{ type: "text", text: `doing ${t}` }, { type: "thinking", thinking: `thinking ${t} ${"t".repeat(60)}` }]
              : [
                  { type: "thinking", thinking: `thinking ${t} ${"t".repeat(60)}` },
                  { type: "text", text: `doing ${t}` },
                  { type: "toolCall", id: call, name: t % 2 ? "read" : "write", arguments: { path: `src/f${t}.ts`, content: "x" } },
                ],
          provider: "fake",
          model: "fake-coder",
          usage: usage(500 + t * 200),
          stopReason: t % 3 === 0 ? "aborted" : "toolUse",
          timestamp: i,
        },
      });
      if (t % 3 === 0) add({ type: "custom_message", customType: "interrupted-thinking", content: "The previous thinking was interrupted.", display: false });
      add({ type: "message", message: { role: "toolResult", toolCallId: call, toolName: "read", content: [{ type: "text", text: `result ${t} ${"r".repeat(100)}` }], isError: false, useless: t % 4 === 1, timestamp: i } });
    }
    const file = join(dir, "texts.jsonl");
    writeFileSync(file, lines.join("\n") + "\n");
    const s = createOmpSemantics(undefined);
    let runs = 0;
    let compactable = 0;
    let interruptedLast = 0;
    for (const session of [openSessionSync(file), openSessionInMemory(file)]) {
      for (const leaf of [undefined, ...session.index.entries.map((m) => m.id)]) {
        const branch = sessionBranchReader(session, leaf);
        const path = session.pathTo(leaf);
        for (let keepRecentTokens = 0; keepRecentTokens <= 1200; keepRecentTokens += 7) {
          const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens };
          const streamed = s.describeBranchCompaction(branch, settings);
          const plan = s.planCompaction(path, settings);
          const joined = streamed.compactable ? { ...streamed, serializedHistory: transcriptString(streamed.serializedHistory) } : streamed;
          expect(JSON.stringify(joined)).toBe(JSON.stringify(s.describePreparation(plan)));
          runs++;
          if (!plan.compactable) continue;
          compactable++;
          const history = plan.preparation.messagesToSummarize;
          const cutOff = history.length > 0 && (history.at(-1) as { role?: string }).role === "assistant" && path.some((e, k) => e.type === "custom_message" && path[k - 1] && (path[k - 1] as { message?: unknown }).message === history.at(-1));
          if (cutOff) interruptedLast++;
        }
      }
    }
    expect(runs).toBeGreaterThan(5000);
    expect(compactable).toBeGreaterThan(2000);
    // The history's last message is an answer whose notice the cut leaves out, many times over.
    expect(interruptedLast).toBeGreaterThan(20);
  });
});

describeOmp("omp's streamed prepare on the 220 sessions omp 18.3.4 writes for the differential suite", (oracle) => {
  let dir: string;
  const sessions: GeneratedOmpSession[] = [];
  beforeAll(async () => {
    dir = fastTempDir("omp-branch-compaction-corpus-");
    const piFiles = piFilesToResume();
    const pngs = framePngs();
    for (let seed = 1; seed <= 220; seed++) sessions.push(await oracle().generate({ seed, dir: join(dir, `seed-${seed}`), piFiles, pngs }));
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("equals the whole-path preparation at every tip and every 5th entry as the leaf, read from the file and held in memory", () => {
    const s = createOmpSemantics(join(oracle().agentDir, "blobs"));
    let runs = 0;
    let compactable = 0;
    for (const session of sessions) {
      try {
        const counted = compareFile(s, session.path, 5, session.leaves);
        runs += counted.runs;
        compactable += counted.compactable;
      } catch (error) {
        throw new Error(`seed ${session.seed} (${session.path}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    console.log(`omp streamed prepare: ${sessions.length} sessions, ${runs} comparisons, ${compactable} of them compactable`);
    expect(runs).toBeGreaterThan(20_000);
    expect(compactable).toBeGreaterThan(5_000);
  }, 600_000);

  it("omp's context usage from the recount start, and the context on the context path, equal the whole branch's at every entry as the leaf", () => {
    const s = createOmpSemantics(join(oracle().agentDir, "blobs"));
    let runs = 0;
    let later = 0;
    let stubbed = 0;
    for (const session of sessions) {
      try {
        const counted = compareUsageTails(s, session.path);
        runs += counted.runs;
        later += counted.later;
        stubbed += counted.stubbed;
      } catch (error) {
        throw new Error(`seed ${session.seed} (${session.path}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    console.log(`omp usage tails: ${runs} leaves, ${later} recounted from past the root, ${stubbed} context paths with stubs`);
    expect(later).toBeGreaterThan(runs / 4);
    expect(stubbed).toBeGreaterThan(runs / 4);
  }, 600_000);
});
