// The omp differential corpus: 220 random sessions written by omp 18.3.4's own
// SessionManager, each answered by omp at random leaves. Proves the generator
// covers every entry type omp writes, that omp loads back exactly what it wrote,
// that the sessions are reproducible from their seed, and that omp answers at
// every leaf (the differential suite then compares the product with these).

import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { framePngs, generateOmpCorpus, piFilesToResume, type OmpCorpusItem } from "../../support/omp/corpus.js";
import { describeOmp, fastTempDir } from "../../support/omp/oracle.js";

/** Entry kinds (type, `message:<role>`, `custom:<customType>`) the corpus must contain, per spec §3.1. */
const REQUIRED_KINDS = [
  "message:user",
  "message:assistant",
  "message:toolResult",
  "message:bashExecution",
  "message:pythonExecution",
  "message:developer",
  "message:fileMention",
  "message:custom",
  "message:hookMessage",
  "model_change",
  "thinking_level_change",
  "service_tier_change",
  "mode_change",
  "compaction",
  "branch_summary",
  "reset_boundary",
  "custom:session_exit",
  "custom:tool_execution_start",
  "custom_message",
  "label",
  "title_change",
  "model_usage",
  "ttsr_injection",
  "credential_pin",
  "session_init",
];
const REQUIRED_FEATURES = [
  "model_change (role)",
  "thinking_level_change (null)",
  "compaction (soft)",
  "compaction (handoff)",
  "compaction (snapcompact)",
  "compaction (snapcompact, missing frame)",
  "compaction (remote)",
  "compaction (legacy)",
  "compaction (extension)",
  "compaction cut by omp",
  "compaction cut elsewhere",
  "branch_summary (discard marker)",
  "label (clear)",
  "title (user)",
  "title (auto)",
  "toolResult pruned (rewrite)",
  "dangling tool call",
  "assistant (aborted)",
  "assistant (error)",
  "assistant (empty error)",
  "assistant (retryRecovery)",
  "resumed pi file",
  "branch",
];

function kinds(file: string): { kinds: Set<string>; titleSlot: boolean; methods: Set<string> } {
  const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
  const out = new Set<string>();
  const methods = new Set<string>();
  for (const e of lines) {
    out.add(e.type === "message" ? `message:${e.message.role}` : e.type === "custom" ? `custom:${e.customType}` : e.type);
    if (e.type === "compaction") methods.add(e.method ?? (e.fromExtension ? "extension" : "legacy"));
  }
  return { kinds: out, titleSlot: lines[0]?.type === "title", methods };
}

