// Commands of scripts/vscode/run.mjs:
//   install       install code-server (and Node 24, Chromium) into the cache if missing
//   test          the real-VS-Code suites (npm run test:vscode)
//   bench         the real-host CPU benchmark (npm run bench:vscode)
//   package-test  package the .vsix, check its contents, install it into code-server, check it activates
//   render-icon   redraw media/pi-sessions.png from media/pi-sessions.svg
// Environment: PI_SESSIONS_VSCODE=auto|electron|code-server (launcher), PI_SESSIONS_CACHE
// (cache folder), PI_SESSIONS_VSCODE_GREP (only tests whose title matches),
// PI_SESSIONS_VSCODE_TIMEOUT_MS (one launch), PI_SESSIONS_VSCODE_TOTAL_TIMEOUT_MS (the command),
// PI_SESSIONS_VSCODE_SUITES (some of trusted,restricted,ui; all when unset).
import { join } from "node:path";
import { cleanupAll, cleanupOnSignals } from "./cleanup";
import { downloadVsCode, runElectronSuite } from "./electron";
import { runHostSuite, type SuiteResult } from "./host-suite";
import { ensureCodeServer } from "./install-code-server";
import { runBenchmark } from "./bench";
import { runPackageTest } from "./package-test";
import { renderIcon } from "./render-icon";
import { runUiSuite } from "./ui-suite";
import { ensureOmp, findOmpInstall } from "../../test/support/omp/install";
import { ompOptedOut } from "../../test/support/omp/provided";

type Launcher = "auto" | "electron" | "code-server";

function launcherFromEnv(): Launcher {
  const value = process.env.PI_SESSIONS_VSCODE ?? "auto";
  if (value === "auto" || value === "electron" || value === "code-server") return value;
  throw new Error(`PI_SESSIONS_VSCODE must be auto, electron or code-server, not "${value}"`);
}

// The UI suite (sidebar, palette, summary panel, reloads) takes 80–135 s on a busy 2-core machine.
const SUITE_TIMEOUT_MS = Number(process.env.PI_SESSIONS_VSCODE_TIMEOUT_MS) || 360_000;

type SuiteName = "trusted" | "restricted" | "ui";

function suitesFromEnv(): ReadonlySet<SuiteName> {
  const all: SuiteName[] = ["trusted", "restricted", "ui"];
  const value = process.env.PI_SESSIONS_VSCODE_SUITES;
  if (!value) return new Set(all);
  const names = value.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !all.includes(name as SuiteName));
  if (unknown.length > 0) throw new Error(`PI_SESSIONS_VSCODE_SUITES: unknown suite ${unknown.join(", ")} (use ${all.join(",")})`);
  return new Set(names as SuiteName[]);
}

/**
 * The real omp 18.3.4 for the host suites that run it (Bun and omp's CLI from the tool cache, installed when
 * missing, as the unit suites install it): its paths, or why it is missing; nothing when opted out offline.
 */
