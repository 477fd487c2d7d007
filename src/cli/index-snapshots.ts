// The CLI's index snapshots (core/session/index-snapshot.ts): in its cache
// folder, `index/`. A snapshot is written when the process has nothing left to
// do (after the command's output), so it never delays the result.
import { join } from "node:path";
import { defaultCacheDir } from "../core/cache-dir";
import { IndexSnapshots } from "../core/session/index-snapshot";

const stores = new Map<string, IndexSnapshots>();

export function cliIndexSnapshots(env: NodeJS.ProcessEnv): IndexSnapshots {
  const dir = join(defaultCacheDir(env), "index");
  let store = stores.get(dir);
  if (!store) {
    store = new IndexSnapshots(dir, {
      defer: (write) => void process.once("beforeExit", write),
      log: env.PI_SESSIONS_DEBUG ? (line) => process.stderr.write(`${line}\n`) : undefined,
    });
    stores.set(dir, store);
  }
  return store;
}
