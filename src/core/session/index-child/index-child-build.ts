// What the index child (index-child.ts) does for one request, in any process:
// open the file with the same core code and options as the host would (from
// its snapshot plus the appended bytes when there is a usable one), and write
// the snapshot by the IndexSnapshots rules (only when the host would have: no
// usable snapshot, or one grown by at least rewriteAppendedBytes).

import type { IndexChildReply, IndexChildRequest } from "./index-child-protocol.js";
import { IndexSnapshots } from "../snapshot/index-snapshot.js";
import { openSession } from "../open/open-session.js";

export async function buildIndexSnapshot(request: IndexChildRequest): Promise<Pick<IndexChildReply, "result" | "why">> {
  let why: string | undefined;
  const store = new IndexSnapshots(request.dir, {
    minFileBytes: request.minFileBytes,
    rewriteAppendedBytes: request.rewriteAppendedBytes,
    maxFolderBytes: request.maxFolderBytes,
    // Written below, once the read is done (flush), not later.
    defer: () => undefined,
    log: (line) => (why = line),
  });
  try {
    await openSession(request.path, { skim: request.skim, snapshots: store });
  } catch (e) {
    return { result: "not-written", why: e instanceof Error ? e.message : String(e) };
  }
  await store.flush();
  if (store.stats.written > 0) return { result: "written" };
  if (store.stats.exact + store.stats.grown > 0 && why === undefined) return { result: "current" };
  return { result: "not-written", why: why ?? "the read cannot be continued from, or the file changed while it was read" };
}
