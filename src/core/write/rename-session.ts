// Naming a session, the way its agent does (the agent's `renameWriter`,
// agent/): pi appends a `session_info` entry as a child of the leaf, as pi's
// appendSessionInfo does; omp, as its setSessionName does for a file with a
// title slot, appends a `title_change` entry and rewrites the 256-byte slot on
// line 1 in place, under omp's publish lock (omp reads its name only from the
// slot; a file without one is refused), then updates its welcome-screen title
// cache (omp-title-index.ts). Both refuse an empty name.

import { checkWritable, commitAppend, commitOmpRename, planAppend, WriteRefusedError, type WriteRefusalReason } from "../session/append/append.js";
import type { LoadedSession } from "../session/open/open-session.js";
import type { SessionInfoEntry, TitleChangeEntry } from "../session/format/types.js";
import type { AgentName } from "../session/format/agent-version.js";
import { writerSemantics, type RenameSource, type TitleCacheUpdate } from "../agent/index.js";
import { recordOmpSessionTitle } from "./omp-title-index.js";
import { RunInputError, writerAgent, type AgentOption, type RunOutcome } from "./run-common.js";

export { cleanOmpTitle, OMP_TITLE_CACHE_NOTICE, sanitizeSessionName } from "../agent/index.js";

export interface RenameOptions extends AgentOption {
  session: LoadedSession;
  name: string;
  /** omp's agent dir (its history.db caches the welcome screen's titles); default omp's own. */
  ompAgentDir?: string;
  dryRun?: boolean;
  now?: () => Date;
}

export interface RenameResult {
  outcome: RunOutcome;
  written: boolean;
  entry: SessionInfoEntry | TitleChangeEntry;
  /** The name the agent will show. */
  name: string;
  previousName: string | null;
  agent: AgentName;
  /** What the user should know about where the new name shows (omp: its welcome screen's cached titles). */
  notice?: string;
}

export function renameSession(options: RenameOptions): RenameResult {
  const { session } = options;
  // pi 0.73 and 1.5 name a session alike.
  const semantics = writerSemantics(writerAgent(session, options), "0.73");
  const agent = semantics.agent.agent;
  const writer = semantics.renameWriter;
  const name = writer.clean(options.name);
  if (!name) throw new RunInputError("empty-name", `${session.path ?? "session"}: the name is empty; ${agent} does not set an empty session name`);
  checkWritable(session, { dialect: agent });
  const source: RenameSource = {
    path: session.path,
    titleSlot: session.titleSlot,
    sessionInfoName: session.index.sessionName,
    sessionId: session.header?.id,
    ...(options.ompAgentDir ? { ompAgentDir: options.ompAgentDir } : {}),
  };
  const refusal = writer.refuse(source);
  if (refusal) throw new WriteRefusedError(refusal.code as WriteRefusalReason, refusal.message, session.path);
  const at = (options.now ?? (() => new Date()))().toISOString();
  const plan = writer.plan(source, name, at);
  const planned = planAppend(session, [plan.draft], { now: () => new Date(at), dialect: agent });
  const entry = planned.entries[0] as SessionInfoEntry | TitleChangeEntry;
  const result = { entry, name: plan.name, previousName: plan.previousName, agent };
  if (options.dryRun) return { outcome: "dry-run", written: false, ...result };
  if (plan.titleSlot !== undefined) commitOmpRename(planned, plan.titleSlot);
  else commitAppend(planned);
  const notice = plan.titleCache ? updateTitleCache(plan.titleCache) : undefined;
  return { outcome: "written", written: true, ...result, ...(notice !== undefined ? { notice } : {}) };
}

/** The cache updated as the agent does; its notice when it could not be. */
function updateTitleCache(cache: TitleCacheUpdate): string | undefined {
  const recorded = cache.sessionId ? recordOmpSessionTitle(cache.file, cache.sessionId, cache.title).recorded : false;
  return recorded ? undefined : cache.staleNotice;
}
