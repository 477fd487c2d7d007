#!/usr/bin/env node
// Entry point of the real-VS-Code tooling: `node scripts/vscode/run.mjs <command>`.
// Node 20 cannot run TypeScript, so this bundles the runner and the test suites with
// esbuild (a fraction of a second) and then hands over to scripts/vscode/main.ts.
import { build } from "esbuild";
import { readdirSync, existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const out = join(root, "out");

function typeScriptFiles(dir) {
  const absolute = join(root, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true })
    .filter((name) => typeof name === "string" && name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .map((name) => relative(root, join(absolute, name)));
}

const node = { bundle: true, platform: "node", format: "cjs", target: "node20", sourcemap: "inline", logLevel: "warning", absWorkingDir: root };
// mocha and playwright-core load parts of themselves dynamically: they stay in node_modules.
const runnerExternals = ["playwright-core", "@vscode/test-electron", "mocha", "esbuild"];

// Compiled suites of deleted or renamed test files must not run again.
rmSync(join(out, "test/vscode"), { recursive: true, force: true });

await Promise.all([
  build({ ...node, entryPoints: ["scripts/vscode/main.ts"], outfile: join(out, "vscode-runner/main.js"), external: runnerExternals }),
  // Suites that run inside the extension host: one bundle per file, `vscode` is the host's.
  build({
    ...node,
    entryPoints: [...typeScriptFiles("test/vscode/suite"), ...typeScriptFiles("test/vscode/installed"), ...typeScriptFiles("test/vscode/bench")],
    outdir: join(out, "test/vscode"),
    outbase: "test/vscode",
    external: ["vscode", "mocha", "@opentelemetry/api"],
  }),
  // Suites that drive the browser page from outside the host.
  build({
    ...node,
    entryPoints: typeScriptFiles("test/vscode/ui"),
    outdir: join(out, "test/vscode/ui"),
    outbase: "test/vscode/ui",
    external: runnerExternals,
  }),
  build({
    ...node,
    entryPoints: typeScriptFiles("test/vscode/installed-ui"),
    outdir: join(out, "test/vscode/installed-ui"),
    outbase: "test/vscode/installed-ui",
    external: runnerExternals,
  }),
]);

const require = createRequire(import.meta.url);
const { main } = require(join(out, "vscode-runner/main.js"));
process.exitCode = await main(root, process.argv.slice(2));