describeOmp("220 random sessions written by omp 18.3.4's SessionManager, answered by omp at random leaves", (oracle) => {
  let items: OmpCorpusItem[] = [];
  let dir = "";
  beforeAll(async () => {
    ({ dir, items } = await generateOmpCorpus(oracle(), { ask: { settings: [{}, { keepRecentTokens: 2000 }, { keepRecentTokens: 1, reserveTokens: 40000 }] } }));
  }, 600_000);
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("omp loads back every session exactly as it wrote it, and answers at every leaf", () => {
    expect(items).toHaveLength(220);
    for (const { session, answers } of items) {
      const where = `seed ${session.seed} (${session.path})`;
      if ("error" in answers.open) throw new Error(`${where}: omp refuses to open it: ${answers.open.error}`);
      expect(answers.open.entryIds, where).toEqual(session.ids);
      expect(answers.open.leafId, where).toBe(session.leafId);
      expect(answers.load.invalidHeader, where).toBe(false);
      expect(answers.leaves.map((l) => l.leafId), where).toEqual(session.leaves);
      for (const leaf of answers.leaves) {
        expect(leaf.path.at(-1), where).toBe(leaf.leafId);
        expect(leaf.tokens.perMessage, where).toHaveLength(leaf.context.messages.length);
        expect(leaf.preparations, where).toHaveLength(3);
      }
    }
  });

  it("covers every entry type, message role and compaction method omp writes, titles, branches and resumed pi files", () => {
    const seen = new Set<string>();
    const methods = new Set<string>();
    const features: Record<string, number> = {};
    let withSlot = 0;
    let resumedWithoutSlot = 0;
    for (const { session } of items) {
      const k = kinds(session.path);
      k.kinds.forEach((x) => seen.add(x));
      k.methods.forEach((x) => methods.add(x));
      if (k.titleSlot) withSlot++;
      else if (session.resumed) resumedWithoutSlot++;
      for (const [name, n] of Object.entries(session.features)) features[name] = (features[name] ?? 0) + n;
    }
    expect(REQUIRED_KINDS.filter((kind) => !seen.has(kind))).toEqual([]);
    expect([...methods].sort()).toEqual(["extension", "handoff", "legacy", "remote", "snapcompact", "soft"]);
    expect(REQUIRED_FEATURES.filter((f) => !features[f])).toEqual([]);
    expect(withSlot).toBeGreaterThan(150);
    // A pi file omp only appended to keeps its first line; one it rewrote gets a title slot.
    expect(resumedWithoutSlot).toBeGreaterThan(0);
    expect(items.filter((i) => i.session.leaves.length > 3).length).toBeGreaterThan(100);
  });

  it("has answers that differ where the sessions do: contexts, cuts, thresholds, branch preparations", () => {
    const leaves = items.flatMap((i) => i.answers.leaves);
    const roles = new Set(leaves.flatMap((l) => l.context.messages.map((m) => m.role)));
    expect([...roles].sort()).toEqual(
      // "system": pi 1.5 system messages in resumed pi files stay in omp's agent context (dropped by convertToLlm).
      ["assistant", "bashExecution", "branchSummary", "compactionSummary", "custom", "developer", "fileMention", "hookMessage", "pythonExecution", "system", "toolResult", "user"].sort(),
    );
    expect(leaves.filter((l) => l.preparations[1] !== null).length).toBeGreaterThan(200);
    expect(leaves.filter((l) => l.preparations[1]?.isSplitTurn).length).toBeGreaterThan(20);
    expect(leaves.filter((l) => l.thresholds.some((t) => t.shouldCompactAtUsage)).length).toBeGreaterThan(20);
    const summaries = leaves.flatMap((l) => l.context.messages.filter((m) => m.role === "compactionSummary")) as { blocks?: { type: string; data?: string; text?: string }[] }[];
    // Snapcompact frames resolved from omp's blob store (images), and a missing blob's notice.
    expect(summaries.filter((m) => m.blocks?.some((b) => b.type === "image" && b.data?.startsWith("sha256:"))).length).toBeGreaterThan(5);
    expect(summaries.filter((m) => m.blocks?.some((b) => b.text?.includes("unavailable here"))).length).toBeGreaterThan(0);
    // Pruned tool results and the omp-only LLM roles.
    const llm = leaves.flatMap((l) => l.llm);
    expect(new Set(llm.map((m) => m.role))).toEqual(new Set(["user", "assistant", "toolResult", "developer"]));
    const branches = items.flatMap((i) => i.answers.branches);
    expect(branches.filter((b) => b.entryIds.length > 0 && b.prepared[0]!.messages.length > 0).length).toBeGreaterThan(100);
  });

  it("is reproducible: a seed writes the same entries (ids and structure) again", async () => {
    const again = fastTempDir("omp-seed-again-");
    try {
      for (const seed of [3, 77]) {
        const first = items[seed - 1]!.session;
        const second = await oracle().generate({ seed, dir: join(again, String(seed)), piFiles: piFilesToResume(), pngs: framePngs() });
        expect(second.ids).toEqual(first.ids);
        expect(second.features).toEqual(first.features);
        expect(second.leaves).toEqual(first.leaves);
      }
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });
});
