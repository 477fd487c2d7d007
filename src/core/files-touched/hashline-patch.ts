// omp's default `edit` tool input, a hashline patch (omp 18 src/edit,
// hashline-compact.md): `*** Begin Patch`, then per file a `[PATH#TAG]` header
// and its ops — `PUT`/`CUT` edit the file, `REM` deletes it, `MV DEST` moves it
// after the section's edits — then `*** End Patch`. Body rows start with `+`.

export type HashlineOperation = { op: "E" | "D"; path: string } | { op: "move"; from: string; to: string };

const HEADER = /^\[(.+?)(?:#[0-9A-Za-z]{1,16})?\]$/;

/** Whether a tool input is a hashline patch (rather than Codex's `*** Add/Update File:` envelope). */
export function isHashlinePatch(input: string): boolean {
  return /^\s*\*\*\* Begin Patch\s*$/m.test(input) && input.split(/\r?\n/).some((line) => HEADER.test(line.trim()) && !line.startsWith("+"));
}

export function parseHashlinePatch(input: string): HashlineOperation[] {
  const ops: HashlineOperation[] = [];
  let current: string | undefined;
  let edited = false;
  for (const raw of input.split(/\r?\n/)) {
    if (raw.startsWith("+")) continue;
    const line = raw.trim();
    if (line === "" || line.startsWith("*** ")) continue;
    const header = HEADER.exec(line);
    if (header) {
      current = header[1]!.trim();
      edited = false;
      continue;
    }
    if (current === undefined) continue;
    if (/^(?:PUT|CUT)\b/.test(line)) {
      if (!edited) ops.push({ op: "E", path: current });
      edited = true;
    } else if (line === "REM") {
      ops.push({ op: "D", path: current });
    } else if (line.startsWith("MV ")) {
      const to = line.slice(3).trim();
      if (to) {
        ops.push({ op: "move", from: current, to });
        current = to;
      }
    }
  }
  return ops;
}