async function ompForHost(): Promise<Record<string, string>> {
  if (ompOptedOut()) return { PI_SESSIONS_TEST_OMP_SKIP: "PI_SESSIONS_SKIP_OMP is set" };
  try {
    const install = findOmpInstall() ?? (await ensureOmp());
    return { PI_SESSIONS_TEST_OMP_BUN: install.bun, PI_SESSIONS_TEST_OMP_CLI: install.cliJs };
  } catch (error) {
    return { PI_SESSIONS_TEST_OMP_ERROR: `omp 18.3.4 could not be installed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
}

async function runTestCommand(root: string): Promise<SuiteResult[]> {
  const suites = suitesFromEnv();
  const launcher = launcherFromEnv();
  const hostIndex = join(root, "out/test/vscode/suite/index.js");
  if (launcher !== "code-server") {
    const executable = await downloadVsCode(launcher === "electron" ? 120_000 : 10_000);
    if (typeof executable === "string") {
      const results: SuiteResult[] = [];
      if (suites.has("trusted")) results.push(await runElectronSuite("extension host suite, trusted workspace", { root, executable, extensionTestsPath: hostIndex, trusted: true, env: await ompForHost() }));
      if (suites.has("restricted")) results.push(await runElectronSuite("extension host suite, Restricted Mode", { root, executable, extensionTestsPath: hostIndex, trusted: false, env: { PI_SESSIONS_VSCODE_GREP: "@restricted" } }));
      return results;
    }
    if (launcher === "electron") throw new Error(`cannot download VS Code: ${executable.message}`);
    console.log(`VS Code cannot be downloaded here (${executable.message.split("\n")[0]}): using code-server`);
  }

  const install = await ensureCodeServer();
  const results: SuiteResult[] = [];
  if (suites.has("trusted")) results.push(await runHostSuite(install, "extension host suite, trusted workspace", { root, extensionTestsPath: hostIndex, timeoutMs: SUITE_TIMEOUT_MS, env: await ompForHost() }));
  if (suites.has("restricted")) {
    results.push(
      await runHostSuite(install, "extension host suite, Restricted Mode", {
        root,
        extensionTestsPath: hostIndex,
        trusted: false,
        // Only suites tagged @restricted (what must also work in an untrusted workspace), and of those the ones PI_SESSIONS_VSCODE_GREP asks for.
        env: { PI_SESSIONS_VSCODE_GREP: process.env.PI_SESSIONS_VSCODE_GREP ? `^(?=.*@restricted)(?=.*(?:${process.env.PI_SESSIONS_VSCODE_GREP}))` : "@restricted" },
        timeoutMs: SUITE_TIMEOUT_MS,
      }),
    );
  }
  if (suites.has("ui")) {
    results.push(
      await runUiSuite(install, "workbench UI suite", {
        root,
        testsDir: join(root, "out/test/vscode/ui"),
        screenshotsDir: join(root, "test/vscode/screenshots"),
        timeoutMs: SUITE_TIMEOUT_MS,
      }),
    );
  }
  return results;
}

function printSummary(title: string, results: readonly SuiteResult[]): boolean {
  console.log(`\n${title}`);
  for (const result of results) {
    console.log(`  ${result.ok ? "ok  " : "FAIL"} ${result.name}: ${result.passed} passed, ${result.failed} failed (${result.seconds.toFixed(1)} s)`);
    for (const failure of result.failures ?? []) console.log(`       ✗ ${failure.title}: ${failure.message}`);
  }
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  console.log(`vscode: ${passed} passed, ${failed} failed`);
  return results.length > 0 && results.every((result) => result.ok);
}

/** Whole command, install included: a hang anywhere still ends, with everything stopped. */
const TOTAL_TIMEOUT_MS = Number(process.env.PI_SESSIONS_VSCODE_TOTAL_TIMEOUT_MS) || 30 * 60_000;

function exitAfter(ms: number): void {
  setTimeout(() => {
    console.error(`error: gave up after ${Math.round(ms / 1000)} s; stopping code-server and the browser`);
    void cleanupAll().finally(() => process.exit(1));
  }, ms).unref();
}

export async function main(root: string, args: string[]): Promise<number> {
  const [command] = args;
  cleanupOnSignals();
  exitAfter(TOTAL_TIMEOUT_MS);
  const started = Date.now();
  try {
    switch (command) {
      case "install": {
        const install = await ensureCodeServer();
        console.log(`code-server ready (${((Date.now() - started) / 1000).toFixed(1)} s): ${install.codeServerEntry}`);
        return 0;
      }
      case "test": {
        const ok = printSummary("real VS Code suites", await runTestCommand(root));
        console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return ok ? 0 : 1;
      }
      case "bench": {
        const ok = printSummary("real-host benchmark", [await runBenchmark(await ensureCodeServer(), root, Math.max(SUITE_TIMEOUT_MS, 1_200_000))]);
        return ok ? 0 : 1;
      }
      case "package-test": {
        const ok = printSummary("packaging", await runPackageTest(root));
        return ok ? 0 : 1;
      }
      case "render-icon":
        console.log(`wrote ${await renderIcon(root)}`);
        return 0;
      default:
        console.error("usage: node scripts/vscode/run.mjs install|test|package-test|render-icon");
        return 2;
    }
  } catch (error) {
    console.error(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await cleanupAll();
  }
}
