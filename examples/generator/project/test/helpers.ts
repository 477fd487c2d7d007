import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Io } from "../src/types.js";

export const NOW = new Date("2024-05-20T09:30:00Z");

export interface FakeIo extends Io {
  out: string[];
  err: string[];
}

export function fakeIo(env: Record<string, string | undefined> = {}): FakeIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    env: { NO_COLOR: "1", ...env },
    now: () => NOW,
    isTty: false,
  };
}

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "todo-cli-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
