// Random session files written by omp 18.3.4's own SessionManager, for the omp
// differential tests. Runs inside the Bun oracle process (bundled into the
// worker). The structure, entry ids and message contents are fully determined by
// the seed (omp's ids come from crypto.randomUUID, seeded here while generating);
// entry timestamps are omp's clock.
//
// Covers every entry type omp writes (spec §3.1): messages of every role (user
// with images, developer, assistant with thinking/signatures/redacted thinking/
// tool calls/errors/aborts/retry recovery/context snapshots, toolResult incl.
// pruned ones, bashExecution, pythonExecution, fileMention, custom, hookMessage),
// model_change with and without role, thinking_level_change (incl. null and
// "auto"), service_tier_change, mode_change, compaction of every method (soft,
// handoff, snapcompact with PNG frames in the blob store — incl. a missing one —,
// remote with an OpenAI replacement history, legacy, fromExtension; cut by omp's
// own prepareCompaction or at odd places), branch_summary (incl. the empty
// discard marker), reset_boundary (/clear), labels set and cleared, titles
// (user and auto), title_change, session_exit and the other core custom
// entries, custom_message, model_usage, ttsr_injection, credential_pin,
// session_init, branches (several leaves), and pi 0.73 / pi 1.5 files resumed
// (appended to) by omp.

import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createSeededRandom, type SeededRandom } from "../seeded-random.js";
import type { Entry, Omp, OmpSessionManager } from "./omp-modules.js";
import {
  assistantMessage,
  bashExecutionMessage,
  developerMessage,
  fileMentionMessage,
  hookMessage,
  makeText,
  pythonExecutionMessage,
  randomUsage,
  toolCalls,
  toolResultMessage,
  userMessage,
  type Frames,
} from "./random-messages-omp.js";

export interface GenerateArgs {
  seed: number;
  /** Folder the session file is written into (also the session's cwd). */
  dir: string;
  steps?: number;
  /** pi 0.73 / pi 1.5 session files; with some seeds one is copied and resumed by omp instead of a new session. */
  piFiles?: string[];
  /** PNG files used as snapcompact frames and large images (externalised into omp's blob store). */
  pngs?: string[];
}

export interface GeneratedOmpSession {
  path: string;
  seed: number;
  /** The pi file resumed, if any. */
  resumed: string | null;
  /** Every entry id in the file, in order. */
  ids: string[];
  /** The file's leaf (its last entry: the leaf omp resumes at). */
  leafId: string;
  /** Leaves worth asking about: the file's leaf first, every other tip of the tree, a few random entries. */
  leaves: string[];
  /** How often each feature was written (to check coverage over many seeds). */
  features: Record<string, number>;
}

const MODELS = ["anthropic/claude-sonnet-4-5", "openai/gpt-5", "google/gemini-2.5-pro", "fake/fake-coder"];
const ROLES = ["smol", "slow", "plan", "fallback"];
const THINKING = ["off", "minimal", "low", "medium", "high", "xhigh"];
const CORE_CUSTOM = ["user_todo_edit", "todo_hud_state", "goal-completed", "vibe-session-lifecycle", "ext:state"];

interface GenState {
  rng: SeededRandom;
  omp: Omp;
  sm: OmpSessionManager;
  clock: number;
  verbosity: number;
  frames: Frames;
  features: Record<string, number>;
}

function count(state: GenState, feature: string): void {
  state.features[feature] = (state.features[feature] ?? 0) + 1;
}

function tick(state: GenState): number {
  state.clock += state.rng.int(1, 60_000);
  return state.clock;
}

/** crypto.randomUUID (omp's entry ids) seeded for the duration of `work`. */
async function withSeededUuids<T>(rng: SeededRandom, work: () => Promise<T>): Promise<T> {
  const original = crypto.randomUUID.bind(crypto);
  const hex = () => Math.floor(rng.next() * 16).toString(16);
  const uuid = () => `${[8, 4, 4, 4, 12].map((n) => Array.from({ length: n }, hex).join("")).join("-")}` as `${string}-${string}-${string}-${string}-${string}`;
  crypto.randomUUID = uuid;
  try {
    return await work();
  } finally {
    crypto.randomUUID = original;
  }
}

