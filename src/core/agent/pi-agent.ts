// What pi 0.73 and pi 1.5 share beyond their session semantics: where pi's
// files are (its agent dir, with the caller's values over its settings), how
// it forks and renames, how it is named to users.

import { resolveCompactionSettings } from "../settings/resolve-settings.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { AgentSemantics } from "./agent-semantics.js";
import { settingsInput } from "./agent-configs.js";
import { PI_FORK_WRITER } from "./fork-writer.js";
import { PI_RENAME_WRITER } from "./rename-writer.js";

type PiAgentParts = Pick<
  AgentSemantics,
  "forkWriter" | "renameWriter" | "agentDir" | "settingsFrom" | "modelDirs" | "fallbackCompactionSettings" | "tags" | "readingNote"
>;

export function piAgentParts(version: PiVersion): PiAgentParts {
  return {
    forkWriter: PI_FORK_WRITER,
    renameWriter: PI_RENAME_WRITER,
    agentDir: (configs) => configs.pi.agentDir,
    settingsFrom: (configs, cwd, trustProject) => settingsInput(configs.pi.agentDir, configs.pi, cwd, trustProject),
    modelDirs: (configs) => ({ agentDir: configs.pi.agentDir }),
    fallbackCompactionSettings: (from) => resolveCompactionSettings(from).settings,
    tags: Object.freeze({ agent: "pi", piVersion: version }),
    readingNote: (reason) => `read as pi ${version} (${reason})`,
  };
}
