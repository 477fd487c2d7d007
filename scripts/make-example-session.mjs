#!/usr/bin/env node
// Writes examples/todo-cli-session.jsonl: a realistic pi session (adding
// `--json` and `done` to a small TypeScript todo CLI) written by pi's own
// SessionManager, tools and branch summarizer, then checks it with pi.
//
//   node scripts/make-example-session.mjs
//
// The output is byte-for-byte reproducible: pi's random ids and clock are
// replaced by seeded ones inside this process (examples/generator/lib/deterministic.mjs).
// EXAMPLE_SNAPSHOT_DIR=dir also writes the fictional project at each checkpoint,
// to compile and test it for real while editing the scenario.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createClock, createRng, installDeterminism, uuidV7 } from "../examples/generator/lib/deterministic.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const GENERATOR = join(ROOT, "examples", "generator");
const OUT = join(ROOT, "examples", "todo-cli-session.jsonl");
const CWD = "/home/user/projects/todo-cli";
const SEED = "pi-sessions/examples/todo-cli-session";
const START = "2026-02-17T14:03:12.408Z";

const clock = createClock(START);
installDeterminism(SEED, clock);

// pi is imported only now, so its modules see the seeded randomUUID.
const piDist = join(ROOT, "node_modules", "@mariozechner", "pi-coding-agent", "dist");
const fromPi = (path) => import(pathToFileURL(join(piDist, path)).href);
const pi = await import("@mariozechner/pi-coding-agent");
const piAi = await import("@mariozechner/pi-ai");
const bashExecutor = await fromPi("core/bash-executor.js");
const { prepareCompaction } = await fromPi("core/compaction/compaction.js");
const { computeFileLists } = await fromPi("core/compaction/utils.js");
const diffLib = await import(pathToFileURL(createRequire(join(piDist, "index.js")).resolve("diff")).href);

const { VirtualProject } = await import("../examples/generator/lib/virtual-project.mjs");
const { SessionRecorder } = await import("../examples/generator/lib/session-recorder.mjs");
const { vitestRun } = await import("../examples/generator/lib/vitest-output.mjs");
const { explore, SESSION_NAME } = await import("../examples/generator/scenario/01-explore.mjs");
const { jsonFlag } = await import("../examples/generator/scenario/02-json-flag.mjs");
const { rename } = await import("../examples/generator/scenario/03-rename.mjs");
const { archiveBranch, ARCHIVE_BRANCH_SUMMARY } = await import("../examples/generator/scenario/04-archive-branch.mjs");
const { doneFlag } = await import("../examples/generator/scenario/05-done.mjs");
const { cleanup } = await import("../examples/generator/scenario/06-cleanup.mjs");
const { release } = await import("../examples/generator/scenario/07-release.mjs");

const model = piAi.getModel("anthropic", "claude-sonnet-4-5");
const rng = createRng(SEED);
const project = VirtualProject.fromDirectory(join(GENERATOR, "project"), CWD, diffLib);

// The branch summary is written by pi's generateBranchSummary; only the model's
// reply is scripted, through pi-ai's faux provider (same context window as the session's model).
const faux = piAi.registerFauxProvider({
  api: "scripted-branch-summary",
  provider: model.provider,
  models: [{ id: model.id, reasoning: true, contextWindow: model.contextWindow, maxTokens: model.maxTokens }],
});
const fauxSummarizer = { model: faux.getModel(), reply: (text) => faux.setResponses([piAi.fauxAssistantMessage(text)]) };

const sessionDir = mkdtempSync(join(tmpdir(), "pi-example-session-"));
try {
  const sm = pi.SessionManager.create(CWD, sessionDir);
  sm.newSession({ id: uuidV7(clock.now(), SEED) });
  const s = new SessionRecorder({ pi, piAi, bashExecutor, sm, clock, rng, project, model, fauxSummarizer });
  const ctx = {
    vitest: (options) => vitestRun({ project, rng, ...options }),
    checkpoint: (name) => snapshot(project, name),
    commitHash: () => Array.from({ length: 7 }, () => "0123456789abcdef"[rng.int(0, 15)]).join(""),
    /** `git log --oneline`, newest first, as it was when the session started. */
    log: ["9a8b3f0 Add --sort and --due flags", "e51c2aa Colour output, respect NO_COLOR", "3d41f87 Save atomically via a temp file"],
  };

  const ids = {};
  Object.assign(ids, await explore(s, ctx));
  Object.assign(ids, await jsonFlag(s, ctx));
  Object.assign(ids, await rename(s, ctx));
  Object.assign(ids, await archiveBranch(s, ctx));
  // The user runs /tree, picks the archive request (its text goes back to the editor) and asks for a summary.
  ids.branch = await s.branchWithSummary(ids.archiveRequest, ARCHIVE_BRANCH_SUMMARY);
  Object.assign(ids, await doneFlag(s, ctx));
  Object.assign(ids, await cleanup(s, ctx));
  Object.assign(ids, await release(s, ctx));

  copyFileSync(sm.getSessionFile(), OUT);

  // What the scenario intends, from our own bookkeeping (not from reading the file back).
  const abandonedFrom = s.messageIds.indexOf(ids.archiveRequest);
  const abandonedTo = s.messageIds.indexOf(ids.abandonedLeaf);
  const expected = {
    ...ids,
    entries: sm.getEntries().length,
    contextMessages: s.messageIds.length - (abandonedTo - abandonedFrom + 1) + 1, // + the branch summary
    counts: s.counts,
    // What the abandoned branch read and changed through pi's file tools (see 04-archive-branch.mjs).
    branchFiles: { readFiles: ["src/store.ts"], modifiedFiles: ["src/archive.ts", "src/cli.ts", "src/config.ts"] },
  };
  verify(OUT, expected);
} finally {
  rmSync(sessionDir, { recursive: true, force: true });
}