export async function generateOmpSession(omp: Omp, args: GenerateArgs): Promise<GeneratedOmpSession> {
  const rng = createSeededRandom(args.seed);
  const idRng = createSeededRandom(args.seed ^ 0x5eed);
  return withSeededUuids(idRng, async () => {
    mkdirSync(args.dir, { recursive: true });
    const pngs = (args.pngs ?? []).map((file) => readFileSync(file).toString("base64"));
    const resumeFrom = args.piFiles?.length && rng.chance(0.2) ? rng.pick(args.piFiles) : null;
    let sm: OmpSessionManager;
    if (resumeFrom) {
      const copy = join(args.dir, basename(resumeFrom));
      copyFileSync(resumeFrom, copy);
      sm = await omp.SessionManager.open(copy, args.dir);
    } else {
      sm = omp.SessionManager.create(args.dir, args.dir);
    }
    const state: GenState = {
      rng,
      omp,
      sm,
      clock: 1_790_000_000_000 + args.seed * 1000,
      verbosity: rng.pick([1, 1, 2, 4, 8]),
      frames: { pngs, missingChance: 0.1 },
      features: {},
    };
    if (resumeFrom) count(state, "resumed pi file");
    if (!resumeFrom && rng.chance(0.7)) modelChange(state, rng.chance(0.8) ? undefined : rng.pick(ROLES));
    if (!resumeFrom && rng.chance(0.5)) thinkingChange(state);
    userTurn(state);
    const steps = args.steps ?? (rng.chance(0.15) ? rng.int(40, 70) : rng.int(8, 36));
    for (let i = 0; i < steps; i++) await randomStep(state);
    if (rng.chance(0.8)) sessionExit(state);
    await sm.flush();
    const path = sm.getSessionFile();
    await sm.close();
    if (!path) throw new Error("omp did not create a session file");
    const entries = sm.getEntries();
    const parents = new Set(entries.map((e) => e.parentId));
    const tips = entries.filter((e) => !parents.has(e.id)).map((e) => e.id);
    const extra = entries.length ? Array.from({ length: 3 }, () => rng.pick(entries).id) : [];
    const leafId = entries[entries.length - 1]!.id;
    return {
      path,
      seed: args.seed,
      resumed: resumeFrom,
      ids: entries.map((e) => e.id),
      leafId,
      leaves: [...new Set([leafId, ...tips, ...extra])],
      features: state.features,
    };
  });
}

async function randomStep(state: GenState): Promise<void> {
  const { rng, sm } = state;
  const roll = rng.next();
  if (roll < 0.24) userTurn(state);
  else if (roll < 0.27) failedTurn(state);
  else if (roll < 0.3) record(state, sm.appendMessage(bashExecutionMessage(rng, tick(state), state.verbosity)), "bashExecution");
  else if (roll < 0.32) record(state, sm.appendMessage(pythonExecutionMessage(rng, tick(state), state.verbosity)), "pythonExecution");
  else if (roll < 0.34) record(state, sm.appendMessage(developerMessage(rng, tick(state))), "developer");
  else if (roll < 0.36) record(state, sm.appendMessage(fileMentionMessage(rng, tick(state), state.frames)), "fileMention");
  else if (roll < 0.375) record(state, sm.appendMessage(hookMessage(rng, tick(state), "custom")), "custom role message");
  else if (roll < 0.385) record(state, sm.appendMessage(hookMessage(rng, tick(state), "hookMessage")), "hookMessage role message");
  else if (roll < 0.41) customMessageEntry(state);
  else if (roll < 0.43) record(state, sm.appendCustomEntry(rng.pick(CORE_CUSTOM), { n: rng.int(0, 9) }), "custom");
  else if (roll < 0.45) modelChange(state, rng.chance(0.6) ? undefined : rng.pick(ROLES));
  else if (roll < 0.47) thinkingChange(state);
  else if (roll < 0.48) metadataEntry(state);
  else if (roll < 0.5) label(state);
  else if (roll < 0.52) await title(state);
  else if (roll < 0.545) record(state, sm.appendResetBoundary(), "reset_boundary");
  else if (roll < 0.6) {
    sm.branch(randomEntry(state).id);
    count(state, "branch");
  } else if (roll < 0.65) branchSummary(state);
  else if (roll < 0.74) compaction(state);
  else if (roll < 0.76) await prune(state);
  else if (roll < 0.78) sessionExit(state);
  else if (roll < 0.8) modelUsage(state);
  else userTurn(state);
}

