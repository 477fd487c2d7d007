// Random session files written by pi 1.5.2's own SessionManager, for the 1.5
// differential tests. Runs inside the Node 22 oracle process (bundled into the
// worker), so pi's class is passed in. The structure is fully determined by the
// seed (entry ids and timestamps come from pi and differ between runs).
//
// Covers every 1.x feature: system messages (a full one, then deltas: section
// patches incl. null, tools added/removed, redefinitions), context edits of every
// kind (omission, string/array replacements on user/assistant/toolResult/custom
// message targets, several on one target, edits on other branches), usage entries,
// zero usage, stale usage before compactions and edits, user images, retries and
// overflow recovery (failed assistant + omission edits), 1.5 compactions (with
// systemMessage, retain-none, fromHook), a 0.73-style compaction without
// systemMessage, branch summaries, custom and custom_message entries, bash
// executions, codemode nestedCalls, thinking blocks, labels, model and thinking
// changes (incl. "max"), branching, unknown future entry types, and mixed-era
// files (a 0.73-style start continued with 1.5 entries).

import { createSeededRandom, type SeededRandom } from "../seeded-random.js";
import {
  assistantMessage,
  bashExecutionMessage,
  customRoleMessage,
  imageBlock,
  makeText,
  randomUsage,
  toolResultMessage,
  userMessage,
  type GeneratedToolCall,
} from "../random-messages.js";

/** The part of pi 1.5.2's SessionManager the generator drives. */
export interface Pi15Writer {
  appendMessage(message: unknown): string;
  appendThinkingLevelChange(level: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendUsage(kind: string, provider: string, model: string, usage: unknown, note?: string): { id: string };
  appendCompaction(
    summary: string,
    firstKeptEntryId: string | null,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
    usage?: unknown,
  ): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string;
  appendContextEdit(targetId: string, replacement: null | { content: unknown }): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  appendSessionInfo(name: string): string;
  branch(id: string): void;
  branchWithSummary(id: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: unknown): string;
  getLeafId(): string | null;
  getEntry(id: string): { id: string; type: string; message?: { role: string } } | undefined;
  getBranch(id?: string): { id: string; type: string; message?: { role: string } }[];
  getSessionFile(): string | undefined;
  /** Private in pi; used for entries pi itself does not write (0.73-style compactions, future types). */
  _appendEntry(entry: Record<string, unknown>): void;
}

export interface Pi15SessionManagerClass {
  create(cwd: string, sessionDir: string): Pi15Writer;
}

export interface GeneratedSession15 {
  path: string;
  seed: number;
  ids: string[];
  /** How often each feature was written (to check coverage over many seeds). */
  features: Record<string, number>;
}

const FILES = ["src/a.ts", "src/b.ts", "README.md", "/abs/c.js", "docs/x y.md", "src/deep/d.ts"];
const MODELS: [string, string][] = [
  ["anthropic", "claude-sonnet-4-5"],
  ["openai", "gpt-5.1-codex"],
  ["google", "gemini-2.5-pro"],
];
const THINKING = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];
const SECTIONS = ["preamble", "tools", "rules", "docs", "cwd"];
const TOOL_NAMES = ["read", "bash", "edit", "write", "grep", "codemode"];

interface GenState {
  rng: SeededRandom;
  sm: Pi15Writer;
  ids: string[];
  clock: number;
  verbosity: number;
  features: Record<string, number>;
  /** Whether the 1.5 era has started (a system message was written). */
  era15: boolean;
}

function count(state: GenState, feature: string): void {
  state.features[feature] = (state.features[feature] ?? 0) + 1;
}

function record(state: GenState, id: string, feature?: string): string {
  state.ids.push(id);
  if (feature) count(state, feature);
  return id;
}

function tick(state: GenState): number {
  state.clock += state.rng.int(1, 60_000);
  return state.clock;
}

