// Regenerates src/core/agent/omp-18/native-tokenizer-models.json: the models of
// omp 18.3.4's bundled catalog that omp counts with a native tokenizer (a
// `tokenizer` family), by provider and family. Reads the omp bundle the test
// tooling installed (test/support/omp/install.ts); run after a version bump:
//   node scripts/omp/extract-native-tokenizers.mjs <path to omp's dist/cli.js>
// test/unit/omp/native-tokenizer.test.ts checks the table against omp's own catalog.
import { readFileSync, writeFileSync } from "node:fs";

const bundle = readFileSync(process.argv[2], "utf8");
const table = {};
const head = /\{"id":"([^"]+)","name":"(?:[^"\\]|\\.)*","api":"[^"]+","provider":"([^"]+)"/g;
for (let m = head.exec(bundle); m; m = head.exec(bundle)) {
  const next = bundle.indexOf('{"id":"', head.lastIndex);
  const rest = bundle.slice(head.lastIndex, next > 0 ? next : head.lastIndex + 3000);
  const family = /"tokenizer":"([a-z0-9-]+)"/.exec(rest)?.[1];
  if (!family) continue;
  const [, id, provider] = m;
  ((table[provider] ??= {})[family] ??= []).includes(id) || table[provider][family].push(id);
}
const sorted = Object.fromEntries(
  Object.keys(table)
    .sort()
    .map((p) => [p, Object.fromEntries(Object.keys(table[p]).sort().map((f) => [f, table[p][f].sort()]))]),
);
writeFileSync(new URL("../../src/core/agent/omp-18/native-tokenizer-models.json", import.meta.url), `${JSON.stringify(sorted)}\n`);
