// Codex `apply_patch` envelopes: `*** Add File: p` (W), `*** Update File: p`
// (E, and `*** Move to: q` right after it moves p to q), `*** Delete File: p` (D).

export type PatchOperation =
  | { op: "W" | "E" | "D"; path: string }
  | { op: "move"; from: string; to: string };

const HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+?)\s*$/;

export function parseApplyPatch(patch: string): PatchOperation[] {
  const ops: PatchOperation[] = [];
  let lastUpdate: string | undefined;
  for (const line of patch.split(/\r?\n/)) {
    const m = HEADER.exec(line);
    if (!m) continue;
    const [, kind, path] = m as unknown as [string, string, string];
    if (kind === "Add File") {
      ops.push({ op: "W", path });
      lastUpdate = undefined;
    } else if (kind === "Delete File") {
      ops.push({ op: "D", path });
      lastUpdate = undefined;
    } else if (kind === "Update File") {
      ops.push({ op: "E", path });
      lastUpdate = path;
    } else if (kind === "Move to" && lastUpdate !== undefined) {
      ops.push({ op: "move", from: lastUpdate, to: path });
      lastUpdate = undefined;
    }
  }
  return ops;
}
