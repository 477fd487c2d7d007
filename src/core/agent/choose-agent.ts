// Which agent's semantics apply to one session (shared/spec/cli.md, "Which
// agent"): `--agent` (or an explicit pi version) wins; else a file that omp
// wrote or resumed (its title slot, an entry only omp writes) or that lies
// under omp's folders is omp's; else pi's, the pi version chosen as before
// (choose-pi-version.ts).

import { homedir } from "node:os";
import { join, relative, resolve, isAbsolute } from "node:path";
import type { EntryMeta } from "../session/format/entry-meta.js";
import type { SessionIndex } from "../session/index/session-index.js";
import type { SessionEntry } from "../session/format/types.js";
import { OMP_18, piAgent, type AgentName, type AgentVersion } from "../session/format/agent-version.js";
import { sessionOmpMarker, type OmpMarker } from "../session/dialect/omp-markers.js";
import type { TitleSlotRead } from "../session/index/session-builder.js";
import { choosePiVersion, type ChoosePiVersionInput, type PiVersionChoice } from "./choose-pi-version.js";
import { defaultOmpDirs } from "./omp-18/agent-dir.js";

export type AgentSource = "explicit" | "session" | "location" | PiVersionChoice["source"];

export interface AgentChoice {
  agent: AgentVersion;
  source: AgentSource;
  /** Why, in words: "--agent omp", "omp's title slot on line 1", "under ~/.omp", … */
  reason: string;
  /** For pi: how its version was chosen. */
  pi?: PiVersionChoice;
  ompMarker?: OmpMarker;
}

export interface ChooseAgentInput extends ChoosePiVersionInput {
  explicitAgent?: AgentName;
  session?: { readonly index: SessionIndex; readonly titleSlot?: TitleSlotRead | null; entryAt(meta: EntryMeta): SessionEntry };
  /** The session file, to tell whether it lies under omp's folders. */
  path?: string;
  /** Folders whose sessions are omp's (default: omp's config root and data folder, see ompRoots). */
  ompRoots?: readonly string[];
}

/** omp's folders: its config root (`~/.omp`, or `$PI_CONFIG_DIR`), its agent dir, `$XDG_DATA_HOME/omp`. */
export function ompRoots(env: Readonly<Record<string, string | undefined>> = process.env, home: string = env.HOME || homedir()): string[] {
  const roots = [join(home, env.PI_CONFIG_DIR || ".omp")];
  const dirs = defaultOmpDirs(env, home);
  // $PI_CODING_AGENT_DIR is pi's agent dir as well (omp honours it for its default profile):
  // a file in a folder both agents use is not omp's by where it lies.
  const sharedWithPi = env.PI_CODING_AGENT_DIR !== undefined && env.PI_CODING_AGENT_DIR !== "" && resolve(dirs.agentDir) === resolve(env.PI_CODING_AGENT_DIR);
  if (!sharedWithPi && !roots.some((r) => isUnder(dirs.agentDir, r))) roots.push(dirs.agentDir);
  if (env.XDG_DATA_HOME) roots.push(join(env.XDG_DATA_HOME, "omp"));
  return roots;
}

function isUnder(path: string, root: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export function chooseAgent(input: ChooseAgentInput): AgentChoice {
  const piChoice = (): AgentChoice => {
    const pi = choosePiVersion(input);
    return { agent: piAgent(pi.version), source: pi.source, reason: pi.reason, pi };
  };
  if (input.explicitAgent === "omp") return { agent: OMP_18, source: "explicit", reason: "--agent omp" };
  if (input.explicitAgent === "pi" || input.explicit) return piChoice();
  const marker = input.session ? sessionOmpMarker(input.session) : undefined;
  if (marker) return { agent: OMP_18, source: "session", reason: `omp's ${marker.what.replace(/^omp's /, "")}${marker.entryId ? ` on line ${marker.line}` : ""}`, ompMarker: marker };
  if (input.path) {
    const roots = input.ompRoots ?? ompRoots(input.env ?? process.env);
    const root = roots.find((r) => isUnder(input.path!, r));
    if (root) return { agent: OMP_18, source: "location", reason: `it lies under omp's folder ${root}` };
  }
  return piChoice();
}
