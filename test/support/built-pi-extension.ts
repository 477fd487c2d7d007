// The pi extension as `npm run build` makes it (dist/pi-extension.js, the stub
// pi loads, and dist/pi-extension-main.js, the bundle),
// built once per test file into a temp dir (with the bash parser's wasm files
// beside it), so tests load what ships, not a stale dist/.

import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";
// @ts-expect-error -- a plain .mjs build helper shared with esbuild.mjs (no types)
import { cliPiAiApart, cliPiAiBundle } from "../../scripts/cli-pi-ai-apart.mjs";

const root = resolve(__dirname, "..", "..");

export async function buildPiExtension(outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, "pi-extension.js");
  copyFileSync(join(root, "src", "pi-extension", "loader.cjs"), outfile);
  await build({
    entryPoints: [join(root, "src", "pi-extension", "index.ts")],
    outfile: join(outDir, "pi-extension-main.js"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["@opentelemetry/api"],
    logLevel: "silent",
    plugins: [cliPiAiApart],
  });
  // pi-ai apart (dist/cli-parts/pi-ai.js), as npm run build writes it.
  const piAi = cliPiAiBundle({ bundle: true, logLevel: "silent" }, join(outDir, "pi-extension-main.js"));
  await build({ ...piAi, stdin: { ...piAi.stdin, resolveDir: root } });
  const require = createRequire(join(root, "package.json"));
  copyFileSync(join(dirname(require.resolve("web-tree-sitter/web-tree-sitter.wasm")), "web-tree-sitter.wasm"), join(outDir, "web-tree-sitter.wasm"));
  copyFileSync(join(root, "src", "core", "files-touched", "tree-sitter-bash.wasm"), join(outDir, "tree-sitter-bash.wasm"));
  return outfile;
}
