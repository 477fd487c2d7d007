// pi 0.73.1's SessionManager re-opening a session file, run as its own Node
// process (the extension-host suites cannot load pi's ESM bundle): prints what
// pi sees as JSON. pi may rewrite what it opens, so it opens a copy.
//   node test/support/pi-open-session.mjs FILE
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";

const file = process.argv[2];
const dir = mkdtempSync(join(tmpdir(), "pi-open-"));
try {
  const copy = join(dir, "session.jsonl");
  copyFileSync(file, copy);
  const sm = SessionManager.open(copy);
  const entries = sm.getEntries();
  const labels = Object.fromEntries(entries.map((e) => [e.id, sm.getLabel(e.id)]).filter(([, label]) => label !== undefined));
  process.stdout.write(
    JSON.stringify({ header: sm.getHeader(), leafId: sm.getLeafId(), name: sm.getSessionName() ?? null, labels, entryIds: entries.map((e) => e.id), context: sm.buildSessionContext() }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