export function generateRandomSession15(
  SessionManager: Pi15SessionManagerClass,
  seed: number,
  dir: string,
  options: { steps?: number } = {},
): GeneratedSession15 {
  const rng = createSeededRandom(seed);
  const sm = SessionManager.create("/work/project", dir);
  const state: GenState = {
    rng,
    sm,
    ids: [],
    clock: 1_780_000_000_000 + seed * 1000,
    verbosity: rng.pick([1, 1, 2, 4, 8]),
    features: {},
    era15: false,
  };
  const mixedEra = rng.chance(0.15);
  if (mixedEra) count(state, "mixed-era start");

  if (rng.chance(0.6)) record(state, sm.appendModelChange(...rng.pick(MODELS)), "model_change");
  if (rng.chance(0.4)) record(state, sm.appendThinkingLevelChange(rng.pick(THINKING)), "thinking_level_change");
  if (!mixedEra) fullSystemMessage(state);
  userTurn(state);

  const steps = options.steps ?? (rng.chance(0.15) ? rng.int(40, 70) : rng.int(8, 36));
  for (let i = 0; i < steps; i++) {
    if (mixedEra && !state.era15 && i === Math.floor(steps / 2)) {
      // Resumed in pi 1.5: the full system message arrives mid-file.
      fullSystemMessage(state);
      count(state, "mixed-era resume");
    }
    randomStep(state);
  }

  const path = sm.getSessionFile();
  if (!path) throw new Error("pi 1.5.2 did not create a session file");
  return { path, seed, ids: state.ids, features: state.features };
}

function randomStep(state: GenState): void {
  const { rng, sm } = state;
  const roll = rng.next();
  if (roll < 0.26) userTurn(state);
  else if (roll < 0.3) retryTurn(state);
  else if (roll < 0.33) overflowRecovery(state);
  else if (roll < 0.41) contextEdit(state);
  else if (roll < 0.46) systemDelta(state);
  else if (roll < 0.49) record(state, sm.appendMessage(bashExecutionMessage(rng, tick(state), state.verbosity)), "bashExecution");
  else if (roll < 0.53) customMessageEntry(state);
  else if (roll < 0.55) record(state, sm.appendCustomEntry(rng.pick(["ext-state", "pi.virtual-model-state"]), { n: rng.int(0, 9) }), "custom");
  else if (roll < 0.57) record(state, sm.appendModelChange(...rng.pick(MODELS)), "model_change");
  else if (roll < 0.59) record(state, sm.appendThinkingLevelChange(rng.pick(THINKING)), "thinking_level_change");
  else if (roll < 0.62) usageEntry(state);
  else if (roll < 0.645) label(state);
  else if (roll < 0.655) record(state, sm.appendSessionInfo(`name ${rng.int(0, 99)}\nsecond line`), "session_info");
  else if (roll < 0.72) {
    sm.branch(rng.pick(state.ids));
    count(state, "branch");
  } else if (roll < 0.77) branchWithSummary(state);
  else if (roll < 0.86) compaction(state);
  else if (roll < 0.875) legacyCompaction(state);
  else if (roll < 0.89) record(state, sm.appendMessage(customRoleMessage(rng, tick(state))), "custom role message");
  else if (roll < 0.9) futureEntry(state);
  else if (roll < 0.92) foreignContextEdit(state);
  else if (roll < 0.95) zeroUsageAnswer(state);
  else assistantOnly(state);
}

function tool(rng: SeededRandom, name: string): Record<string, unknown> {
  return {
    name,
    description: `${name}: ${makeText(rng, 12)}`,
    parameters: { type: "object", properties: { path: { type: "string" } }, required: rng.chance(0.5) ? ["path"] : [] },
  };
}

