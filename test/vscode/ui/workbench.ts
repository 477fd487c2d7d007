// Helpers for tests that drive the VS Code workbench page from outside (playwright-core
// on code-server's page): open a view container, read and click tree rows, run palette
// commands, reach a webview's document, switch the theme, take screenshots.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Frame, Locator, Page } from "playwright-core";

export interface WorkbenchPaths {
  workspaceDir: string;
  userDataDir: string;
  agentDir: string;
  screenshotsDir: string;
}

const STEP_TIMEOUT_MS = 20_000;

/** A colour theme as the tests switch to it: its settings name, the workbench's class, the webviews' body class. */
export interface ThemeCase {
  setting: string;
  /** For screenshot names: light, dark, high-contrast. */
  name: string;
  workbenchClass: string;
  bodyClass: RegExp;
}

export const THEMES = {
  light: { setting: "Default Light Modern", name: "light", workbenchClass: "vs", bodyClass: /vscode-light/ },
  dark: { setting: "Default Dark Modern", name: "dark", workbenchClass: "vs-dark", bodyClass: /vscode-dark/ },
  highContrast: { setting: "Default High Contrast", name: "high-contrast", workbenchClass: "hc-black", bodyClass: /vscode-high-contrast/ },
} as const satisfies Record<string, ThemeCase>;

/** Light, dark and high contrast, in that order (the README's screenshot sets). */
export const ALL_THEMES: readonly ThemeCase[] = [THEMES.light, THEMES.dark, THEMES.highContrast];

/** The theme every launch starts in (scripts/vscode/run-folder.ts DEFAULT_USER_SETTINGS). */
const LAUNCH_THEME: ThemeCase = THEMES.dark;

/** Which webview a test wants: what its document shows (every selector must match). */
export interface WebviewKind {
  name: string;
  has: readonly string[];
}

export const WEBVIEWS = {
  any: { name: "", has: ["body"] },
  reader: { name: "reader", has: [".reader-header", "article.block"] },
  summaryPanel: { name: "summary panel", has: ["header.panel-header"] },
  usage: { name: "Usage", has: ["svg.chart", 'h1:has-text("Usage")'] },
} as const satisfies Record<string, WebviewKind>;

export class Workbench {
  constructor(
    readonly page: Page,
    readonly paths: WorkbenchPaths,
  ) {}

  /**
   * Waits until the workbench has rendered and the extension's contributions are
   * registered (its activity-bar item is there): before that, the palette does not list
   * its commands. The remote extension host takes a few seconds after the page loads.
   */
  async ready(): Promise<void> {
    await this.page.locator(".monaco-workbench .part.statusbar").waitFor({ timeout: 60_000 });
    await this.activityBarItem("Pi Sessions").waitFor({ timeout: 60_000 });
  }

  activityBarItem(title: string): Locator {
    return this.page.locator(".part.activitybar").getByRole("tab", { name: title, exact: false }).first();
  }

  sideBar(): Locator {
    return this.page.locator(".part.sidebar");
  }

  /** Drags the side bar's edge so rows show their descriptions (for the README screenshots). */
  async widenSideBar(by = 260): Promise<void> {
    const width = await this.sideBarWidth();
    if (width === undefined || width > 400) return;
    await this.resizeSideBar(width + by);
  }

  async sideBarWidth(): Promise<number | undefined> {
    return (await this.sideBar().boundingBox())?.width;
  }

