// omp 18.3.4's own answers about discovery (its agent dir, sessions root and
// blob store for an environment; the folder it uses for a cwd; what /resume
// lists and the titles it shows), from a Bun process started with that
// environment: omp resolves its folders once, when its modules load.

import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ompInstall } from "./oracle.js";

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL("./discovery-probe.mjs", import.meta.url));

export interface OmpListed {
  path: string;
  id: string;
  cwd: string;
  title: string | null;
  firstMessage: string;
}

export interface OmpDiscoveryAnswers {
  /** The files of the sessions asked to be created, as omp wrote them. */
  created: string[];
  /** Where omp records session files outside its root (getCustomSessionFilesDir). */
  customSessionFilesDir: string;
  /** Where omp keeps its terminal breadcrumbs (getTerminalSessionsDir). */
  terminalSessionsDir: string;
  agentDir: string;
  sessionsDir: string;
  blobsDir: string;
  /** listAllSessions: `<sessionsDir>/*\/*.jsonl` that omp lists. */
  listAll: OmpListed[];
  /** listSessionsReadOnly per folder asked for. */
  listDirs: Record<string, OmpListed[]>;
  /** getRecentSessions per folder asked for: omp's welcome screen (names from history.db's session_titles first). */
  recent: Record<string, { path: string; name: string }[]>;
  /** SessionManager.getDefaultSessionDir per cwd asked for (omp creates it, and renames legacy folders into it). */
  folders: Record<string, string>;
}

/** Asks omp under `env` (HOME, TMPDIR, PI_CONFIG_DIR, OMP_PROFILE, …; nothing else of the caller's omp variables). */
export interface OmpDiscoveryRequest {
  cwds?: string[];
  listDirs?: string[];
  /** Sessions omp writes first with SessionManager.create(cwd, sessionDir): one user message `text` and an answer. */
  create?: { cwd: string; sessionDir?: string; text: string }[];
  /** Sessions omp opens (and renames with setSessionName when `title` is given), then closes. */
  renameByOmp?: { path: string; title?: string }[];
  /** Folders whose welcome-screen list (getRecentSessions) to report. */
  recentDirs?: string[];
}

export async function ompDiscovery(env: Record<string, string>, request: OmpDiscoveryRequest = {}): Promise<OmpDiscoveryAnswers> {
  const install = await ompInstall();
  const base: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|OMP_|PI_|XDG_)/i.test(key) || key === "TMPDIR") continue;
    base[key] = value;
  }
  const { stdout } = await run(install.bun, ["--no-install", PROBE, install.oracleJs, JSON.stringify(request)], {
    env: { ...base, NO_COLOR: "1", ...env },
    cwd: env.HOME,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as OmpDiscoveryAnswers;
}
