import { existsSync, statSync } from "node:fs";
import { recordedCwd } from "../../core/session/open/session-info";
import { followSession, type FollowEvent } from "../../core/live/session-follower";
import type { CompactionSettings } from "../../core/settings";
import type { AgentSemantics } from "../../core/agent";
import { loadModelRegistry } from "../../core/summarize/model-registry";
import type { SessionModelRef } from "../../core/context/session-model";
import { intFlag } from "../args";
import { cliIndexSnapshots } from "../index-snapshots";
import type { Command, CommandContext } from "../command";
import { CliError, EXIT_BAD_INPUT, EXIT_OK } from "../errors";
import { printLines } from "../output";
import { requireFileArg, resolveAgentDir } from "../session-input";
import { sessionSemantics } from "../session-semantics";
import { counted } from "../../core/text/counted";

type WindowOf = (model: SessionModelRef | null) => number | undefined;

/** The context window of the session's model: --window, else the model registry (pi's models.json and built-ins). */
async function windowLookup(ctx: CommandContext, agentDir: string): Promise<WindowOf> {
  const fixed = intFlag(ctx.args, "window");
  if (fixed !== undefined) return () => fixed;
  try {
    const registry = await loadModelRegistry({ agentDir });
    return (model) => (model ? registry.find(model.provider, model.modelId)?.contextWindow : undefined);
  } catch {
    return () => undefined;
  }
}

/** `--json`: one object per line (JSON Lines), so a reader can act on each change as it comes. */
function jsonLine(ctx: CommandContext, value: unknown): void {
  ctx.io.stdout(`${JSON.stringify(value)}\n`);
}

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function report(ctx: CommandContext, event: FollowEvent, windowOf: WindowOf, settings: () => CompactionSettings, semantics: () => AgentSemantics): void {
  const time = new Date().toISOString();
  if (event.kind === "deleted" || event.kind === "error") {
    if (ctx.json) jsonLine(ctx, { time, change: event.kind, ...(event.kind === "error" ? { message: event.message } : {}) });
    else printLines(ctx, [`${time}  ${event.kind === "deleted" ? "deleted: the session file is gone; stopped watching" : `error: ${event.message}`}`]);
    return;
  }
  const f = event.facts;
  const window = windowOf(f.model);
  const compaction = settings();
  // Whether and where the session's own agent (pi or omp) would compact.
  const agent = semantics();
  const wouldCompact = window !== undefined ? agent.shouldCompact(f.usage.tokens, window, compaction) : null;
  if (ctx.json) {
    jsonLine(ctx, {
        time,
        change: event.kind,
        agent: agent.agent.agent,
        leafId: f.leafId,
        entries: f.entryCount,
        contextTokens: f.usage.tokens,
        contextSource: f.usage.source,
        contextWindow: window ?? null,
        threshold: window !== undefined ? agent.compactionThreshold(window, compaction) : null,
        wouldCompact,
        model: f.model,
    });
    return;
  }
  const approx = f.usage.source === "usage" ? "" : "~";
  const tokens =
    window !== undefined
      ? `${approx}${compact(f.usage.tokens)} / ${compact(window)} (${Math.round((100 * f.usage.tokens) / window)}%)`
      : `${approx}${compact(f.usage.tokens)} tokens (window unknown)`;
  const verdict = wouldCompact === null ? "" : wouldCompact ? "  would compact" : "";
  printLines(ctx, [`${time}  ${event.kind.padEnd(9)}  leaf ${f.leafId ?? "-"}  ${counted(f.entryCount, "entry")}  ${tokens}${verdict}`]);
}

export const watchCommand: Command = {
  name: "watch",
  usage: "watch FILE [--json] [--window N] [--poll-ms N] [--agent-dir DIR]",
  summary:
    "Follow a session as pi writes it (like tail -f): one line per change with the leaf, entries, context tokens against the window and whether pi would compact; reports a rewrite or deletion; Ctrl-C stops.",
  flags: { window: { value: true }, "poll-ms": { value: true } },
  async run(ctx) {
    const file = requireFileArg(ctx);
    if (!existsSync(file)) throw new CliError(`${file}: no such file`, EXIT_BAD_INPUT);
    if (statSync(file).isDirectory()) throw new CliError(`${file}: is a directory, not a session file`, EXIT_BAD_INPUT);
    const agentDir = resolveAgentDir(ctx);
    const windowOf = await windowLookup(ctx, agentDir);
    let cached: { cwd: string; agent: string; settings: CompactionSettings } | undefined;
    // The session's semantics, chosen again on each change (the first pi 1.x or omp entry may arrive).
    let current = sessionSemantics(ctx);
    let follower: Awaited<ReturnType<typeof followSession>>;
    const settingsFor = (cwd: string) => () => {
      if (cached?.cwd !== cwd || cached.agent !== current.agent) {
        const from = current.semantics.settingsFrom({ pi: { agentDir }, omp: { agentDir: resolveAgentDir(ctx, "omp") } }, cwd);
        cached = { cwd, agent: current.agent, settings: current.semantics.resolveCompactionSettings(from).settings };
      }
      return cached.settings;
    };
    try {
      follower = await followSession(file, {
        // Each change may bring the first pi 1.x entry (a 0.73-era session resumed in pi 1.5).
        rule: (session) => (current = sessionSemantics(ctx, session)).semantics.contextTokenRule,
        pollMs: intFlag(ctx.args, "poll-ms") ?? 1000,
        snapshots: cliIndexSnapshots(ctx.io.env, "soon"),
        onEvent: (event) => report(ctx, event, windowOf, settingsFor(event.kind === "deleted" || event.kind === "error" ? ctx.io.processCwd : (recordedCwd(event.session) ?? ctx.io.processCwd)), () => current.semantics),
      });
    } catch (error) {
      throw new CliError(error instanceof Error ? error.message : String(error), EXIT_BAD_INPUT);
    }
    const stop = (): void => follower.stop();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    try {
      await follower.done;
    } finally {
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
    }
    return EXIT_OK;
  },
};
