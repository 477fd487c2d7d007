// A corpus for the omp differential suite: random sessions written by omp 18.3.4's
// own SessionManager (random-session-omp.ts), each with omp's answers at random
// leaves (every tip of the tree plus a few random entries), all computed by omp.
// The product is then compared with these answers; a failure names the seed
// (sessions and their entry ids are reproducible from it).

import { join } from "node:path";
import { readdirSync } from "node:fs";
import { OMP_FIXTURE_BLOBS } from "./expected-fixtures.js";
import { fastTempDir, type GeneratedOmpSession, type OmpAnswers, type OmpAnswersArgs, type OmpOracle } from "./oracle.js";

const FIXTURES = join(__dirname, "../../fixtures");

/** pi 0.73 and pi 1.5 files omp resumes (appends to) in some of the generated sessions. */
export function piFilesToResume(): string[] {
  const pi15 = readdirSync(join(FIXTURES, "pi-1.5")).filter((f) => f.endsWith(".jsonl")).map((f) => join(FIXTURES, "pi-1.5", f));
  return [...pi15, join(FIXTURES, "..", "..", "examples", "todo-cli-session.jsonl")];
}

/** The PNGs of the omp fixtures' snapcompact frames: frames and large images for the generated sessions. */
export function framePngs(): string[] {
  return readdirSync(OMP_FIXTURE_BLOBS).filter((f) => f.endsWith(".png")).map((f) => join(OMP_FIXTURE_BLOBS, f));
}

export interface OmpCorpusItem {
  session: GeneratedOmpSession;
  answers: OmpAnswers;
}

export interface OmpCorpusOptions {
  /** Seeds to write (default 1…220). */
  seeds?: number[];
  /** Extra answer arguments (settings, context windows, model, branch budgets) for every file; leaves come from the session. */
  ask?: Omit<OmpAnswersArgs, "file" | "leaves" | "branchPairs">;
  /** Branch pairs per session (default: from the file's leaf to each other tip). */
  branchPairs?: (session: GeneratedOmpSession) => OmpAnswersArgs["branchPairs"];
  dir?: string;
}

/** Writes the sessions into a temporary folder (in memory when possible) and asks omp about each. */
export async function generateOmpCorpus(oracle: OmpOracle, options: OmpCorpusOptions = {}): Promise<{ dir: string; items: OmpCorpusItem[] }> {
  const dir = options.dir ?? fastTempDir("omp-corpus-");
  const seeds = options.seeds ?? Array.from({ length: 220 }, (_, i) => i + 1);
  const piFiles = piFilesToResume();
  const pngs = framePngs();
  const items: OmpCorpusItem[] = [];
  for (const seed of seeds) {
    const sessionDir = join(dir, `seed-${seed}`);
    const session = await oracle.generate({ seed, dir: sessionDir, piFiles, pngs });
    const branchPairs =
      options.branchPairs?.(session) ?? session.leaves.filter((id) => id !== session.leafId).map((targetId) => ({ oldLeafId: session.leafId, targetId }));
    const answers = await oracle.answers({ ...options.ask, file: session.path, leaves: session.leaves, branchPairs });
    items.push({ session, answers });
  }
  return { dir, items };
}
