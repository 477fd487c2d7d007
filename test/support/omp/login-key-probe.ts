// Which key pi-sessions would send for each provider of an omp session, as a
// process of its own (run under a Node that has node:sqlite): argv[2] is JSON
// {agentDir, ompAgentDir, ompAgentDb, providers}; prints {provider: {key,
// source} | {error}} as one JSON line.

import { resolveRequestAuth } from "../../../src/core/summarize/auth.js";
import { loadModelSetup } from "../../../src/core/summarize/model-setup.js";

interface ProbeArgs {
  agentDir: string;
  ompAgentDir: string;
  ompAgentDb: string;
  providers: string[];
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? "{}") as ProbeArgs;
  const setup = await loadModelSetup({ agentDir: args.agentDir, ompAgentDir: args.ompAgentDir, ompAgentDb: args.ompAgentDb });
  const out: Record<string, { key: string; source: string } | { error: string }> = {};
  for (const provider of args.providers) {
    const model = setup.registry.models.find((m) => m.provider === provider);
    if (!model) {
      out[provider] = { error: `no model of ${provider}` };
      continue;
    }
    try {
      const auth = await resolveRequestAuth(model, setup);
      out[provider] = { key: auth.apiKey, source: auth.keySource };
    } catch (error) {
      out[provider] = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}

void main();
