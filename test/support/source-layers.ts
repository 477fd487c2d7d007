// The layer order of src/, lowest first: a file may import files of its own
// room and of rooms on lower floors, never of a room on its floor or above.
// A room is the longest listed folder (or file) a path starts with. The same
// order, drawn, is in docs/architecture.md: change both together.

export const SOURCE_FLOORS: readonly (readonly string[])[] = [
  // Building blocks with no knowledge of sessions.
  ["src/core/text", "src/core/diagnostics.ts", "src/core/cache-dir.ts", "src/core/child-backoff.ts", "src/core/fork-own-runtime.ts", "src/core/fs", "src/core/trash", "src/core/pi-cli"],
  // A session file, from bytes up (src/core/session/*).
  ["src/core/session/format"],
  ["src/core/session/bytes"],
  ["src/core/session/scan"],
  ["src/core/session/skim"],
  ["src/core/session/index"],
  ["src/core/session/dialect", "src/core/session/snapshot"],
  ["src/core/session/open"],
  ["src/core/session/index-child", "src/core/session/append"],
  // What pi makes of a session.
  ["src/core/markdown", "src/core/settings"],
  ["src/core/context"],
  ["src/core/tokens", "src/core/tree"],
  ["src/core/compaction", "src/core/reader"],
  ["src/core/branch", "src/core/files-touched"],
  ["src/core/summarize"],
  // The agent seam: which agent and version's semantics apply.
  ["src/core/agent"],
  // Sessions over time and in numbers.
  ["src/core/live", "src/core/discovery"],
  ["src/core/catalogue"],
  ["src/core/search", "src/core/hooks", "src/core/export", "src/core/file-history", "src/core/pi-extension-setup", "src/core/usage"],
  // The writers.
  ["src/core/write"],
  // What pi's own hooks get from the writers (the pi extension's core).
  ["src/core/pi-hooks"],
  // The faces.
  ["src/webview"],
  ["src/extension", "src/cli", "src/pi-extension"],
];

/** The room of a path (relative to the repository, with `/`), or undefined when no room lists it. */
export function roomOf(path: string): string | undefined {
  let best: string | undefined;
  for (const floor of SOURCE_FLOORS) {
    for (const room of floor) {
      if ((path === room || path.startsWith(`${room}/`)) && (!best || room.length > best.length)) best = room;
    }
  }
  return best;
}

/** The floor of a room (0 lowest). */
export function floorOf(room: string): number {
  return SOURCE_FLOORS.findIndex((floor) => floor.includes(room));
}
