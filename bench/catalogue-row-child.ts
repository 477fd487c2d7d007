// A process computing one catalogue row of the 100 MB session and nothing else:
// streamed (what the catalogue does) or from the full index (what it did), its
// peak RSS and CPU. Peak, because a listing's freed memory mostly stays resident.
// Bundled on its own (out/catalogue-row-child.mjs), like rss-child.ts.
import { rowFromSession, rowVersionPolicy } from "../src/core/catalogue/catalogue-row";
import { streamRow } from "../src/core/catalogue/streamed-row";
import { openSessionSync } from "../src/core/session/open/open-session";

const [file, mode] = process.argv.slice(2);
const versionOf = rowVersionPolicy({ defaultVersion: "0.73" });
const cpu = process.cpuUsage();
let tokens: number | undefined;
if (mode === "streamed") tokens = streamRow(file!, versionOf)?.computed?.row.contextTokens;
else {
  const session = openSessionSync(file!, { skim: true });
  tokens = rowFromSession(session, session.fingerprint.size, session.fingerprint.mtimeMs, versionOf)?.row.contextTokens;
}
const used = process.cpuUsage(cpu);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU (context tokens ${tokens})`);
