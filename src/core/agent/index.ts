export { chooseAgent, ompRoots, type AgentChoice, type AgentSource, type ChooseAgentInput } from "./choose-agent.js";
export { AGENT_NAMES, type AgentName, type AgentVersion, formatAgentVersion, isAgentName, OMP_18, OMP_RELEASE, PI_0_73, PI_1_5, piAgent } from "../session/format/agent-version.js";
export { sessionOmpMarker, type OmpMarker } from "../session/dialect/omp-markers.js";
export { createOmpSemantics, modelOfKey, type OmpSemantics } from "./omp-18/semantics.js";
export { defaultOmpDirs, ompDirsOf, type OmpDirs } from "./omp-18/agent-dir.js";
export { ompAgentDbFile, ompHistoryDbFile } from "./omp-18/omp-dirs.js";
export { choosePiVersion, type ChoosePiVersionInput, type PiVersionChoice, type PiVersionSource } from "./choose-pi-version.js";
export { findInstalledPi, piPackageOf, type InstalledPi } from "./installed-pi.js";
export type { AgentSemantics, DisplayNameFacts, ListTitleFacts, SessionNameFacts } from "./agent-semantics.js";
export type { AgentConfig, AgentConfigs, ModelDirs } from "./agent-configs.js";
export { PI_FORK_WRITER, type ForkHeaderBase, type ForkSource, type ForkWriter, type WriterRefusal } from "./fork-writer.js";
export { OMP_FORK_WRITER } from "./omp-18/fork-writer.js";
export { PI_RENAME_WRITER, sanitizeSessionName, type RenamePlan, type RenameSource, type RenameWriter, type TitleCacheUpdate } from "./rename-writer.js";
export { cleanOmpTitle, OMP_RENAME_WRITER, OMP_TITLE_CACHE_NOTICE } from "./omp-18/rename-writer.js";
export { ompDisplayName, sanitizeOmpName } from "./omp-18/session-name.js";
export { formatPiVersion, isPiVersion, parsePiVersion, PI_RELEASE, PI_VERSIONS, type PiVersion } from "../session/format/pi-version.js";
export { findPi1xMarker, sessionPi1xMarker, type Pi1xMarker } from "../session/dialect/pi1x-markers.js";
export { PI_0_73_SEMANTICS } from "./pi-0.73/semantics.js";
export { PI_1_5_SEMANTICS } from "./pi-1.5/semantics.js";
export { pi15ContextTokenRule } from "./pi-1.5/context-token-rule.js";
export { buildSessionProjection, projectContextEntry, sessionEntryToContextMessages, type ProjectedEntry, type SessionProjection } from "./pi-1.5/projection.js";
export { getCurrentSystemMessage, getCurrentTools } from "./pi-1.5/system-message.js";

import type { AgentSemantics } from "./agent-semantics.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { OMP_18, type AgentName, type AgentVersion } from "../session/format/agent-version.js";
import { PI_0_73_SEMANTICS } from "./pi-0.73/semantics.js";
import { PI_1_5_SEMANTICS } from "./pi-1.5/semantics.js";
import { createOmpSemantics, type OmpSemantics } from "./omp-18/semantics.js";
import { defaultOmpDirs } from "./omp-18/agent-dir.js";

const ompByBlobs = new Map<string, OmpSemantics>();

/** omp's semantics reading frames from `blobsDir` (default: omp's own blob store, from the environment). */
export function ompSemantics(blobsDir: string = defaultOmpDirs().blobsDir): OmpSemantics {
  let semantics = ompByBlobs.get(blobsDir);
  if (!semantics) ompByBlobs.set(blobsDir, (semantics = createOmpSemantics(blobsDir)));
  return semantics;
}

/** The strategy for one agent and version (a bare pi version: that pi). */
export function semanticsFor(version: PiVersion | AgentVersion, options: { ompBlobsDir?: string } = {}): AgentSemantics {
  if (typeof version !== "string" && version.agent === "omp") return ompSemantics(options.ompBlobsDir);
  const pi = typeof version === "string" ? version : version.version;
  return pi === "1.5" ? PI_1_5_SEMANTICS : PI_0_73_SEMANTICS;
}

/** The strategy for a session of `agent` (a pi session read as `piVersion`): where a face or a writer knows the agent by name. */
export function semanticsOf(agent: AgentName, piVersion: PiVersion, options: { ompBlobsDir?: string } = {}): AgentSemantics {
  return agent === "omp" ? semanticsFor(OMP_18, options) : semanticsFor(piVersion);
}

/** The strategy a writer applies to a session: omp's for an omp session, else that pi version's. */
export const writerSemantics = semanticsOf;