function record(state: GenState, id: string | undefined, feature: string): string | undefined {
  count(state, feature);
  return id;
}

function randomEntry(state: GenState): Entry {
  return state.rng.pick(state.sm.getEntries());
}

function modelChange(state: GenState, role: string | undefined): void {
  record(state, state.sm.appendModelChange(state.rng.pick(MODELS), role, role === "fallback"), role ? "model_change (role)" : "model_change");
}

function thinkingChange(state: GenState): void {
  const { rng } = state;
  const level = rng.chance(0.15) ? undefined : rng.pick(THINKING);
  record(state, state.sm.appendThinkingLevelChange(level, rng.chance(0.3) ? "auto" : level), level ? "thinking_level_change" : "thinking_level_change (null)");
}

/** A user request answered by the model, with tool calls (each preceded by omp's tool_execution_start entry). */
function userTurn(state: GenState): void {
  const { rng, sm } = state;
  record(state, sm.appendMessage(userMessage(rng, tick(state), state.verbosity, state.frames)), "user");
  const rounds = rng.chance(0.5) ? rng.int(1, 3) : 0;
  for (let r = 0; r < rounds; r++) {
    const calls = toolCalls(rng);
    const dangling = rng.chance(0.08);
    record(state, sm.appendMessage(assistantMessage(rng, tick(state), state.verbosity, { calls })), "assistant (tool calls)");
    const answered = dangling ? calls.slice(1) : calls;
    if (dangling) count(state, "dangling tool call");
    for (const call of answered) {
      sm.appendCustomEntry("tool_execution_start", { toolCallId: call.id, toolName: call.name, startedAt: tick(state), args: call.arguments });
      count(state, "custom:tool_execution_start");
      record(state, sm.appendMessage(toolResultMessage(rng, tick(state), state.verbosity, call)), "toolResult");
    }
  }
  if (rng.chance(0.93)) record(state, sm.appendMessage(assistantMessage(rng, tick(state), state.verbosity, {})), "assistant");
}

/** Aborted, failed, empty-error and retry-recovered assistants (omp drops them from the context). */
function failedTurn(state: GenState): void {
  const { rng, sm } = state;
  record(state, sm.appendMessage(userMessage(rng, tick(state), state.verbosity, state.frames)), "user");
  const kind = rng.pick(["aborted", "error", "empty error", "retryRecovery", "aborted with tools"] as const);
  const calls = kind === "aborted with tools" ? toolCalls(rng) : undefined;
  const message = assistantMessage(rng, tick(state), state.verbosity, {
    ...(calls ? { calls } : {}),
    stopReason: kind === "retryRecovery" ? "stop" : kind.startsWith("aborted") ? "aborted" : "error",
  });
  if (kind === "empty error") message.content = [];
  if (kind === "retryRecovery") message.retryRecovery = { attempt: 1, reason: "overloaded" };
  record(state, sm.appendMessage(message), `assistant (${kind})`);
  for (const call of calls ?? []) {
    if (rng.chance(0.5)) record(state, sm.appendMessage(toolResultMessage(rng, tick(state), state.verbosity, call)), "toolResult (after abort)");
  }
  if (rng.chance(0.6)) record(state, sm.appendMessage(assistantMessage(rng, tick(state), state.verbosity, {})), "assistant");
}

function customMessageEntry(state: GenState): void {
  const { rng, sm } = state;
  const customType = rng.pick(["ext-note", "skill-prompt", "prewalk-plan", "notice"]);
  const content = rng.chance(0.5) ? makeText(rng, 15) : [{ type: "text", text: makeText(rng, 15) }];
  record(state, sm.appendCustomMessageEntry(customType, content, rng.chance(0.7), rng.chance(0.3) ? { why: "test" } : undefined, rng.pick(["agent", "user"])), "custom_message");
}

