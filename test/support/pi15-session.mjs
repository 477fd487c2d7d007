// pi 1.5.2's SessionManager on a session file, run by a Node ≥ 22 (pi 1.5 needs
// it): `open FILE [AT]` prints what pi sees (name, labels, context at the leaf or
// at AT); `branch FILE AT` prints the file pi's own createBranchedSession writes.
// The package comes from $PI_SESSIONS_PI15_MODULE (its dist/bundle/index.js or
// dist/index.js); pi may rewrite what it opens, so it opens a copy.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const modulePath = process.env.PI_SESSIONS_PI15_MODULE;
if (!modulePath) throw new Error("PI_SESSIONS_PI15_MODULE is not set");
const { SessionManager, buildSessionContext } = await import(pathToFileURL(modulePath).href);
const [command, file, atId] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), "pi15-session-"));
try {
  const copy = join(dir, "session.jsonl");
  copyFileSync(file, copy);
  const sm = SessionManager.open(copy);
  if (command === "branch") {
    process.stdout.write(readFileSync(sm.createBranchedSession(atId), "utf8"));
  } else {
    const entries = sm.getEntries();
    const labels = Object.fromEntries(entries.map((e) => [e.id, sm.getLabel(e.id)]).filter(([, label]) => label !== undefined));
    const context = atId ? buildSessionContext(entries, atId) : sm.buildSessionContext();
    process.stdout.write(JSON.stringify({ header: sm.getHeader(), leafId: sm.getLeafId(), name: sm.getSessionName() ?? null, labels, entryIds: entries.map((e) => e.id), context }));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
