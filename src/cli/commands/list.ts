import { rowDisplayName, rowTitle, type CatalogueRow } from "../../core/catalogue/catalogue-row";
import { semanticsOf, type AgentSemantics } from "../../core/agent";
import type { Command } from "../command";
import { printJson, printLines } from "../output";
import { lookedIn, sessionRows } from "../session-rows";

function jsonRow(r: CatalogueRow, semantics: AgentSemantics): Record<string, unknown> {
  return {
    path: r.path,
    id: r.id,
    cwd: r.cwd,
    name: rowTitle(r, semantics),
    entries: r.entries,
    modified: r.modified,
    messages: r.messages,
    firstUserMessage: r.firstUserMessage,
    parentSession: r.parentSession,
    lastActivity: r.lastActivity > 0 ? new Date(r.lastActivity).toISOString() : null,
    contextTokens: r.contextTokens,
    contextTokensEstimated: r.contextSource !== "usage",
    contextSource: r.contextSource,
    model: r.model,
    totalTokens: r.totalTokens,
    input: r.input,
    output: r.output,
    cacheRead: r.cacheRead,
    cacheWrite: r.cacheWrite,
    cost: r.cost,
    hasCompactions: r.hasCompactions,
    size: r.size,
    mtime: new Date(r.mtimeMs).toISOString(),
  };
}

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export const listCommand: Command = {
  name: "list",
  usage: "list [DIR…] [--all] [--json] [--agent pi|omp] [--agent-dir DIR] [--cwd DIR] [--pi-version 0.73|1.5]",
  summary:
    "Sessions of the project dirs (pi's and oh-my-pi's own folders for each, plus *.jsonl session files inside them), or of every project with --all; each row says whose session it is; remembered in pi-sessions' cache folder between runs.",
  flags: { all: { value: false }, agent: { value: true } },
  async run(ctx) {
    const found = await sessionRows(ctx);
    const { rows, versionOf, agentOf } = found;
    rows.sort((a, b) => b.modified.localeCompare(a.modified) || a.path.localeCompare(b.path));
    if (ctx.json) {
      printJson(ctx, {
        // Sessions without a pi 1.x marker are read with this; each session says its own.
        piVersion: found.defaultVersion,
        sessions: rows.map((r) => {
          const semantics = semanticsOf(agentOf(r), versionOf(r.pi1xMarker));
          return { ...semantics.tags, ...jsonRow(r, semantics) };
        }),
      });
      return 0;
    }
    if (rows.length === 0) {
      printLines(ctx, [lookedIn(ctx, found)]);
      return 0;
    }
    printLines(
      ctx,
      rows.map((s) => {
        const semantics = semanticsOf(agentOf(s), versionOf(s.pi1xMarker));
        const name = rowDisplayName(s, semantics).replace(/\s+/g, " ").slice(0, 60);
        const title = `${semantics.listTag ? `[${semantics.listTag}] ` : ""}${name}`;
        const tokens = `${s.contextSource === "usage" ? "" : "~"}${compact(s.contextTokens)} ctx`;
        const cost = s.cost > 0 ? `  $${s.cost.toFixed(2)}` : "";
        return `${s.modified}  ${String(s.entries).padStart(6)} ${s.entries === 1 ? "entry  " : "entries"}  ${tokens.padStart(10)}${cost}  ${title}\n    ${s.path}`;
      }),
    );
    return 0;
  },
};
