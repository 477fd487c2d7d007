// Where omp keeps its agent folder and blob store by default (pi-utils dirs.ts,
// spec §1.1), as omp-dirs.ts resolves them (proven against omp's own code).

import { ompAgentDir, ompBlobsDir } from "./omp-dirs.js";

export interface OmpDirs {
  agentDir: string;
  blobsDir: string;
}

export function defaultOmpDirs(env: Readonly<Record<string, string | undefined>> = process.env, home: string | undefined = env.HOME || undefined): OmpDirs {
  const agentDir = ompAgentDir({ env, home });
  return { agentDir, blobsDir: ompBlobsDir(agentDir, { env, home }) };
}

/** The blob store of an explicit agent dir (`$XDG_DATA_HOME/omp/blobs` when it is omp's default one and that folder exists). */
export function ompDirsOf(agentDir: string): OmpDirs {
  return { agentDir, blobsDir: ompBlobsDir(agentDir) };
}