function fullSystemMessage(state: GenState): void {
  const { rng, sm } = state;
  const sections: Record<string, string> = {};
  for (const name of SECTIONS) sections[name] = `${name}: ${makeText(rng, 20 * state.verbosity)}`;
  const tools = TOOL_NAMES.slice(0, rng.int(2, 5)).map((name) => tool(rng, name));
  const content = rng.chance(0.8) ? "" : rng.chance(0.5) ? makeText(rng, 10) : [{ type: "text", text: makeText(rng, 10) }];
  record(state, sm.appendMessage({ role: "system", content, sections, toolsAdded: tools, timestamp: tick(state) }), "system (full)");
  state.era15 = true;
}

/** A later system message: section patches (null deletes), tools added, removed or redefined. */
function systemDelta(state: GenState): void {
  const { rng, sm } = state;
  const message: Record<string, unknown> = { role: "system", content: "", timestamp: tick(state) };
  const kind = rng.int(0, 4);
  if (kind === 0 || kind === 4) {
    const sections: Record<string, string | null> = {};
    for (const name of SECTIONS) if (rng.chance(0.4)) sections[name] = rng.chance(0.3) ? null : `${name}: ${makeText(rng, 15)}`;
    if (rng.chance(0.2)) sections.extra = makeText(rng, 8);
    message.sections = sections;
    count(state, "system delta: sections");
    if (Object.values(sections).includes(null)) count(state, "system delta: null section");
  }
  if (kind === 1 || kind === 4) {
    message.toolsAdded = [tool(rng, rng.pick(TOOL_NAMES)), ...(rng.chance(0.3) ? [tool(rng, "mcp_" + rng.int(0, 3))] : [])];
    count(state, "system delta: toolsAdded");
  }
  if (kind === 2) {
    message.toolsRemoved = [{ name: rng.pick(TOOL_NAMES) }];
    count(state, "system delta: toolsRemoved");
  }
  if (kind === 3) {
    const name = rng.pick(TOOL_NAMES);
    message.toolsRemoved = [{ name }];
    message.toolsAdded = [tool(rng, name)];
    count(state, "system delta: redefinition");
  }
  if (rng.chance(0.15)) message.content = rng.chance(0.5) ? makeText(rng, 6) : [{ type: "text", text: makeText(rng, 6) }];
  record(state, sm.appendMessage(message), "system (delta)");
}

function randomToolCalls(rng: SeededRandom): GeneratedToolCall[] {
  const calls: GeneratedToolCall[] = [];
  const n = rng.int(1, 3);
  for (let i = 0; i < n; i++) {
    const id = `call_${rng.int(0, 1e9).toString(36)}`;
    const kind = rng.pick(["read", "read", "write", "edit", "bash", "codemode", "codemode", "odd"]);
    const path = rng.pick(FILES);
    if (kind === "read") calls.push({ id, name: "read", arguments: { path } });
    else if (kind === "write") calls.push({ id, name: "write", arguments: { path, content: makeText(rng, 30) } });
    else if (kind === "edit") calls.push({ id, name: "edit", arguments: { path, edits: [{ oldText: "a", newText: "b" }] } });
    else if (kind === "bash") calls.push({ id, name: "bash", arguments: { command: `cat ${path}` } });
    else if (kind === "codemode") calls.push({ id, name: "codemode", arguments: { code: `await read(${JSON.stringify(path)})` } });
    else calls.push({ id, name: rng.pick(["grep", "read"]), arguments: { pattern: "TODO", path: 42 } });
  }
  return calls;
}

/** A tool result; codemode results carry nestedCalls (files read/written inside the script). */
function toolResult(state: GenState, call: GeneratedToolCall): Record<string, unknown> {
  const { rng } = state;
  const message = toolResultMessage(rng, tick(state), state.verbosity, call);
  if (call.name === "codemode") {
    const calls = Array.from({ length: rng.int(1, 3) }, (_, i) => {
      const roll = rng.next();
      // Mostly well-formed; sometimes no arguments, a non-string path or a tool pi does not track.
      const args = roll < 0.08 ? undefined : roll < 0.14 ? { path: 42 } : { path: rng.pick(FILES), ...(rng.chance(0.3) ? { content: "x" } : {}) };
      return {
        id: `nested_${i}`,
        name: rng.pick(["read", "write", "edit", "bash", "read", "grep"]),
        ...(args === undefined ? {} : { arguments: args }),
        status: rng.pick(["success", "success", "error"]),
      };
    });
    message.nestedCalls = { calls, complete: rng.chance(0.8) };
    count(state, "nestedCalls");
  }
  if (rng.chance(0.03)) {
    // pi normalises a null content to [] in the projection (tool results are skipped by branch preparation).
    message.content = null;
    count(state, "toolResult content null");
  }
  if (rng.chance(0.1)) {
    message.usage = randomUsage(rng);
    count(state, "toolResult usage");
  }
  return message;
}

