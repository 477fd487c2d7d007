// Runs a compiled test index inside the extension host of a fresh code-server and
// waits for the workbench to report the result through codeAutomationExit.
import { readFile } from "node:fs/promises";
import type { CodeServerInstall } from "./install-code-server";
import { openVsCode, type LaunchOptions, type VsCodeWindow } from "./launch";
import type { MochaFailure } from "../../test/vscode/mocha-run";
import { readCounts } from "./result-file";

export interface SuiteResult {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
  seconds: number;
  /** Failed tests' titles and first error lines, repeated in the summary CI shows last. */
  failures?: readonly MochaFailure[];
}

export interface HostSuiteOptions extends LaunchOptions {
  extensionTestsPath: string;
  /** Whole launch, from starting code-server to the exit call. */
  timeoutMs: number;
}

export function timeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** With a grep, a suite may rightly run nothing; without one, running nothing is a failure. */
export function suiteOk(counts: { passed: number; failed: number }): boolean {
  return counts.failed === 0 && (counts.passed > 0 || !!process.env.PI_SESSIONS_VSCODE_GREP);
}

function print(title: string, text: string): void {
  if (text.trim() === "") return;
  console.log(`--- ${title} ---\n${text.replace(/\n$/, "")}`);
}

async function readText(path: string): Promise<string> {
  return readFile(path, "utf8").catch(() => "");
}

export async function runHostSuite(install: CodeServerInstall, name: string, options: HostSuiteOptions): Promise<SuiteResult> {
  const started = Date.now();
  console.log(`\n== ${name} ==`);
  let window: VsCodeWindow | undefined;
  const opening = openVsCode(install, options).then((opened) => (window = opened));
  const seconds = (): number => (Date.now() - started) / 1000;
  try {
    const exit = await timeout(
      opening.then((opened) => opened.automationExit),
      options.timeoutMs,
      name,
    );
    const opened = window!;
    console.log((await readText(opened.folder.outputFile)).replace(/\n$/, ""));
    const counts = await readCounts(opened.folder.resultFile);
    if (exit.code !== 0 || !counts) {
      // The workbench's own logs (window, extension host, network) say why it ended early.
      print("workbench logs", exit.logs.join("\n"));
      print("code-server output", opened.codeServer.output());
    }
    const passed = counts?.passed ?? 0;
    const failed = counts?.failed ?? 1;
    return { name, ok: exit.code === 0 && suiteOk({ passed, failed }), passed, failed, seconds: seconds(), failures: counts?.failures ?? [] };
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    if (window) {
      print("test output so far", await readText(window.folder.outputFile));
      print("browser console", window.consoleLines().slice(-60).join("\n"));
      print("code-server output", window.codeServer.output().split("\n").slice(-60).join("\n"));
    }
    return { name, ok: false, passed: 0, failed: 1, seconds: seconds() };
  } finally {
    // If the launch itself timed out, close the window once it has opened (or failed to).
    await (window ?? (await opening.catch(() => undefined)))?.close();
  }
}
