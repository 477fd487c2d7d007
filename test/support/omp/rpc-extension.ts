// An omp extension loaded by the RPC driver (`-e`): commands for what omp only
// offers in its TUI, so tests can make the real omp write those entries.
//   /pisessions-navigate <entryId> [nosum]   navigateTree (with a branch summary unless "nosum")
//   /pisessions-label <entryId> <label…>      appendLabelChange (no label: clear)
//   /pisessions-clear                          appendResetBoundary (what /clear records)
// Runs inside omp (Bun); omp passes its extension API.

interface OmpCommandContext {
  navigateTree(targetId: string, options: { summarize: boolean }): Promise<unknown>;
  sessionManager: { appendLabelChange(targetId: string, label: string | undefined): string; appendResetBoundary(): string };
}
interface OmpExtensionApi {
  registerCommand(name: string, command: { description: string; handler(args: string, ctx: OmpCommandContext): Promise<void> }): void;
}

export default function piSessionsTestCommands(omp: OmpExtensionApi): void {
  omp.registerCommand("pisessions-navigate", {
    description: "navigate the session tree (pi-sessions tests)",
    handler: async (args, ctx) => {
      const [target, mode] = args.trim().split(/\s+/);
      await ctx.navigateTree(target!, { summarize: mode !== "nosum" });
    },
  });
  omp.registerCommand("pisessions-label", {
    description: "label an entry (pi-sessions tests)",
    handler: async (args, ctx) => {
      const [target, ...label] = args.trim().split(/\s+/);
      ctx.sessionManager.appendLabelChange(target!, label.length ? label.join(" ") : undefined);
    },
  });
  omp.registerCommand("pisessions-clear", {
    description: "append a reset boundary as /clear does (pi-sessions tests)",
    handler: async (_args, ctx) => {
      ctx.sessionManager.appendResetBoundary();
    },
  });
}