function assistant(state: GenState, options: Parameters<typeof assistantMessage>[3]): Record<string, unknown> {
  const { rng } = state;
  const message = assistantMessage(rng, tick(state), state.verbosity, options);
  if (rng.chance(0.3)) {
    message.thinkingLevel = rng.pick(THINKING);
    message.durationMs = rng.int(100, 90_000);
    message.responseModel = message.model;
  }
  if (message.content && (message.content as { type: string }[]).some((b) => b.type === "thinking")) count(state, "thinking block");
  return message;
}

/** A user message, then assistant answers with tool calls and results, then a final answer. */
function userTurn(state: GenState): void {
  const { rng, sm } = state;
  const user = userMessage(rng, tick(state), state.verbosity);
  if (Array.isArray(user.content) && (user.content as { type: string }[]).some((b) => b.type === "image")) count(state, "user image");
  record(state, sm.appendMessage(user), "user");
  const rounds = rng.int(0, 3);
  for (let r = 0; r < rounds; r++) {
    const calls = randomToolCalls(rng);
    record(state, sm.appendMessage(assistant(state, { calls })), "assistant tool calls");
    for (const call of calls) record(state, sm.appendMessage(toolResult(state, call)), "toolResult");
  }
  const ending = rng.next();
  const stopReason = ending < 0.06 ? "aborted" : ending < 0.1 ? "error" : ending < 0.13 ? "deferred" : "stop";
  record(state, sm.appendMessage(assistant(state, { stopReason })), `assistant ${stopReason}`);
}

/** pi's auto-retry: the failed attempt (and its tool results) omitted by context edits, then the retried answer. */
function retryTurn(state: GenState): void {
  const { rng, sm } = state;
  record(state, sm.appendMessage(userMessage(rng, tick(state), state.verbosity)), "user");
  const calls = rng.chance(0.5) ? randomToolCalls(rng) : undefined;
  const failed = record(state, sm.appendMessage(assistant(state, calls ? { calls } : { stopReason: "error" })));
  const results = (calls ?? []).map((call) => record(state, sm.appendMessage(toolResult(state, call))));
  if (!calls) {
    // A failed answer after its error: pi omits it before retrying.
    record(state, sm.appendContextEdit(failed, null), "context_edit null (retry)");
  } else {
    record(state, sm.appendContextEdit(failed, null), "context_edit null (retry)");
    for (const id of results) if (rng.chance(0.8)) record(state, sm.appendContextEdit(id, null), "context_edit null (retry tool result)");
  }
  record(state, sm.appendMessage(assistant(state, { stopReason: "stop" })), "assistant stop");
  count(state, "retry");
}

/** Overflow / length recovery: a huge paste, a failed (length/error) answer omitted, then a short answer or nothing. */
function overflowRecovery(state: GenState): void {
  const { rng, sm } = state;
  record(state, sm.appendMessage({ role: "user", content: [{ type: "text", text: "paste:" + "y".repeat(rng.int(3000, 30000)) }], timestamp: tick(state) }), "user");
  const failed = assistant(state, { stopReason: rng.pick(["error", "length"]), usage: randomUsage(rng) });
  if (failed.stopReason === "error") failed.errorMessage = "prompt is too long: context overflow";
  const failedId = record(state, sm.appendMessage(failed));
  record(state, sm.appendContextEdit(failedId, null), "context_edit null (overflow)");
  if (rng.chance(0.5)) record(state, sm.appendMessage(assistant(state, { stopReason: "stop" })), "assistant stop");
  count(state, "overflow recovery");
}

