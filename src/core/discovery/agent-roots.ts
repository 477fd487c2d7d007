// The agents whose sessions are listed side by side: pi (`~/.pi/agent` or
// `$PI_CODING_AGENT_DIR`) and oh-my-pi (`~/.omp/agent` with omp's overrides),
// each with the folder its per-cwd session folders live in, and which agent a
// session file belongs to by where it lies.

import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, isAbsolute, sep } from "node:path";
import { defaultAgentDir, jsonlFilesIn, jsonlFilesInFolders, piSessionDirForCwd, piSessionFolders } from "./discover.js";
import { ompListedFiles, ompListedFilesIn } from "./omp-listing.js";
import { ompRecordedSessionFiles } from "./omp-recorded-sessions.js";
import { ompAgentDir, ompSessionsRoot, type OmpDirOptions } from "../agent/omp-18/omp-dirs.js";
import { ompSessionDirsForCwd, type OmpFolderOptions } from "./omp-session-folder.js";
import type { AgentName } from "../session/format/agent-version.js";

export type { AgentName } from "../session/format/agent-version.js";

/** "pi" / "oh-my-pi" for people. */
export function agentLabel(agent: AgentName): string {
  return agent === "omp" ? "oh-my-pi" : "pi";
}

export interface AgentRoot {
  agent: AgentName;
  agentDir: string;
  /** The folder holding one session folder per cwd. */
  sessionsRoot: string;
}

export interface AgentRootOptions extends OmpDirOptions, OmpFolderOptions {}

/** One agent's root for `agentDir` (its default dir when undefined). */
export function agentRoot(agent: AgentName, agentDir: string | undefined, options: AgentRootOptions = {}): AgentRoot {
  const env = options.env ?? process.env;
  const home = options.home ?? homedir();
  if (agent === "omp") {
    const dir = agentDir ?? ompAgentDir({ ...options, env, home });
    return { agent, agentDir: dir, sessionsRoot: ompSessionsRoot(dir, { ...options, env, home }) };
  }
  const dir = agentDir ?? defaultAgentDir(env, home);
  return { agent, agentDir: dir, sessionsRoot: join(dir, "sessions") };
}

/** Both agents' default roots, pi first (`omp: false` leaves omp out). */
export function defaultAgentRoots(options: AgentRootOptions & { omp?: boolean } = {}): AgentRoot[] {
  const roots = [agentRoot("pi", undefined, options)];
  if (options.omp !== false) roots.push(agentRoot("omp", undefined, options));
  return roots;
}

/** The folders under a root that hold a cwd's sessions: pi's one, or omp's (its own name first). */
export function sessionDirsForCwd(root: AgentRoot, cwd: string, options: OmpFolderOptions = {}): string[] {
  if (root.agent === "omp") return ompSessionDirsForCwd(cwd, root.sessionsRoot, options);
  return [piSessionDirForCwd(cwd, root.agentDir)];
}

/** The folder the agent writes a cwd's new sessions to. */
export function sessionDirForCwd(root: AgentRoot, cwd: string, options: OmpFolderOptions = {}): string {
  return sessionDirsForCwd(root, cwd, options)[0]!;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function under(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/** The root a file lies under (its session folder or deeper), or undefined. */
export function rootOfFile(path: string, roots: readonly AgentRoot[]): AgentRoot | undefined {
  const file = canonical(path);
  return roots.find((root) => under(root.sessionsRoot, path) || under(canonical(root.sessionsRoot), file));
}

/** The session files an agent lists in one of its folders: omp's /resume (`*.jsonl`, no hidden names, no symlinks); pi's `*.jsonl`. */
export async function listedFilesIn(root: AgentRoot, folder: string): Promise<string[]> {
  return root.agent === "omp" ? ompListedFilesIn(folder) : jsonlFilesIn(folder);
}

/** The session files an agent keeps outside its root that it recorded itself (omp's custom-session-files and breadcrumbs; none for pi). */
export async function recordedFilesOf(root: AgentRoot, options: OmpDirOptions = {}): Promise<string[]> {
  return root.agent === "omp" ? ompRecordedSessionFiles(root.agentDir, options) : [];
}

/** Every session file of an agent: pi's `*.jsonl` in each project folder; omp's /resume glob; and the files it recorded elsewhere. */
export async function everyFileOf(root: AgentRoot, options: OmpDirOptions = {}): Promise<string[]> {
  if (root.agent === "omp") return [...(await ompListedFiles(root.sessionsRoot)), ...(await recordedFilesOf(root, options))];
  return jsonlFilesInFolders(await piSessionFolders(root.agentDir));
}
