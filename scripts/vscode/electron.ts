// The standard launcher, for machines that can download VS Code: @vscode/test-electron
// runs the same test index in a desktop VS Code.
import { join } from "node:path";
import { downloadAndUnzipVSCode, runTests } from "@vscode/test-electron";
import { suiteOk, type SuiteResult } from "./host-suite";
import { createRunFolder } from "./run-folder";
import { cacheRoot } from "./versions";
import { RESULT_FILE_ENV } from "../../test/vscode/mocha-run";
import { readCounts } from "./result-file";

/** The VS Code executable, or the reason it cannot be had (no network: ENOTFOUND within a second). */
export async function downloadVsCode(timeoutMs: number): Promise<string | Error> {
  try {
    return await downloadAndUnzipVSCode({ version: "stable", cachePath: join(cacheRoot(), "vscode-electron"), timeout: timeoutMs });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

export interface ElectronSuiteOptions {
  root: string;
  executable: string;
  extensionTestsPath: string;
  trusted: boolean;
  env?: Record<string, string>;
}

export async function runElectronSuite(name: string, options: ElectronSuiteOptions): Promise<SuiteResult> {
  const started = Date.now();
  console.log(`\n== ${name} (VS Code desktop) ==`);
  const folder = await createRunFolder({
    workspaceFixture: join(options.root, "test/vscode/workspace/project"),
    sessionsFixture: join(options.root, "test/vscode/workspace/sessions"),
    settings: {},
  });
  const resultFile = folder.resultFile;
  try {
    const code = await runTests({
      vscodeExecutablePath: options.executable,
      extensionDevelopmentPath: options.root,
      extensionTestsPath: options.extensionTestsPath,
      launchArgs: [
        folder.workspaceDir,
        ...(options.trusted ? ["--disable-workspace-trust"] : []),
        "--user-data-dir", folder.userDataDir,
        "--extensions-dir", folder.extensionsDir,
        "--disable-extensions",
      ],
      extensionTestsEnv: {
        PI_CODING_AGENT_DIR: folder.agentDir,
        PI_SESSIONS_TEST_TRUSTED: options.trusted ? "1" : "0",
        PI_SESSIONS_TEST_WORKSPACE: folder.workspaceDir,
        [RESULT_FILE_ENV]: resultFile,
        ...options.env,
      },
    }).catch(() => 1);
    const counts = await readCounts(resultFile);
    return { name, ok: code === 0 && !!counts && suiteOk(counts), passed: counts?.passed ?? 0, failed: counts?.failed ?? 1, seconds: (Date.now() - started) / 1000 };
  } finally {
    await folder.remove();
  }
}