/** A context edit on a random editable entry of the active branch (pi refuses others). */
function contextEdit(state: GenState): void {
  const { rng, sm } = state;
  const editable = sm
    .getBranch()
    .filter(
      (e) =>
        e.type === "custom_message" ||
        (e.type === "message" && ["user", "assistant", "toolResult"].includes(e.message!.role)),
    );
  if (editable.length === 0) return;
  const customs = editable.filter((e) => e.type === "custom_message");
  const target = customs.length > 0 && rng.chance(0.25) ? rng.pick(customs) : rng.pick(editable);
  const role = target.type === "custom_message" ? "custom_message" : target.message!.role;
  const times = rng.chance(0.2) ? 2 : 1;
  for (let t = 0; t < times; t++) {
    const roll = rng.next();
    let replacement: null | { content: unknown };
    let kind: string;
    if (roll < 0.4) {
      replacement = null;
      kind = "null";
    } else if (roll < 0.75 || role === "assistant") {
      replacement = { content: `[edited] ${makeText(rng, 10 * state.verbosity)}` };
      kind = "string";
    } else {
      replacement = { content: [{ type: "text", text: `[edited array] ${makeText(rng, 8)}` }, ...(rng.chance(0.2) ? [imageBlock(rng)] : [])] };
      kind = "array";
    }
    if (role === "assistant" && rng.chance(0.3) && replacement) {
      replacement = { content: [{ type: "text", text: "[edited assistant]" }, { type: "toolCall", id: "call_x", name: "read", arguments: { path: "src/a.ts" } }] };
      kind = "array";
    }
    record(state, sm.appendContextEdit(target.id, replacement), `context_edit ${kind} on ${role}`);
  }
  if (times > 1) count(state, "several edits on one target");
}

function customMessageEntry(state: GenState): void {
  const { rng, sm } = state;
  const content = rng.chance(0.5)
    ? makeText(rng, 30 * state.verbosity)
    : [{ type: "text", text: makeText(rng, 20 * state.verbosity) }, ...(rng.chance(0.3) ? [imageBlock(rng)] : [])];
  record(state, sm.appendCustomMessageEntry(rng.pick(["note", "reminder"]), content, rng.chance(0.7), rng.chance(0.5) ? { k: 1 } : undefined), "custom_message");
}

function usageEntry(state: GenState): void {
  const { rng, sm } = state;
  const [provider, model] = rng.pick(MODELS);
  const entry = sm.appendUsage("cache_warm", provider, model, randomUsage(rng), rng.chance(0.3) ? "idle warm" : undefined);
  record(state, entry.id, "usage entry");
}

function zeroUsageAnswer(state: GenState): void {
  const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  record(state, state.sm.appendMessage(assistant(state, { stopReason: "stop", usage: zero })), "zero usage");
}

function assistantOnly(state: GenState): void {
  record(state, state.sm.appendMessage(assistant(state, { usage: randomUsage(state.rng) })), "assistant only");
}

function label(state: GenState): void {
  const { rng, sm } = state;
  record(state, sm.appendLabelChange(rng.pick(state.ids), rng.chance(0.7) ? `label-${rng.int(0, 9)}` : undefined), "label");
}

function fileDetails(rng: SeededRandom): unknown {
  const pick = () => FILES.filter(() => rng.chance(0.3));
  return rng.chance(0.8) ? { readFiles: pick(), modifiedFiles: pick() } : undefined;
}

function summaryUsage(rng: SeededRandom): unknown {
  return rng.chance(0.6) ? randomUsage(rng) : undefined;
}

