// Runs the browser-driven tests (out/test/vscode/ui/*.test.js) with mocha in this
// process, against the workbench page of a fresh code-server with the extension loaded.
import { join } from "node:path";
import { runMochaFolder } from "../../test/vscode/mocha-run";
import { setWorkbench } from "../../test/vscode/ui/context";
import { Workbench } from "../../test/vscode/ui/workbench";
import type { SuiteResult } from "./host-suite";
import { suiteOk, timeout } from "./host-suite";
import type { CodeServerInstall } from "./install-code-server";
import { openVsCode, type LaunchOptions, type VsCodeWindow } from "./launch";

export interface UiSuiteOptions extends LaunchOptions {
  testsDir: string;
  screenshotsDir: string;
  timeoutMs: number;
}

export async function runUiSuite(install: CodeServerInstall, name: string, options: UiSuiteOptions): Promise<SuiteResult> {
  const started = Date.now();
  console.log(`\n== ${name} ==`);
  let window: VsCodeWindow | undefined;
  const opening = openVsCode(install, options).then((opened) => (window = opened));
  try {
    const counts = await timeout(
      (async () => {
        const opened = await opening;
        const workbench = new Workbench(opened.page, {
          workspaceDir: opened.folder.workspaceDir,
          userDataDir: opened.folder.userDataDir,
          agentDir: opened.folder.agentDir,
          screenshotsDir: options.screenshotsDir,
        });
        await workbench.ready();
        setWorkbench(workbench);
        return runMochaFolder(options.testsDir, {
          timeoutMs: 60_000,
          grep: process.env.PI_SESSIONS_VSCODE_GREP,
          afterFailure: async (title) => {
            const path = await workbench.screenshot(`failed-${title.replace(/[^\w-]+/g, "-").slice(0, 80)}`);
            console.log(`    screenshot of the failure: ${path}`);
            // What the extension said around it (a model call's error, a command's refusal): toasts and its log's end.
            const toasts = await workbench.notifications().catch(() => []);
            if (toasts.length > 0) console.log(`    notifications: ${toasts.join(" | ")}`);
            const log = (await workbench.extensionLog().catch(() => "")).trimEnd().split("\n").slice(-15);
            if (log.length > 0 && log[0] !== "") console.log(`    the extension's log, last lines:\n${log.map((line) => `      ${line}`).join("\n")}`);
          },
        });
      })(),
      options.timeoutMs,
      name,
    );
    return { name, ok: suiteOk(counts), passed: counts.passed, failed: counts.failed, seconds: (Date.now() - started) / 1000, failures: counts.failures };
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    if (window) {
      await window.page.screenshot({ path: join(options.screenshotsDir, "failure.png") }).catch(() => undefined);
      console.log(window.consoleLines().slice(-40).join("\n"));
      console.log(window.codeServer.output().split("\n").slice(-40).join("\n"));
    }
    return { name, ok: false, passed: 0, failed: 1, seconds: (Date.now() - started) / 1000 };
  } finally {
    setWorkbench(undefined);
    await (window ?? (await opening.catch(() => undefined)))?.close();
  }
}
