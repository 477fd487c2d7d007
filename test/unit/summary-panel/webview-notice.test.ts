// The bundled webview with the host's `notice` (a preview restored after a
// reload, an entry gone from the file): shown as a note, the draft kept, no
// Apply, and the untrusted-workspace wording not used for it.

import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { isSummaryPanelState, LIMITS, type PersistedWebviewState } from "../../../src/webview/protocol";
import { buildWebviewBundle, openWebview, panelState, type WebviewPage } from "../webview/support/webview-harness";

let bundle: string;
const pages: WebviewPage[] = [];

beforeAll(async () => {
  bundle = await buildWebviewBundle();
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

const NOTICE = "This preview was not applied before the window reloaded.";

function buttons(page: WebviewPage): string[] {
  return Array.from(page.document.querySelectorAll("button")).map((b) => b.textContent ?? "");
}

describe("notice", () => {
  it("validates: optional, a string within the error limit", () => {
    expect(isSummaryPanelState(panelState({ notice: NOTICE }))).toBe(true);
    expect(isSummaryPanelState(panelState({ notice: "" }))).toBe(false);
    expect(isSummaryPanelState({ ...panelState(), notice: 3 })).toBe(false);
    expect(isSummaryPanelState(panelState({ notice: "x".repeat(LIMITS.errorChars + 1) }))).toBe(false);
  });

  it("a restored preview keeps the user's draft, shows the notice, and offers no Apply", () => {
    const saved = panelState({ mode: "preview", entryId: undefined, summary: "Proposal." });
    const page = openWebview(bundle, { panel: saved, draft: "My edits.", showRendered: false } satisfies PersistedWebviewState);
    pages.push(page);
    page.send({ type: "init", state: { ...saved, readOnly: true, notice: NOTICE } });
    expect(page.document.querySelector("textarea")!.value).toBe("My edits.");
    const note = page.document.querySelector('[role="note"]');
    expect(note?.textContent).toBe(NOTICE);
    expect(buttons(page)).not.toContain("Apply");
    expect(buttons(page)).toContain("Discard");
    const readOnlyNote = page.document.querySelector(".summary-editor .read-only-note")?.textContent ?? "";
    expect(readOnlyNote).not.toMatch(/not trusted/);
  });

  it("a view shows the notice above the summary; without one there is no note", () => {
    const page = openWebview(bundle);
    pages.push(page);
    page.send({ type: "init", state: panelState({ notice: "This entry is no longer in the session file." }) });
    expect(page.document.querySelector('[role="note"]')?.textContent).toBe("This entry is no longer in the session file.");
    page.send({ type: "update", state: panelState() });
    expect(page.document.querySelector('[role="note"]')).toBeNull();
  });
});