function snapshot(p, name) {
  const dir = process.env.EXAMPLE_SNAPSHOT_DIR;
  if (!dir) return;
  for (const [path, content] of p.files) {
    const target = join(dir, name, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/** Open the written file with pi (on a copy: pi may rewrite files it opens) and check the intended shape. */
function verify(file, expected) {
  const checkDir = mkdtempSync(join(tmpdir(), "pi-example-check-"));
  try {
    const copy = join(checkDir, "session.jsonl");
    copyFileSync(file, copy);
    const sm = pi.SessionManager.open(copy);
    const problems = [];
    const check = (ok, message) => {
      if (!ok) problems.push(message);
    };
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

    const entries = sm.getEntries();
    const leaf = sm.getLeafEntry();
    check(entries.length === expected.entries, `entry count ${entries.length}, expected ${expected.entries}`);
    check(sm.getLeafId() === expected.last, `leaf ${sm.getLeafId()}, expected the last answer ${expected.last}`);
    check(leaf?.type === "message" && leaf.message.role === "assistant" && leaf.message.stopReason === "stop", "leaf is not a finished assistant answer");
    check(sm.getHeader()?.cwd === CWD, "header cwd");
    check(sm.getSessionName() === SESSION_NAME, `session name ${sm.getSessionName()}`);
    check(sm.getLabel(expected.testsGreen) === "tests green", "label 'tests green' missing");
    check(!entries.some((e) => e.type === "compaction"), "the demo's compaction must be the first");

    // Tree: one root; exactly one fork, at the answer the user went back to.
    const roots = sm.getTree();
    const forks = [];
    const stack = [...roots];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node.children.length > 1) forks.push(node);
      stack.push(...node.children);
    }
    check(roots.length === 1, `${roots.length} roots`);
    check(forks.length === 1 && forks[0].entry.id === expected.branch.newLeafId, "expected exactly one fork, at the branch point");
    const summary = entries.find((e) => e.type === "branch_summary");
    check(
      same(forks[0]?.children.map((c) => c.entry.id), [expected.archiveRequest, summary?.id]),
      "fork children should be the abandoned request, then the branch summary",
    );
    check(summary?.fromId === expected.branch.newLeafId && summary.parentId === expected.branch.newLeafId, "branch summary placement");
    check(same(summary?.details, expected.branchFiles), `branch summary details ${JSON.stringify(summary?.details)}`);
    check(summary?.summary.startsWith("The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n## Goal"), "branch summary preamble");
    check(/<read-files>\nsrc\/store.ts\n<\/read-files>/.test(summary?.summary ?? "") && summary?.summary.includes("<modified-files>\nsrc/archive.ts"), "branch summary file blocks");

    const context = sm.buildSessionContext();
    check(context.messages.length === expected.contextMessages, `context has ${context.messages.length} messages, expected ${expected.contextMessages}`);
    check(context.messages[0]?.role === "user", "context should start with the first user message");
    check(context.messages.some((m) => m.role === "branchSummary"), "branch summary missing from the context");
    check(context.thinkingLevel === "high" && same(context.model, { provider: "anthropic", modelId: "claude-sonnet-4-5" }), "thinking level / model");
    const longFailure = context.messages.find((m) => m.role === "toolResult" && m.isError && m.content[0].text.length > 2000);
    check(longFailure !== undefined, "no long failing test run (isError, over 2000 characters) on the main branch");

    const tokens = context.messages.reduce((n, m) => n + pi.estimateTokens(m), 0);
    check(tokens >= 45000 && tokens <= 75000, `main branch is ${tokens} estimated tokens, aim for 50-70k`);
    const bytes = statSync(file).size;
    check(bytes < 400 * 1024, `file is ${bytes} bytes, keep it under 400 KB`);

    const preparation = prepareCompaction(sm.getBranch(), pi.DEFAULT_COMPACTION_SETTINGS);
    check(preparation !== undefined && preparation.messagesToSummarize.length > 0, "prepareCompaction has nothing to summarize");

    if (problems.length > 0) throw new Error(`example session is not what was intended:\n- ${problems.join("\n- ")}`);
    const files = computeFileLists(preparation.fileOps);
    console.log(
      JSON.stringify(
        {
          file: relative(ROOT, file),
          bytes,
          entries: entries.length,
          byType: countBy(entries, (e) => (e.type === "message" ? `message:${e.message.role}` : e.type)),
          leaf: sm.getLeafId(),
          branch: {
            forkAt: expected.branch.newLeafId,
            abandonedRequest: expected.archiveRequest,
            abandonedLeaf: expected.abandonedLeaf,
            summarizedByPi: expected.branch.abandoned.length,
            summary: summary.id,
          },
          label: { target: expected.testsGreen, text: "tests green" },
          contextMessages: context.messages.length,
          estimatedTokens: tokens,
          compaction: {
            firstKeptEntryId: preparation.firstKeptEntryId,
            messagesToSummarize: preparation.messagesToSummarize.length,
            turnPrefixMessages: preparation.turnPrefixMessages.length,
            isSplitTurn: preparation.isSplitTurn,
            tokensBefore: preparation.tokensBefore,
            readFiles: files.readFiles,
            modifiedFiles: files.modifiedFiles,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(checkDir, { recursive: true, force: true });
  }
}

function countBy(items, key) {
  const counts = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
