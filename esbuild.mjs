// Bundles: the CLI (ESM-free CJS for Node 20), the extension (CJS, vscode external),
// and the webview (browser ESM). pi-ai is bundled but loaded lazily at run time.
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cliPiAiApart, cliPiAiBundle } from "./scripts/cli-pi-ai-apart.mjs";

const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
  legalComments: "none",
};

const entries = [
  {
    ...common,
    entryPoints: ["src/cli/main.ts"],
    outfile: "dist/cli.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
    external: ["@opentelemetry/api"],
    plugins: [cliPiAiApart],
  },
  cliPiAiBundle(common, "dist/cli.js"),
  // The pi extension: pi loads dist/pi-extension.js (a stub, copied below) with
  // jiti; the stub loads this bundle with Node's own require.
  {
    ...common,
    entryPoints: ["src/pi-extension/index.ts"],
    outfile: "dist/pi-extension-main.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["@opentelemetry/api"],
    // pi-ai (≈ 6 MB) apart, shared with the CLI: required only when a summary calls a model,
    // so pi starts as fast with the extension as without.
    plugins: [cliPiAiApart],
  },
];

if (existsSync("src/extension/extension.ts")) {
  entries.push({
    ...common,
    entryPoints: ["src/extension/extension.ts"],
    outfile: "dist/extension.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode", "@opentelemetry/api"],
  });
  // The cold catalogue fill's child process (forked by the extension host).
  entries.push({
    ...common,
    entryPoints: ["src/core/catalogue/fill-child.ts"],
    outfile: "dist/catalogue-fill.js",
    platform: "node",
    format: "cjs",
    target: "node20",
  });
  // The index child: indexes and snapshots big sessions (forked by the extension host).
  entries.push({
    ...common,
    entryPoints: ["src/core/session/index-child/index-child.ts"],
    outfile: "dist/index-child.js",
    platform: "node",
    format: "cjs",
    target: "node20",
  });
}

if (existsSync("src/webview/main.ts")) {
  entries.push({
    ...common,
    entryPoints: ["src/webview/main.ts"],
    outfile: "dist/webview.js",
    platform: "browser",
    format: "esm",
    target: "es2022",
  });
  entries.push({
    ...common,
    entryPoints: ["src/webview/reader/main.ts"],
    outfile: "dist/reader.js",
    platform: "browser",
    format: "esm",
    target: "es2022",
  });
  entries.push({
    ...common,
    entryPoints: ["src/webview/usage/main.ts"],
    outfile: "dist/usage.js",
    platform: "browser",
    format: "esm",
    target: "es2022",
  });
}

await Promise.all(entries.map((options) => build(options)));
if (existsSync("dist/extension.js")) asciiOnly("dist/extension.js");

// The bash parser's WebAssembly (files-touched): loaded at run time from the
// bundle's own folder, so dist/ works without node_modules.
mkdirSync("dist", { recursive: true });
const require = createRequire(import.meta.url);
copyFileSync(join(dirname(require.resolve("web-tree-sitter/web-tree-sitter.wasm")), "web-tree-sitter.wasm"), "dist/web-tree-sitter.wasm");
copyFileSync("src/core/files-touched/tree-sitter-bash.wasm", "dist/tree-sitter-bash.wasm");
copyFileSync("src/pi-extension/loader.cjs", "dist/pi-extension.js");
if (watch) console.log("watch mode is not wired; rerun npm run build");

/**
 * esbuild escapes non-ASCII characters except in regular expression literals
 * (two are left: ours and markdown-it's). One such character makes V8 keep the
 * whole bundle's source as a two-byte string in the extension host (3.4 MB more
 * for the shipped bundle); in a regex, `\uXXXX` matches the same character.
 */
function asciiOnly(file) {
  const text = readFileSync(file, "utf8");
  // eslint-disable-next-line no-control-regex
  const escaped = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (escaped !== text) writeFileSync(file, escaped);
}