function metadataEntry(state: GenState): void {
  const { rng, sm } = state;
  const kind = rng.int(0, 4);
  if (kind === 0) record(state, sm.appendServiceTierChange(rng.chance(0.3) ? null : { openai: rng.pick(["flex", "priority"]) }), "service_tier_change");
  else if (kind === 1) record(state, sm.appendModeChange(rng.pick(["plan", "none"]), rng.chance(0.5) ? { reason: "test" } : undefined), "mode_change");
  else if (kind === 2) record(state, sm.appendTtsrInjection([`rule-${rng.int(0, 5)}`, `rule-${rng.int(6, 9)}`]), "ttsr_injection");
  else if (kind === 3) record(state, sm.appendCredentialPin(rng.pick(["anthropic", "openai"]), "ab".repeat(32)), "credential_pin");
  else record(state, sm.appendSessionInit({ systemPrompt: makeText(rng, 30), task: makeText(rng, 10), tools: ["read", "bash"], agent: "task" }), "session_init");
}

function modelUsage(state: GenState): void {
  const { rng, sm } = state;
  const id = sm.appendModelUsage(
    { purpose: "auto-thinking", api: "openai-completions", provider: "openai", model: "gpt-5", usage: randomUsage(rng), stopReason: "stop" },
    { sessionId: sm.getSessionId(), parentId: sm.getLeafId() },
  );
  record(state, id, "model_usage");
}

function label(state: GenState): void {
  const { rng, sm } = state;
  const target = randomEntry(state).id;
  const clear = rng.chance(0.25);
  record(state, sm.appendLabelChange(target, clear ? undefined : `label ${rng.int(0, 99)}`), clear ? "label (clear)" : "label");
}

async function title(state: GenState): Promise<void> {
  const { rng, sm } = state;
  const source = rng.chance(0.6) ? "user" : "auto";
  const long = rng.chance(0.15);
  const name = long ? `${makeText(rng, 80)} ${"ü".repeat(60)}` : `title ${rng.int(0, 999)} ${makeText(rng, 4)}`;
  if (await sm.setSessionName(name, source)) count(state, `title (${source})`);
}

function sessionExit(state: GenState): void {
  const { rng, sm } = state;
  const kind = rng.pick(["normal", "normal", "signal", "fatal", "process_exit"]);
  sm.appendCustomEntry("session_exit", { reason: kind === "normal" ? "exit" : "SIGTERM", kind, recordedAt: new Date(tick(state)).toISOString() });
  count(state, `custom:session_exit`);
}

/** A branch summary as /tree writes it (a non-empty summary), or omp's empty discard marker. */
function branchSummary(state: GenState): void {
  const { rng, sm } = state;
  const target = rng.chance(0.1) ? null : randomEntry(state).id;
  if (rng.chance(0.12)) {
    record(state, sm.branchWithSummary(target, "", { kind: "discarded-entry-branch", discardedEntryId: randomEntry(state).id }), "branch_summary (discard marker)");
    return;
  }
  const summary = `User explored another conversation branch, then returned here.\nExploration summary:## Goal\n${makeText(rng, 20 * state.verbosity)}`;
  const details = rng.chance(0.7) ? { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] } : undefined;
  record(state, sm.branchWithSummary(target, summary, details, rng.chance(0.15)), "branch_summary");
}

function messageBearing(entry: Entry): boolean {
  return entry.type === "message" || entry.type === "custom_message" || entry.type === "branch_summary";
}

