// The CLI's index snapshots (core/session/snapshot/index-snapshot.ts): in its cache
// folder, `index/`. A snapshot is written when the process has nothing left to
// do (after the command's output), so it never delays the result; for a
// command that runs until stopped (`watch`), a little after the open.
import { join } from "node:path";
import { defaultCacheDir } from "../core/cache-dir";
import { IndexSnapshots } from "../core/session/snapshot/index-snapshot";

const stores = new Map<string, IndexSnapshots>();
const WRITE_AFTER_MS = 2000;

export function cliIndexSnapshots(env: NodeJS.ProcessEnv, when: "at-exit" | "soon" = "at-exit"): IndexSnapshots {
  const dir = join(defaultCacheDir(env), "index");
  let store = stores.get(`${when}:${dir}`);
  if (!store) {
    store = new IndexSnapshots(dir, {
      defer: when === "at-exit" ? (write) => void process.once("beforeExit", write) : (write) => void setTimeout(write, WRITE_AFTER_MS).unref(),
      log: env.PI_SESSIONS_DEBUG ? (line) => process.stderr.write(`${line}\n`) : undefined,
    });
    stores.set(`${when}:${dir}`, store);
  }
  return store;
}
