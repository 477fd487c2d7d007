// What the summary panel's workbench UI suites share: the fixture session
// placed where pi keeps the workspace's sessions, the panel's webview
// document, its manifest rows, editor tabs.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Frame, Locator } from "playwright-core";
import { panelSessionText } from "../summary-panel-session";
import { WEBVIEWS, type Workbench } from "./workbench";

export const STEP_MS = 20_000;

/** pi's folder for the workspace's sessions (session-manager.js getDefaultSessionDir). */
export function piSessionFolder(wb: Workbench): string {
  return join(wb.paths.agentDir, "sessions", `--${wb.paths.workspaceDir.slice(1).replace(/[/\\:]/g, "-")}--`);
}

/** Writes the fixture session (and a file outside the workspace it read) where pi keeps the workspace's sessions. */
export function placePanelSession(wb: Workbench, name: string, withTail: boolean): { path: string; outsideFile: string } {
  const outsideFile = join(dirname(wb.paths.agentDir), "elsewhere", "notes.txt");
  mkdirSync(dirname(outsideFile), { recursive: true });
  writeFileSync(outsideFile, "notes outside the workspace\n");
  const folder = piSessionFolder(wb);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `2026-01-10T09-00-00-000Z_${name}.jsonl`);
  writeFileSync(path, panelSessionText({ workspace: wb.paths.workspaceDir, outsideFile, withTail, name: `Summary panel ${name}` }));
  return { path, outsideFile };
}

/** The summary panel's document (its webview frame whose page has our header). */
export function summaryFrame(wb: Workbench): Promise<Frame> {
  return wb.webviewFrame(WEBVIEWS.summaryPanel);
}

/**
 * Runs `check` against the summary panel's frame. Right after a window reload VS Code may replace a
 * restored webview's frame once more (its editor group laid out again): a check that meets
 * "Frame was detached" runs again, from the start, on the frame shown then.
 */
export async function inSummaryFrame<T>(wb: Workbench, check: (frame: Frame) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const frame = await summaryFrame(wb);
    try {
      return await check(frame);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 3 || !/frame was detached|execution context was destroyed/i.test(message)) throw error;
      await wb.page.waitForTimeout(250);
    }
  }
}

export function fileRow(frame: Frame, displayPath: string): Locator {
  return frame.locator("tr.file-row").filter({ has: frame.locator(".display-path", { hasText: displayPath }) });
}

export function editorTab(wb: Workbench, name: string): Locator {
  return wb.page.locator(`.tabs-container .tab[data-resource-name="${name}"]`);
}

/** Waits until the element has (or, with `present` false, no longer has) the class. */
export async function waitForClass(frame: Frame, locator: Locator, className: string, present = true): Promise<void> {
  await frame.waitForFunction(
    ([element, name, wanted]) => (element as Element).classList.contains(name as string) === wanted,
    [await locator.elementHandle({ timeout: STEP_MS }), className, present] as const,
    { timeout: STEP_MS },
  );
}