/** A compaction of a random method, cut where omp's own prepareCompaction cuts, or at an odd place. */
function compaction(state: GenState): void {
  const { rng, sm, omp } = state;
  const path = sm.getBranch();
  if (path.length === 0) return;
  const tok = new omp.Tokenizer(null);
  const prep = rng.chance(0.7)
    ? omp.prepareCompaction(path, { ...omp.DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: rng.pick([1, 50, 500, 2000, 20000]) }, undefined, tok)
    : undefined;
  let firstKept: string;
  if (prep) {
    firstKept = prep.firstKeptEntryId;
    count(state, "compaction cut by omp");
  } else {
    const candidates = rng.chance(0.8) ? path.filter(messageBearing) : path;
    firstKept = candidates.length && rng.chance(0.95) ? rng.pick(candidates).id : `${rng.int(0, 9)}off${rng.int(0, 9)}path`;
    count(state, "compaction cut elsewhere");
  }
  const usage = omp.getLastAssistantUsage(path);
  const tokensBefore = prep?.tokensBefore ?? (usage ? omp.calculateContextTokens(usage) : 0);
  const files = prep ? omp.computeFileLists(prep.fileOps) : { readFiles: ["src/a.ts"], modifiedFiles: [] };
  const filesBlock = omp.formatFileOperations(files.readFiles, files.modifiedFiles, prep ? new Set(prep.fileOps.read) : undefined);
  const summary = `## Goal\n${makeText(rng, 30 * state.verbosity)}${filesBlock ? `\n\n${filesBlock}` : ""}`;
  const method = rng.pick(["soft", "soft", "handoff", "snapcompact", "remote", "legacy", "extension"] as const);
  const tokensAfter = rng.chance(0.7) ? rng.int(100, 9000) : undefined;
  if (method === "soft" || method === "legacy" || method === "extension") {
    record(
      state,
      sm.appendCompaction(summary, method === "soft" && rng.chance(0.8) ? makeText(rng, 20) : undefined, firstKept, tokensBefore, {
        details: files,
        ...(method === "soft" ? { method: "soft" } : {}),
        ...(method === "extension" ? { fromExtension: true } : {}),
        ...(tokensAfter === undefined ? {} : { tokensAfter }),
      }),
      `compaction (${method})`,
    );
  } else if (method === "handoff") {
    record(state, sm.appendCompaction(`# Handoff\n\n${summary}`, undefined, firstKept, tokensBefore, { method: "handoff", details: files }), "compaction (handoff)");
  } else if (method === "snapcompact") {
    snapcompact(state, firstKept, tokensBefore);
  } else {
    const replacementHistory = [
      { type: "message", role: "user", content: [{ type: "input_text", text: makeText(rng, 10) }] },
      { type: "compaction", encrypted_content: "enc".repeat(rng.int(1, 20)) },
    ];
    record(
      state,
      sm.appendCompaction("(remote compaction)", undefined, firstKept, tokensBefore, {
        method: "remote",
        preserveData: { openaiRemoteCompaction: { provider: "openai", replacementHistory } },
      }),
      "compaction (remote)",
    );
  }
}

/** A snapcompact archive: text head, PNG frames (externalised into the blob store by omp; sometimes a missing blob), text tail. */
function snapcompact(state: GenState, firstKept: string, tokensBefore: number): void {
  const { rng, sm, frames } = state;
  const frameCount = frames.pngs.length ? rng.int(1, Math.min(3, frames.pngs.length)) : 0;
  const missing = rng.chance(frames.missingChance);
  const archiveFrames = Array.from({ length: frameCount }, (_, i) => ({
    data: missing && i === 0 ? `blob:sha256:${"0".repeat(63)}${rng.int(1, 9)}` : rng.pick(frames.pngs),
    mimeType: "image/png",
    cols: 120,
    rows: 80,
    chars: rng.int(5000, 20000),
    font: "spleen-6x12",
    variant: "bw",
    lineRepeat: 1,
    detail: "original",
  }));
  const textHead = `¶user: ${makeText(rng, 40 * state.verbosity)}`;
  const textTail = `¶ai: ${makeText(rng, 40 * state.verbosity)}`;
  const archive = {
    frames: archiveFrames,
    totalChars: textHead.length + textTail.length + 30000,
    truncatedChars: 0,
    textHead,
    textTail,
  };
  const summary = "Resume prior conversation. Earlier turns archived under HISTORY below.\n\nFILES\n- src/a.ts\n\nHISTORY";
  const short = `Archived ${archive.totalChars} chars of history onto ${frameCount} snapcompact frames`;
  record(state, sm.appendCompaction(summary, short, firstKept, tokensBefore, { method: "snapcompact", preserveData: { snapcompact: archive } }), missing ? "compaction (snapcompact, missing frame)" : "compaction (snapcompact)");
}

/** omp's in-place pruning of an old tool result (`prunedAt`), then its full atomic rewrite of the file. */
async function prune(state: GenState): Promise<void> {
  const { rng, sm } = state;
  const results = sm.getEntries().filter((e) => e.type === "message" && (e.message as { role: string }).role === "toolResult");
  if (results.length === 0) return;
  const message = rng.pick(results).message as Record<string, unknown>;
  message.content = [{ type: "text", text: rng.pick(["[Superseded by a newer read of this file]", "[Uneventful result elided]", `[Output truncated - ${rng.int(100, 9000)} tokens]`]) }];
  message.prunedAt = tick(state);
  await sm.rewriteEntries();
  count(state, "toolResult pruned (rewrite)");
}
