// The collector bundled the way the CLI and the extension are (esbuild, CJS,
// node20) must find its WebAssembly next to the bundle, with no node_modules.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..", "..");
const work = mkdtempSync(join(tmpdir(), "files-touched-bundle-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const runtimeWasm = join(dirname(createRequire(join(root, "package.json")).resolve("web-tree-sitter/web-tree-sitter.wasm")), "web-tree-sitter.wasm");
const bashWasm = join(root, "src", "core", "files-touched", "tree-sitter-bash.wasm");

async function bundle(entrySource: string, outDir: string): Promise<string> {
  const entry = join(work, `entry-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(entry, entrySource);
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, "main.js");
  await build({ entryPoints: [entry], outfile, bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "silent" });
  return outfile;
}

const indexPath = JSON.stringify(join(root, "src", "core", "files-touched", "index.ts"));

describe("bundled with esbuild into CJS", () => {
  it("loads the wasm from the bundle's folder, without node_modules", async () => {
    const dist = join(work, "app", "dist");
    const main = await bundle(
      `import { initFilesTouched, bashCommandFilesTouched } from ${indexPath};
       initFilesTouched().then(() => {
         const r = bashCommandFilesTouched("cd src && sed -i 's/a/b/' x.ts && mv x.ts y.ts", { cwd: "/repo" });
         process.stdout.write(JSON.stringify(r.files.map((f) => [f.displayPath, f.ops])));
       });`,
      dist,
    );
    copyFileSync(runtimeWasm, join(dist, "web-tree-sitter.wasm"));
    copyFileSync(bashWasm, join(dist, "tree-sitter-bash.wasm"));
    const out = execFileSync(process.execPath, [main], { cwd: work, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([["src/y.ts", "EM"], ["src/x.ts", "D"]]);
  });

  it("takes an explicit wasm folder, and reports a missing one as an error", async () => {
    const dist = join(work, "app2", "dist");
    const assets = join(work, "assets");
    mkdirSync(assets, { recursive: true });
    copyFileSync(runtimeWasm, join(assets, "web-tree-sitter.wasm"));
    copyFileSync(bashWasm, join(assets, "tree-sitter-bash.wasm"));
    const main = await bundle(
      `import { initFilesTouched, bashCommandFilesTouched } from ${indexPath};
       const dir = process.argv[2];
       initFilesTouched({ wasmDir: dir }).then(
         () => process.stdout.write(JSON.stringify(bashCommandFilesTouched("rm a.txt", { cwd: "/r" }).files)),
         (e) => process.stdout.write("error: " + e.message),
       );`,
      dist,
    );
    const ok = execFileSync(process.execPath, [main, assets], { cwd: work, encoding: "utf8" });
    expect(JSON.parse(ok)).toEqual([{ path: "/r/a.txt", displayPath: "a.txt", ops: "D" }]);
    const missing = execFileSync(process.execPath, [main, join(work, "nowhere")], { cwd: work, encoding: "utf8" });
    expect(missing).toMatch(/^error: files-touched: web-tree-sitter\.wasm not found/);
  });
});
