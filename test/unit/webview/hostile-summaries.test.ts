// The hostile-summary corpus (test/fixtures/hostile-summaries) through the
// bundled webview: nothing in a summary, a file path or a header field may
// become script, a handler, a navigation or an embedded document, and the
// reader still sees the text as written.
import { fileURLToPath } from "node:url";
import type { Window as HappyWindow } from "happy-dom";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIDI_CONTROLS, showBidiControls } from "../../../src/core/text/bidi-controls";
import type { SummaryFile, SummaryPanelState } from "../../../src/webview/protocol";
import { activeContent } from "./support/inert-content";
import {
  buildBrowserSnippet,
  buildWebviewBundle,
  openBlankWindow,
  openWebview,
  panelState,
  type WebviewPage,
} from "./support/webview-harness";
import { loadHostileCases, type HostileCase as HostileCaseOf } from "../../support/hostile-summaries";

type HostileCase = HostileCaseOf<SummaryFile, Partial<SummaryPanelState>>;

const CORPUS = fileURLToPath(new URL("../../fixtures/hostile-summaries/", import.meta.url));
const CASES: HostileCase[] = loadHostileCases(CORPUS, { large: true });

function expectInert(document: Document, textareas: number): void {
  expect(activeContent(document.documentElement, textareas)).toEqual([]);
}

/** What a reader sees: the panel's text. The editor's text is its value, not a child text node. */
function readableText(page: WebviewPage): string {
  for (const textarea of Array.from(page.document.querySelectorAll("textarea"))) expect(textarea.textContent).toBe("");
  const text = page.document.getElementById("app")!.textContent ?? "";
  // Bidi controls are never applied: each shows as a marked ⟨U+…⟩ token.
  for (const control of BIDI_CONTROLS) expect(text.includes(control), `raw ${showBidiControls(control)} in the page`).toBe(false);
  return text;
}

function stateFor(hostile: HostileCase, mode: "view" | "preview"): SummaryPanelState {
  return panelState({
    summary: hostile.summary,
    files: hostile.files ?? [],
    mode,
    ...(mode === "preview" ? { entryId: undefined } : {}),
    ...hostile.state,
  });
}

let bundle: string;
let sanitizerSnippet: string;
let page: WebviewPage | undefined;
let blank: HappyWindow | undefined;

beforeAll(async () => {
  bundle = await buildWebviewBundle();
  sanitizerSnippet = await buildBrowserSnippet(
    'import { sanitizeHtml } from "./src/webview/sanitize-html";\n' +
      "Object.assign(globalThis, { sanitizeHtml });\n",
  );
});

afterEach(async () => {
  await page?.close();
  await blank?.happyDOM.close();
  page = undefined;
  blank = undefined;
});

it("the corpus has at least 20 cases, each with text to look for", () => {
  expect(CASES.length).toBeGreaterThanOrEqual(20);
  for (const hostile of CASES) expect(hostile.visibleText.length, hostile.name).toBeGreaterThan(0);
});

// Rendering 1 MB of markdown in happy-dom takes seconds on a busy machine: give those cases room,
// and render them once (view mode) rather than again in the preview's rendered toggle (same code path).
const isLarge = (hostile: HostileCase) => hostile.summary.length > 100_000;
const timeoutFor = (hostile: HostileCase) => (isLarge(hostile) ? 300_000 : undefined);

describe.each(CASES)("$name", (hostile) => {
  it("is a valid panel state (the host would send it)", async () => {
    const { isHostMessage } = await import("../../../src/webview/protocol");
    expect(isHostMessage({ type: "init", state: stateFor(hostile, "view") })).toBe(true);
    if (hostile.minChars !== undefined) expect(hostile.summary.length).toBeGreaterThanOrEqual(hostile.minChars);
  });

  it("view mode: nothing active, text shown as written", () => {
    page = openWebview(bundle);
    page.send({ type: "init", state: stateFor(hostile, "view") });
    expect(page.document.querySelector(".markdown-body")).not.toBeNull();
    expectInert(page.document, 0);
    const text = readableText(page);
    for (const visible of hostile.visibleText) expect(text.includes(visible), JSON.stringify(visible)).toBe(true);
    for (const file of hostile.files ?? []) {
      const row = Array.from(page.document.querySelectorAll("tbody td.path")).find(
        (cell) => cell.getAttribute("title") === showBidiControls(file.path),
      );
      expect(row?.querySelector(".display-path")?.textContent).toBe(showBidiControls(file.displayPath));
    }
  }, timeoutFor(hostile));

  it("preview mode: the editor holds the exact text", () => {
    page = openWebview(bundle);
    page.send({ type: "init", state: stateFor(hostile, "preview") });
    expect(page.document.querySelector<HTMLTextAreaElement>("textarea#summary-text")!.value).toBe(hostile.summary);
    expectInert(page.document, 1);
  }, timeoutFor(hostile));

  it.skipIf(isLarge(hostile))("preview mode: the rendered preview is inert and readable", () => {
    page = openWebview(bundle);
    page.send({ type: "init", state: stateFor(hostile, "preview") });
    const toggle = page.document.querySelector<HTMLButtonElement>(".toggle-rendered")!;
    toggle.click();
    expect(page.document.querySelector(".rendered-draft")!.hasAttribute("hidden")).toBe(false);
    expectInert(page.document, 1);
    const text = readableText(page);
    for (const visible of hostile.visibleText) expect(text.includes(visible), JSON.stringify(visible)).toBe(true);
  });

  it("as raw HTML straight into the sanitiser (defence in depth): nothing active survives", () => {
    blank = openBlankWindow();
    blank.eval(`"use strict";\n${sanitizerSnippet}`);
    const sanitize = (blank as unknown as { sanitizeHtml(html: string): Node }).sanitizeHtml;
    const document = blank.document as unknown as Document;
    document.getElementById("app")!.append(sanitize(hostile.summary));
    expectInert(document, 0);
  }, timeoutFor(hostile));
});