  /**
   * Drags the side bar's edge to `width`, and checks it took. The window keeps the width across
   * reloads: a suite that changes it puts it back for the suites after (with no webview beside
   * the edge: one that has the focus can take the drag).
   */
  async resizeSideBar(width: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const box = await this.sideBar().boundingBox();
      if (!box) return;
      if (Math.abs(box.width - width) <= 2) return;
      if (attempt === 3) throw new Error(`the side bar stays ${box.width} px wide (${width} px wanted)`);
      const edge = box.x + box.width + 1;
      await this.page.mouse.move(edge, box.y + box.height / 2);
      await this.page.mouse.down();
      await this.page.mouse.move(edge + width - box.width, box.y + box.height / 2, { steps: 8 });
      await this.page.mouse.up();
      await this.page.waitForTimeout(200);
    }
  }

  /** Opens an activity-bar view container (e.g. "Pi Sessions"); does nothing if it is showing. */
  async openViewContainer(title: string): Promise<void> {
    if (await this.isViewContainerOpen(title)) return;
    // Through the palette rather than the activity bar: clicking the item of a container
    // that is already showing (or that the window is just restoring) closes the side bar.
    await this.runCommand(`View: Show ${title}`);
    await this.page.waitForFunction(
      (expected) => {
        const h2 = document.querySelector(".part.sidebar .composite.title h2");
        return !!h2 && (h2.textContent ?? "").trim().toLowerCase() === expected;
      },
      title.toLowerCase(),
      { timeout: STEP_TIMEOUT_MS },
    );
  }

  async isViewContainerOpen(title: string): Promise<boolean> {
    return this.page.evaluate((expected) => {
      const sideBar = document.querySelector<HTMLElement>(".part.sidebar");
      const h2 = sideBar?.querySelector(".composite.title h2");
      return !!sideBar && sideBar.offsetParent !== null && (h2?.textContent ?? "").trim().toLowerCase() === expected;
    }, title.toLowerCase());
  }

  /** Titles of the views (sections) shown in the side bar, as VS Code prints them. */
  async viewTitles(): Promise<string[]> {
    const titles = await this.sideBar().locator(".pane-header .title").allTextContents();
    return titles.map((title) => title.trim());
  }

  /** The pane body of one view in the side bar, found by its title. */
  view(title: string): Locator {
    return this.sideBar()
      .locator(".pane")
      .filter({ has: this.page.locator(".pane-header .title", { hasText: new RegExp(`^${escapeRegExp(title)}$`, "i") }) });
  }

  /** Expands a collapsed view section. */
  async expandView(title: string): Promise<void> {
    const header = this.view(title).locator(".pane-header");
    if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
  }

  /** Rows of a tree view, matched by the text of their label. */
  treeRow(viewTitle: string, label: string | RegExp): Locator {
    return this.view(viewTitle).locator(".monaco-list-row").filter({ hasText: label });
  }

  async treeLabels(viewTitle: string): Promise<string[]> {
    await this.view(viewTitle).locator(".monaco-list-row").first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const labels = await this.view(viewTitle).locator(".monaco-list-row .label-name").allTextContents();
    return labels.map((label) => label.trim());
  }

  async clickTreeRow(viewTitle: string, label: string | RegExp): Promise<void> {
    await this.treeRow(viewTitle, label).first().click({ timeout: STEP_TIMEOUT_MS });
  }

  /** Runs a command by its palette title, e.g. "Pi Sessions: Refresh", as a user would (F1, type, pick). */
  async runCommand(title: string): Promise<void> {
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      await this.page.keyboard.press("F1");
      // A key pressed while the workbench moves focus (a dialog or a tab closing) can be lost: press it again.
      const opened = await this.quickInput()
        .locator(".quick-input-box input")
        .waitFor({ state: "visible", timeout: 3000 })
        .then(() => true, () => false);
      if (!opened) {
        if (Date.now() > deadline) throw new Error(`the command palette does not open (to run "${title}")`);
        await this.page.keyboard.press("Escape");
        continue;
      }
      // A webview that has just loaded can take focus and close the palette between
      // its opening and the typing: open it again.
      const typed = await this.quickInput()
        .locator(".quick-input-box input")
        .fill(`>${title}`, { timeout: 3000 })
        .then(() => true, () => false);
      if (!typed) {
        if (Date.now() > deadline) throw new Error(`the command palette closes before "${title}" can be typed`);
        continue;
      }
      // The palette lists the commands known when it opened: if ours is not there yet
      // (extensions still registering), close it and ask again.
      const found = await this.exactQuickInputRow(title)
        .waitFor({ state: "visible", timeout: 3000 })
        .then(() => true, () => false);
      if (found) break;
      await this.page.keyboard.press("Escape");
      if (Date.now() > deadline) throw new Error(`the command palette does not list "${title}"`);
    }
    await this.pickQuickInputRow(title);
  }

  private quickInput(): Locator {
    return this.page.locator(".quick-input-widget");
  }

  private async typeInQuickInput(text: string): Promise<void> {
    const input = this.quickInput().locator(".quick-input-box input");
    await input.waitFor({ state: "visible", timeout: STEP_TIMEOUT_MS });
    await input.fill(text);
  }

  /**
   * Clicks the quick-input row labelled exactly `label` (fuzzy matching may rank another
   * row first, so Enter alone could run the wrong one).
   */
  private exactQuickInputRow(label: string): Locator {
    const rows = this.quickInput().locator(".monaco-list-row");
    return rows.filter({ has: this.page.locator(".label-name", { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) }).first();
  }

  private async pickQuickInputRow(label: string): Promise<void> {
    const exact = this.exactQuickInputRow(label);
    await exact.waitFor({ state: "visible", timeout: STEP_TIMEOUT_MS });
    const typed = await this.quickInput().locator(".quick-input-box input").inputValue();
    await exact.click();
    // Done when the widget closes, or when the command opened a picker of its own in it.
    await this.page.waitForFunction(
      (before) => {
        const widget = document.querySelector<HTMLElement>(".quick-input-widget");
        const input = widget?.querySelector<HTMLInputElement>(".quick-input-box input");
        return !widget || widget.style.display === "none" || widget.offsetParent === null || input?.value !== before;
      },
      typed,
      { timeout: STEP_TIMEOUT_MS },
    );
  }

  /** Picks the row labelled exactly `label` in the quick pick a command opened. */
  async pickQuickInputItem(label: string): Promise<void> {
    const row = this.exactQuickInputRow(label);
    await row.waitFor({ state: "visible", timeout: STEP_TIMEOUT_MS });
    await row.click();
    // Done when the picked row is gone (the widget closed, or the command asked its next question).
    await row.waitFor({ state: "hidden", timeout: STEP_TIMEOUT_MS });
  }

  /** Types into the input box a command opened (showInputBox) and presses Enter. */
  async submitInputBox(text: string): Promise<void> {
    await this.typeInQuickInput(text);
    await this.page.keyboard.press("Enter");
    await this.page.waitForFunction(
      () => {
        const widget = document.querySelector<HTMLElement>(".quick-input-widget");
        return !widget || widget.style.display === "none" || widget.offsetParent === null;
      },
      undefined,
      { timeout: STEP_TIMEOUT_MS },
    );
  }

  /**
   * Writes settings into the user settings.json and reloads the window (see setColorTheme);
   * `{ reload: false }` leaves the reload to a later step.
   */
  async setUserSettings(values: Record<string, unknown>, options: { reload?: boolean } = {}): Promise<void> {
    const settingsPath = join(this.paths.userDataDir, "User", "settings.json");
    const settings = existsSync(settingsPath) ? (JSON.parse(await readFile(settingsPath, "utf8")) as Record<string, unknown>) : {};
    Object.assign(settings, values);
    await writeFile(settingsPath, JSON.stringify(settings, null, 2) + "\n");
    if (options.reload === false) return;
    await this.page.reload();
    await this.ready();
  }

  /** Opens a workspace file in an editor through Quick Open (Ctrl+P), as a user would. */
  async openFile(relativePath: string): Promise<void> {
    await this.page.keyboard.press("Control+P");
    await this.typeInQuickInput(relativePath);
    const name = relativePath.split("/").pop() ?? relativePath;
    await this.pickQuickInputRow(name);
    await this.page.locator(`.tabs-container .tab[data-resource-name="${name}"]`).waitFor({ timeout: STEP_TIMEOUT_MS });
  }

  /** Texts of the notification toasts currently shown. */
  async notifications(): Promise<string[]> {
    const messages = await this.page.locator(".notification-toast .notification-list-item-message").allTextContents();
    return messages.map((message) => message.trim());
  }

  /**
   * The document of a webview of `kind` (VS Code puts it in an inner `active-frame` iframe
   * of the webview's own iframe): the first shown on the page whose document has every one
   * of the kind's selectors. A webview whose editor was just closed (or one restored after a
   * reload and replaced) keeps its frame and document for a moment, hidden: it is passed over,
   * and so is a frame replaced while it is looked at.
   */
  async webviewFrame(kind: WebviewKind = WEBVIEWS.any, timeoutMs = STEP_TIMEOUT_MS): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const frame of this.page.frames()) {
        if (frame.name() !== "active-frame" && !/\/fake\.html/.test(frame.url())) continue;
        if ((await hasAll(frame, kind.has)) && (await shownOnPage(frame))) return frame;
      }
      await this.page.waitForTimeout(100);
    }
    throw new Error(`no ${kind.name ? `${kind.name} ` : ""}webview within ${timeoutMs / 1000} s`);
  }

  /**
   * Switches the colour theme: writes `workbench.colorTheme` into the user settings.json
   * and reloads the window (code-server does not pick up an outside edit of that file while
   * running, and the theme picker lists no themes offline), then waits for the workbench to
   * wear it. The reload restarts the extension host; views have to be opened again afterwards.
   */
  async setColorTheme(theme: ThemeCase): Promise<void> {
    await this.setUserSettings({ "workbench.colorTheme": theme.setting });
    await this.page.waitForFunction(
      (cls) => document.querySelector(".monaco-workbench")?.classList.contains(cls) ?? false,
      theme.workbenchClass,
      { timeout: STEP_TIMEOUT_MS },
    );
  }

  /**
   * Runs `each` in every theme in turn (switched with setColorTheme), then puts the launch's
   * theme back for the suites after, also when a theme's step failed. Editors are closed
   * before each switch: the reload would restore the last theme's webview while `each`
   * opens its own.
   */
  async withThemes(themes: readonly ThemeCase[], each: (theme: ThemeCase) => Promise<void>): Promise<void> {
    let failed = false;
    try {
      for (const theme of themes) {
        await this.runCommand("View: Close All Editors");
        await this.setColorTheme(theme);
        await each(theme);
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A failure of its own (the page gone) must not hide the step's.
      await this.setColorTheme(LAUNCH_THEME).catch((error: unknown) => {
        if (!failed) throw error;
      });
    }
  }

  /** Saves a PNG of the page into test/vscode/screenshots/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    await mkdir(this.paths.screenshotsDir, { recursive: true });
    const path = join(this.paths.screenshotsDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /** What the extension wrote to its "Pi Sessions" log channel (the log file under the user data folder). */
  async extensionLog(): Promise<string> {
    const logsDir = join(this.paths.userDataDir, "logs");
    // One file per window load, under a folder named by its time: oldest first.
    const files = (await findFiles(logsDir, (path) => /pi-sessions\.pi-sessions/.test(path) && path.endsWith(".log"))).sort();
    const texts = await Promise.all(files.map((file) => readFile(file, "utf8")));
    return texts.join("\n");
  }
}

/** Whether the frame's document has every selector (false for a frame being replaced). */
async function hasAll(frame: Frame, selectors: readonly string[]): Promise<boolean> {
  for (const selector of selectors) {
    if ((await frame.locator(selector).count().catch(() => 0)) === 0) return false;
  }
  return true;
}

/** Whether the frame's iframe, and each iframe around it, is visible in its parent's document. */
async function shownOnPage(frame: Frame): Promise<boolean> {
  for (let current: Frame | null = frame; current?.parentFrame(); current = current.parentFrame()) {
    const element = await current.frameElement().catch(() => null);
    if (!element || !(await element.isVisible().catch(() => false))) return false;
  }
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function findFiles(dir: string, wanted: (path: string) => boolean): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const names = await readdir(dir, { recursive: true });
  return names.map((name) => join(dir, name)).filter(wanted);
}