function branchWithSummary(state: GenState): void {
  const { rng, sm } = state;
  const from = rng.chance(0.1) ? null : rng.pick(state.ids);
  const summary = rng.chance(0.1) ? "" : `Branch summary ${rng.int(0, 999)}: ${makeText(rng, 40 * state.verbosity)}`;
  record(state, sm.branchWithSummary(from, summary, fileDetails(rng), rng.chance(0.25) ? true : undefined, summaryUsage(rng)), "branch_summary");
}

/** A 1.5 compaction (pi adds systemMessage): kept entry on the branch, retain-none (null → own id), or elsewhere. */
function compaction(state: GenState): void {
  const { rng, sm } = state;
  const leaf = sm.getLeafId();
  if (!leaf) return;
  const branch = sm.getBranch();
  const roll = rng.next();
  let firstKept: string | null;
  if (roll < 0.7) firstKept = rng.pick(branch).id;
  else if (roll < 0.85) firstKept = null;
  else if (roll < 0.95) firstKept = leaf;
  else firstKept = rng.pick(state.ids);
  const summary = `## Goal\nCompacted ${rng.int(0, 999)}. ${makeText(rng, 60 * state.verbosity)}`;
  const fromHook = rng.chance(0.2) ? true : rng.chance(0.5) ? false : undefined;
  record(state, sm.appendCompaction(summary, firstKept, rng.int(1000, 200000), fileDetails(rng), fromHook, summaryUsage(rng)), "compaction");
  if (firstKept === null) count(state, "compaction retain-none");
  if (fromHook) count(state, "compaction fromHook");
  if (state.era15) count(state, "compaction with systemMessage");
}

/** A compaction as a 0.73 tool appends it: no systemMessage, no usage, kept entry on the branch. */
function legacyCompaction(state: GenState): void {
  const { rng, sm } = state;
  const leaf = sm.getLeafId();
  if (!leaf) return;
  const id = `c${rng.int(0, 0xfffffff).toString(16).padStart(7, "0")}`;
  sm._appendEntry({
    type: "compaction",
    id,
    parentId: leaf,
    timestamp: new Date(tick(state)).toISOString(),
    summary: `Legacy summary ${rng.int(0, 99)}: ${makeText(rng, 30)}`,
    firstKeptEntryId: rng.chance(0.1) ? "deadbeef" : rng.pick(sm.getBranch()).id,
    tokensBefore: rng.int(1000, 90000),
    details: fileDetails(rng),
  });
  record(state, id, "compaction without systemMessage");
}

/** Entry types of a later pi, written as pi writes any entry: shown by us, skipped by pi. */
function futureEntry(state: GenState): void {
  const { rng, sm } = state;
  const id = `f${rng.int(0, 0xfffffff).toString(16).padStart(7, "0")}`;
  sm._appendEntry({ type: "future_thing", id, parentId: sm.getLeafId(), timestamp: new Date(tick(state)).toISOString(), data: rng.int(0, 9) });
  record(state, id, "unknown entry type");
}

/**
 * A context edit written past pi's checks (as an extension or another tool may):
 * any target — a system message, a compaction, a branch summary, a bash
 * execution, an entry on another branch, a missing id.
 */
function foreignContextEdit(state: GenState): void {
  const { rng, sm } = state;
  const id = `e${rng.int(0, 0xfffffff).toString(16).padStart(7, "0")}`;
  const targetId = rng.chance(0.1) ? "missing0" : rng.chance(0.6) ? rng.pick(sm.getBranch()).id : rng.pick(state.ids);
  const roll = rng.next();
  const replacement = roll < 0.5 ? null : roll < 0.8 ? { content: `[foreign] ${makeText(rng, 6)}` } : { content: [{ type: "text", text: "[foreign array]" }] };
  sm._appendEntry({ type: "context_edit", id, parentId: sm.getLeafId(), timestamp: new Date(tick(state)).toISOString(), targetId, replacement });
  const target = sm.getEntry(targetId);
  record(state, id, `foreign context_edit on ${target ? (target.type === "message" ? target.message!.role : target.type) : "missing"}`);
}
