// Random session files written by pi's own SessionManager (0.73.1), for the
// differential tests. The structure is fully determined by the seed (entry
// ids and entry timestamps come from pi and differ between runs). pi writes
// nothing until the first assistant message exists, so every session starts
// with a user turn that has an answer.

import { SessionManager } from "@mariozechner/pi-coding-agent";
import { createSeededRandom, type SeededRandom } from "./seeded-random.js";
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
} from "./random-messages.js";

/** The part of pi's SessionManager the generator drives. */
interface PiWriter {
  appendMessage(message: unknown): string;
  appendThinkingLevelChange(level: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendCompaction(summary: string, firstKeptEntryId: string, tokensBefore: number, details?: unknown, fromHook?: boolean): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  appendSessionInfo(name: string): string;
  branch(id: string): void;
  branchWithSummary(id: string | null, summary: string, details?: unknown, fromHook?: boolean): string;
  resetLeaf(): void;
  getLeafId(): string | null;
  getBranch(id?: string): { id: string; type: string }[];
  getSessionFile(): string | undefined;
  /** Private in pi; used to write entry types this pi version does not know, exactly as pi writes entries. */
  _appendEntry(entry: Record<string, unknown>): void;
}

export interface GeneratedSession {
  path: string;
  seed: number;
  /** Ids in the order they were appended (file order). */
  ids: string[];
}

export interface GenerateOptions {
  /** Number of generation steps; default 8–40 from the seed. */
  steps?: number;
}

const FILES = ["src/a.ts", "src/b.ts", "README.md", "/abs/c.js", "docs/x y.md", "src/deep/d.ts", "./rel.txt"];
const MODELS: [string, string][] = [
  ["anthropic", "claude-sonnet-4-5"],
  ["openai", "gpt-5.1-codex"],
  ["google", "gemini-2.5-pro"],
];
const THINKING = ["off", "minimal", "low", "medium", "high", "xhigh"];

export function generateRandomSession(seed: number, dir: string, options: GenerateOptions = {}): GeneratedSession {
  const rng = createSeededRandom(seed);
  const sm = SessionManager.create("/work/project", dir) as unknown as PiWriter;
  const state: GenState = { rng, sm, ids: [], clock: 1_760_000_000_000 + seed * 1000, verbosity: rng.pick([1, 1, 2, 6]) };

  if (rng.chance(0.4)) record(state, sm.appendModelChange(...rng.pick(MODELS)));
  if (rng.chance(0.3)) record(state, sm.appendThinkingLevelChange(rng.pick(THINKING)));
  userTurn(state);

  const steps = options.steps ?? rng.int(8, 40);
  for (let i = 0; i < steps; i++) randomStep(state);

  const path = sm.getSessionFile();
  if (!path) throw new Error("pi did not create a session file");
  return { path, seed, ids: state.ids };
}

interface GenState {
  rng: SeededRandom;
  sm: PiWriter;
  ids: string[];
  clock: number;
  verbosity: number;
}

function record(state: GenState, id: string): string {
  state.ids.push(id);
  return id;
}

function tick(state: GenState): number {
  state.clock += state.rng.int(1, 60_000);
  return state.clock;
}

function randomStep(state: GenState): void {
  const { rng, sm } = state;
  const roll = rng.next();
  if (roll < 0.38) userTurn(state);
  else if (roll < 0.44) record(state, sm.appendMessage(bashExecutionMessage(rng, tick(state), state.verbosity)));
  else if (roll < 0.49) customMessageEntry(state);
  else if (roll < 0.52) record(state, sm.appendCustomEntry(rng.pick(["ext-state", "todo"]), { n: rng.int(0, 9) }));
  else if (roll < 0.55) record(state, sm.appendModelChange(...rng.pick(MODELS)));
  else if (roll < 0.58) record(state, sm.appendThinkingLevelChange(rng.pick(THINKING)));
  else if (roll < 0.62) label(state);
  else if (roll < 0.64) record(state, sm.appendSessionInfo(rng.chance(0.8) ? `name ${rng.int(0, 99)}` : ""));
  else if (roll < 0.73) sm.branch(rng.pick(state.ids));
  else if (roll < 0.79) branchWithSummary(state);
  else if (roll < 0.87) compaction(state);
  else if (roll < 0.89) record(state, sm.appendMessage(customRoleMessage(rng, tick(state))));
  else if (roll < 0.91) unknownEntry(state);
  else if (roll < 0.92) sm.resetLeaf();
  else assistantOnly(state);
}

/** A user message, then assistant answers with tool calls and their results, then a final answer (sometimes aborted or failed). */
function userTurn(state: GenState): void {
  const { rng, sm } = state;
  record(state, sm.appendMessage(userMessage(rng, tick(state), state.verbosity)));
  const rounds = rng.int(0, 3);
  for (let r = 0; r < rounds; r++) {
    const calls = randomToolCalls(rng);
    record(state, sm.appendMessage(assistantMessage(rng, tick(state), state.verbosity, { calls })));
    for (const call of calls) {
      record(state, sm.appendMessage(toolResultMessage(rng, tick(state), state.verbosity, call)));
    }
  }
  const ending = rng.next();
  const stopReason = ending < 0.08 ? "aborted" : ending < 0.14 ? "error" : "stop";
  record(state, sm.appendMessage(assistantMessage(rng, tick(state), state.verbosity, { stopReason })));
}

function assistantOnly(state: GenState): void {
  record(state, state.sm.appendMessage(assistantMessage(state.rng, tick(state), state.verbosity, { usage: randomUsage(state.rng) })));
}

function randomToolCalls(rng: SeededRandom): GeneratedToolCall[] {
  const calls: GeneratedToolCall[] = [];
  const count = rng.int(1, 3);
  for (let i = 0; i < count; i++) {
    const id = `call_${rng.int(0, 1e9).toString(36)}`;
    const kind = rng.pick(["read", "read", "write", "edit", "edit", "bash", "grep", "edit-old"]);
    const path = rng.pick(FILES);
    if (kind === "read") calls.push({ id, name: "read", arguments: rng.chance(0.2) ? { path, offset: 10, limit: 50 } : { path } });
    else if (kind === "write") calls.push({ id, name: "write", arguments: { path, content: makeText(rng, 40) } });
    else if (kind === "edit") calls.push({ id, name: "edit", arguments: { path, edits: [{ oldText: "a", newText: "b" }] } });
    else if (kind === "edit-old") calls.push({ id, name: "edit", arguments: { path, oldText: "x", newText: "y" } });
    else if (kind === "bash") calls.push({ id, name: "bash", arguments: { command: `sed -i s/a/b/ ${path}` } });
    else calls.push({ id, name: "grep", arguments: { pattern: "TODO", path: rng.chance(0.5) ? path : 42 } });
  }
  return calls;
}

function customMessageEntry(state: GenState): void {
  const { rng, sm } = state;
  const content = rng.chance(0.5)
    ? makeText(rng, 30 * state.verbosity)
    : [{ type: "text", text: makeText(rng, 20) }, ...(rng.chance(0.4) ? [imageBlock(rng)] : [])];
  record(state, sm.appendCustomMessageEntry(rng.pick(["note", "reminder"]), content, rng.chance(0.7), rng.chance(0.5) ? { k: 1 } : undefined));
}

function label(state: GenState): void {
  const { rng, sm } = state;
  const target = rng.pick(state.ids);
  record(state, sm.appendLabelChange(target, rng.chance(0.7) ? `label-${rng.int(0, 9)}` : undefined));
}

function fileDetails(rng: SeededRandom): unknown {
  const pick = () => FILES.filter(() => rng.chance(0.3));
  return rng.chance(0.8) ? { readFiles: pick(), modifiedFiles: pick() } : undefined;
}

function branchWithSummary(state: GenState): void {
  const { rng, sm } = state;
  const from = rng.chance(0.1) ? null : rng.pick(state.ids);
  const summary = rng.chance(0.1) ? "" : `Branch summary ${rng.int(0, 999)}: ${makeText(rng, 40 * state.verbosity)}`;
  record(state, sm.branchWithSummary(from, summary, fileDetails(rng), rng.chance(0.25) ? true : undefined));
}

/** A compaction whose firstKeptEntryId is on the branch (usually), or the leaf, or elsewhere in the file. */
function compaction(state: GenState): void {
  const { rng, sm } = state;
  const leaf = sm.getLeafId();
  if (!leaf) return;
  const branch = sm.getBranch();
  const roll = rng.next();
  let firstKept: string;
  if (roll < 0.75) firstKept = rng.pick(branch).id;
  else if (roll < 0.85) firstKept = leaf;
  else if (roll < 0.95) firstKept = rng.pick(state.ids);
  else firstKept = "deadbeef";
  const summary = `## Goal\nCompacted ${rng.int(0, 999)}. ${makeText(rng, 60 * state.verbosity)}`;
  const fromHook = rng.chance(0.2) ? true : undefined;
  record(state, sm.appendCompaction(summary, firstKept, rng.int(1000, 200000), fileDetails(rng), fromHook));
}

/** Entry types of newer pi versions, written as pi writes any entry. */
function unknownEntry(state: GenState): void {
  const { rng, sm } = state;
  const id = `u${rng.int(0, 0xfffffff).toString(16).padStart(7, "0")}`;
  const entry =
    rng.chance(0.5)
      ? { type: "usage", id, parentId: sm.getLeafId(), timestamp: new Date(tick(state)).toISOString(), tokens: rng.int(0, 9999) }
      : {
          type: "context_edit",
          id,
          parentId: sm.getLeafId(),
          timestamp: new Date(tick(state)).toISOString(),
          targetId: rng.pick(state.ids),
          replacement: null,
        };
  sm._appendEntry(entry);
  record(state, id);
}
