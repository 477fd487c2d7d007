// Opens the workbench of a fresh code-server in headless Chromium, with the extension
// under development loaded (and optionally a test index run inside the extension host).
// One launch = one code-server, one browser, one scratch folder; close() ends all three.
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { OUTPUT_FILE_ENV, RESULT_FILE_ENV } from "../../test/vscode/mocha-run";
import { launchChromium } from "./browser";
import { onCleanup } from "./cleanup";
import { startCodeServer, type RunningCodeServer } from "./code-server";
import type { CodeServerInstall } from "./install-code-server";
import { createRunFolder, type RunFolder } from "./run-folder";

export interface LaunchOptions {
  /** Repository root. */
  root: string;
  /** Default true. false opens the folder in Restricted Mode (workspace trust stays on). */
  trusted?: boolean;
  /** Folder copied to be the workspace; default test/vscode/workspace/project. */
  workspaceFixture?: string;
  /** Sessions placed in the agent dir for the workspace; default test/vscode/workspace/sessions; null for none. */
  sessionsFixture?: string | null;
  /** Default: the repository. null loads only what is installed in the extensions folder. */
  extensionDevelopmentPath?: string | null;
  /** Compiled test index (exports run()) to run inside the extension host. */
  extensionTestsPath?: string;
  /** Extra environment for code-server and so the extension host. */
  env?: Record<string, string>;
  /** User settings over the quiet defaults (e.g. "workbench.colorTheme"). */
  settings?: Record<string, unknown>;
  /** Runs after the scratch folder exists and before code-server starts (e.g. install a .vsix). */
  beforeStart?: (folder: RunFolder) => Promise<void>;
}

export interface AutomationExit {
  code: number;
  /** What the workbench handed to codeAutomationExit (its log files), as text. */
  logs: string[];
}

export interface VsCodeWindow {
  readonly page: Page;
  readonly browser: Browser;
  readonly codeServer: RunningCodeServer;
  readonly folder: RunFolder;
  /** The page's console output so far (the extension host's console is forwarded there). */
  consoleLines(): string[];
  /** Settles when the workbench calls codeAutomationExit (the end of an extension test run). */
  readonly automationExit: Promise<AutomationExit>;
  close(): Promise<void>;
}

function remoteUri(origin: string, absolutePath: string): string {
  return `vscode-remote://${new URL(origin).host}${absolutePath}`;
}

export function workbenchUrl(origin: string, folder: string, developmentPath: string | null, testsPath: string | undefined): string {
  const payload: [string, string][] = [];
  if (developmentPath) payload.push(["extensionDevelopmentPath", remoteUri(origin, developmentPath)]);
  if (testsPath) payload.push(["extensionTestsPath", remoteUri(origin, testsPath)]);
  const query = `folder=${encodeURIComponent(folder)}`;
  return payload.length ? `${origin}/?${query}&payload=${encodeURIComponent(JSON.stringify(payload))}` : `${origin}/?${query}`;
}

function logLines(logs: unknown): string[] {
  if (!Array.isArray(logs)) return logs === undefined ? [] : [String(logs)];
  return logs.map((entry) => {
    if (typeof entry === "string") return entry;
    // VS Code hands over its log files: { relativePath: "window.log", contents: "…" }.
    if (entry && typeof entry === "object" && "relativePath" in entry && "contents" in entry) {
      const { relativePath, contents } = entry as { relativePath: unknown; contents: unknown };
      return `# ${String(relativePath)}\n${String(contents)}`;
    }
    if (entry && typeof entry === "object" && "arguments" in entry) {
      const args = (entry as { arguments: unknown }).arguments;
      return Array.isArray(args) ? args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" ") : String(args);
    }
    return JSON.stringify(entry);
  });
}

export async function openVsCode(install: CodeServerInstall, options: LaunchOptions): Promise<VsCodeWindow> {
  const trusted = options.trusted ?? true;
  const folder = await createRunFolder({
    workspaceFixture: options.workspaceFixture ?? join(options.root, "test/vscode/workspace/project"),
    sessionsFixture: options.sessionsFixture === undefined ? join(options.root, "test/vscode/workspace/sessions") : options.sessionsFixture,
    settings: options.settings ?? {},
  });
  const closers: (() => Promise<void>)[] = [() => folder.remove()];
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      unregister();
      for (const closer of closers.reverse()) {
        try {
          await closer();
        } catch (error) {
          console.error(`while closing VS Code: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    return closed;
  };
  const unregister = onCleanup(close);

  try {
    await options.beforeStart?.(folder);
    const codeServer = await startCodeServer({
      install,
      folder: folder.workspaceDir,
      runDir: folder.dir,
      userDataDir: folder.userDataDir,
      extensionsDir: folder.extensionsDir,
      trusted,
      env: {
        PI_CODING_AGENT_DIR: folder.agentDir,
        PI_SESSIONS_TEST_TRUSTED: trusted ? "1" : "0",
        PI_SESSIONS_TEST_WORKSPACE: folder.workspaceDir,
        PI_SESSIONS_TEST_EXTENSIONS_DIR: folder.extensionsDir,
        [RESULT_FILE_ENV]: folder.resultFile,
        [OUTPUT_FILE_ENV]: folder.outputFile,
        ...options.env,
      },
    });
    closers.push(() => codeServer.stop());

    const browser = await launchChromium();
    closers.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const consoleLines: string[] = [];
    page.on("console", (message) => consoleLines.push(message.text()));
    page.on("pageerror", (error) => consoleLines.push(`[page error] ${error.message}`));

    let resolveExit: (exit: AutomationExit) => void = () => {};
    const automationExit = new Promise<AutomationExit>((resolve) => (resolveExit = resolve));
    await page.exposeFunction("codeAutomationExit", (code: unknown, logs: unknown) => {
      resolveExit({ code: typeof code === "number" ? code : 1, logs: logLines(logs) });
    });

    const developmentPath = options.extensionDevelopmentPath === undefined ? options.root : options.extensionDevelopmentPath;
    await page.goto(workbenchUrl(codeServer.origin, folder.workspaceDir, developmentPath, options.extensionTestsPath));
    return { page, browser, codeServer, folder, consoleLines: () => [...consoleLines], automationExit, close };
  } catch (error) {
    await close();
    throw error;
  }
}
