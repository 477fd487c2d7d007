// pi-ai (about 6 MB bundled) must load only when a model is called, never when
// our modules are imported: the extension's activation imports them. The
// import of pi-ai is spied on with vi.mock (the factory runs only when
// something really imports the module) and passes the real module through.

import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it, vi } from "vitest";

const loaded = vi.hoisted(() => [] as string[]);

vi.mock("@mariozechner/pi-ai", async (importOriginal) => {
  loaded.push("@mariozechner/pi-ai");
  return await importOriginal();
});
vi.mock("@mariozechner/pi-ai/oauth", async (importOriginal) => {
  loaded.push("@mariozechner/pi-ai/oauth");
  return await importOriginal();
});

const ROOT = join(__dirname, "../../..");

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const item of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) out.push(...(await tsFiles(path)));
    else if (item.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

describe("pi-ai is loaded lazily", () => {
  it("importing every module of src/core/summarize and src/core/hooks loads no pi-ai; a call path does", async () => {
    const files = [...(await tsFiles(join(ROOT, "src/core/summarize"))), ...(await tsFiles(join(ROOT, "src/core/hooks")))];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) await import(file);
    expect(loaded).toEqual([]);

    const { loadPiAi, loadPiAiOAuth } = await import("../../../src/core/summarize/pi-ai-loader.js");
    const piAi = await loadPiAi();
    await loadPiAiOAuth();
    expect(typeof piAi.completeSimple).toBe("function");
    expect(loaded).toEqual(["@mariozechner/pi-ai", "@mariozechner/pi-ai/oauth"]);
  });

  it("no file under src/ imports pi-ai at top level (type-only imports are erased)", async () => {
    const offenders: string[] = [];
    for (const file of await tsFiles(join(ROOT, "src"))) {
      const text = await readFile(file, "utf8");
      const name = relative(ROOT, file);
      const valueImport = /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+["']@mariozechner\/pi-ai[^"']*["']/m.test(text);
      const sideEffectImport = /^\s*import\s+["']@mariozechner\/pi-ai/m.test(text);
      const dynamicImport = /import\(\s*["']@mariozechner\/pi-ai/.test(text) && name !== join("src", "core", "summarize", "pi-ai-loader.ts");
      if (valueImport || sideEffectImport || dynamicImport) offenders.push(name);
    }
    expect(offenders).toEqual([]);
  });
});
