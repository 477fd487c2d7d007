// omp 18.3.4's fork (its createBranchedSession): any branch, its title slot
// first (the source's current title: its slot's, else the header's), a header
// with `title`/`titleSource`, the carried labels dated at the fork.

import type { ForkSource, ForkWriter } from "../fork-writer.js";
import { serializeTitleSlot, type OmpTitleSource } from "../../session/format/omp-title-slot-serialize.js";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "../../session/format/types.js";

/** The source's current title (its slot's, an empty one none; else the header's) and where it came from. */
function sourceTitle(source: ForkSource): { title: string | undefined; titleSource: OmpTitleSource | undefined } {
  const title = source.titleSlot ? source.titleSlot.title || undefined : typeof source.header.title === "string" ? source.header.title : undefined;
  const from = source.titleSlot ? source.titleSlot.source : (source.header.titleSource as OmpTitleSource | undefined);
  return { title, titleSource: title ? from : undefined };
}

export const OMP_FORK_WRITER: ForkWriter = Object.freeze({
  refuseSource: () => undefined,
  refuseBranch: () => undefined,
  header: (base, source) => {
    const { title, titleSource } = sourceTitle(source);
    return { type: "session", version: CURRENT_SESSION_VERSION, id: base.id, timestamp: base.timestamp, cwd: base.cwd, title, titleSource, parentSession: base.parentSession } as SessionHeader;
  },
  labelTimestamp: (_original, forkTime) => forkTime,
  titleSlot: (source, forkTime) => {
    const { title, titleSource } = sourceTitle(source);
    return serializeTitleSlot({ title, source: titleSource, updatedAt: forkTime });
  },
} satisfies ForkWriter);
