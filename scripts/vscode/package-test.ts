// The packaging test: `npm run package` builds the .vsix; `vsce ls` lists only what the
// extension needs; code-server installs the .vsix with exactly those files; and in a
// code-server with no development path the installed extension activates on its events;
// and in the workbench (Chromium) it lists the sessions and opens the reader, as a user sees it.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { runHostSuite, type SuiteResult } from "./host-suite";
import { ensureCodeServer, type CodeServerInstall } from "./install-code-server";
import { runCommand, runChecked } from "./run-command";
import type { RunFolder } from "./run-folder";
import { runUiSuite } from "./ui-suite";

/** Every file in the .vsix must match one of these (paths as `vsce ls` prints them). */
export const ALLOWED_IN_VSIX: readonly RegExp[] = [
  /^package\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
  /^dist\/(?!cli\.js$)[\w.-]+\.(js|css|wasm)$/,
  // pi-ai apart, loaded by the pi extension (and the CLI) only when a summary calls a model.
  /^dist\/cli-parts\/pi-ai\.js$/,
  /^media\/[\w.-]+\.(svg|png|css)$/,
];

export const REQUIRED_IN_VSIX: readonly string[] = ["package.json", "README.md", "LICENSE", "dist/extension.js", "dist/pi-extension.js", "dist/pi-extension-main.js", "dist/cli-parts/pi-ai.js", "media/pi-sessions.svg", "media/pi-sessions.png"];

/**
 * What is wrong with a .vsix file list: files it must not carry, files it lacks. `built`
 * is what the production build wrote into dist/: every bundle but the CLI's must ship
 * (a webview bundle left out of .vscodeignore gives a blank panel only once installed).
 */
export function vsixListProblems(files: readonly string[], built: readonly string[] = []): string[] {
  const problems = files.filter((file) => !ALLOWED_IN_VSIX.some((pattern) => pattern.test(file))).map((file) => `not allowed in the .vsix: ${file}`);
  const required = [...REQUIRED_IN_VSIX, ...built.filter((file) => /^dist\/[\w.-]+\.(js|css|wasm)$/.test(file) && file !== "dist/cli.js")];
  for (const file of required) if (!files.includes(file)) problems.push(`missing from the .vsix: ${file}`);
  return problems;
}

function check(name: string, started: number, problems: string[]): SuiteResult {
  for (const problem of problems) console.error(`  ${problem}`);
  console.log(`${problems.length === 0 ? "ok  " : "FAIL"} ${name}`);
  return { name, ok: problems.length === 0, passed: problems.length === 0 ? 1 : 0, failed: problems.length === 0 ? 0 : 1, seconds: (Date.now() - started) / 1000 };
}

async function filesUnder(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  return names.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)).split("\\").join("/"));
}

/**
 * VS Code runs extension tests only for a development extension: an empty stand-in one
 * (another id) carries the test run, so the Pi Sessions that runs is the installed one.
 */
async function writeHarnessExtension(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const manifest = { name: "pi-sessions-test-harness", publisher: "pi-sessions-tests", version: "0.0.0", engines: { vscode: "*" } };
  await writeFile(join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
}

/** vsce renames three files inside the .vsix (package.js: readme.md, changelog.md, LICENSE.txt). */
export function installedPathOf(listed: string): string {
  if (listed === "README.md") return "readme.md";
  if (listed === "CHANGELOG.md") return "changelog.md";
  if (listed === "LICENSE") return "LICENSE.txt";
  return listed;
}

async function installVsix(install: CodeServerInstall, vsix: string, folder: RunFolder): Promise<void> {
  const config = join(folder.dir, "install.yaml");
  await writeFile(config, "auth: none\n");
  await runChecked(
    install.nodeBin,
    [install.codeServerEntry, "--config", config, "--extensions-dir", folder.extensionsDir, "--user-data-dir", folder.userDataDir, "--install-extension", vsix],
    { env: { ...install.env, HOME: join(folder.dir, "home"), TMPDIR: join(folder.dir, "tmp") } },
  );
}

export async function runPackageTest(root: string): Promise<SuiteResult[]> {
  const results: SuiteResult[] = [];
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { name: string; version: string; publisher: string };
  const vsix = join(root, `${manifest.name}-${manifest.version}.vsix`);

  let started = Date.now();
  console.log("\n== npm run package ==");
  const packaged = await runCommand("npm", ["run", "package"], { cwd: root, echo: true });
  results.push(check("npm run package builds the .vsix", started, packaged.code === 0 && existsSync(vsix) ? [] : [`exit ${packaged.code}; ${vsix} ${existsSync(vsix) ? "exists" : "missing"}`]));
  if (!results[0]!.ok) return results;

  started = Date.now();
  const listed = (await runChecked(join(root, "node_modules/.bin/vsce"), ["ls", "--no-dependencies"], { cwd: root }))
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  console.log(`vsce ls:\n  ${listed.join("\n  ")}`);
  results.push(check("vsce ls lists only what the extension needs", started, vsixListProblems(listed, (await readdir(join(root, "dist"))).map((name) => `dist/${name}`))));

  const install = await ensureCodeServer();
  let installedFiles: string[] = [];
  const harness = join(tmpdir(), `pi-sessions-test-harness-${process.pid}`);
  await writeHarnessExtension(harness);
  results.push(
    await runHostSuite(install, "installed .vsix activates in code-server", {
      root,
      extensionDevelopmentPath: harness,
      extensionTestsPath: join(root, "out/test/vscode/installed/index.js"),
      sessionsFixture: null,
      timeoutMs: 180_000,
      beforeStart: async (folder) => {
        await installVsix(install, vsix, folder);
        const extensionDir = join(folder.extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
        installedFiles = (await filesUnder(extensionDir)).filter((file) => file !== ".vsixmanifest").sort();
      },
    }),
  );

  await rm(harness, { recursive: true, force: true });

  results.push(
    await runUiSuite(install, "installed .vsix in the workbench (Chromium)", {
      root,
      extensionDevelopmentPath: null,
      testsDir: join(root, "out/test/vscode/installed-ui"),
      screenshotsDir: join(root, "test/vscode/screenshots"),
      timeoutMs: 240_000,
      beforeStart: (folder) => installVsix(install, vsix, folder),
    }),
  );

  started = Date.now();
  const expected = listed.map(installedPathOf).sort();
  const sameFiles = JSON.stringify(installedFiles) === JSON.stringify(expected);
  results.push(check("code-server installed exactly the files vsce lists", started, sameFiles ? [] : [`installed: ${installedFiles.join(", ")}`, `vsce ls:   ${expected.join(", ")}`]));
  return results;
}
