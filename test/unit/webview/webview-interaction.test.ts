// What the bundled webview posts back and remembers (see
// support/webview-harness.ts for the one stub: acquireVsCodeApi).
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PersistedWebviewState, SummaryPanelState } from "../../../src/webview/protocol";
import {
  buildWebviewBundle,
  file,
  lastSaved,
  openWebview,
  panelState,
  type WebviewPage,
} from "./support/webview-harness";

let bundle: string;
const pages: WebviewPage[] = [];

beforeAll(async () => {
  bundle = await buildWebviewBundle();
});

afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

function open(savedState?: unknown): WebviewPage {
  const page = openWebview(bundle, savedState);
  pages.push(page);
  return page;
}

function show(state: SummaryPanelState): WebviewPage {
  const page = open();
  page.send({ type: "init", state });
  return page;
}

/** Messages posted after the initial "ready". */
function actions(page: WebviewPage): unknown[] {
  return page.posted.slice(1);
}

const FILES = [
  file("/work/project/src/a.ts", { ops: "RE", open: true }),
  file("/work/project/src/b.ts", { ops: "W" }),
  file("/work/project/old.ts", { ops: "RD", deleted: true }),
];

function rows(page: WebviewPage): HTMLTableRowElement[] {
  return Array.from(page.document.querySelectorAll<HTMLTableRowElement>("tbody tr"));
}

function click(page: WebviewPage, target: Element, modifiers: MouseEventInit = {}): void {
  target.dispatchEvent(new page.window.MouseEvent("click", { bubbles: true, cancelable: true, ...modifiers }));
}

function key(page: WebviewPage, target: Element, init: KeyboardEventInit): void {
  target.dispatchEvent(new page.window.KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));
}

function type(page: WebviewPage, text: string): void {
  const textarea = page.document.querySelector<HTMLTextAreaElement>("textarea")!;
  textarea.value = text;
  textarea.dispatchEvent(new page.window.Event("input", { bubbles: true }));
}

function buttonNamed(page: WebviewPage, label: string): HTMLButtonElement | undefined {
  return Array.from(page.document.querySelectorAll<HTMLButtonElement>("button")).find((b) => b.textContent === label);
}

describe("start-up", () => {
  it("acquires the VS Code API once and posts ready", () => {
    const page = open();
    expect(page.acquireCalls).toBe(1);
    expect(page.posted).toEqual([{ type: "ready" }]);
    expect(page.document.querySelector(".loading")).not.toBeNull();
  });
});

describe("manifest rows", () => {
  it("click opens a preview tab; Ctrl, Cmd or Alt click opens a regular tab", () => {
    const page = show(panelState({ files: FILES }));
    const row = rows(page)[1]!;
    click(page, row);
    click(page, row, { ctrlKey: true });
    click(page, row, { metaKey: true });
    click(page, row.querySelector(".display-path")!, { altKey: true });
    const path = "/work/project/src/b.ts";
    expect(actions(page)).toEqual([
      { type: "openFile", path, preview: true },
      { type: "openFile", path, preview: false },
      { type: "openFile", path, preview: false },
      { type: "openFile", path, preview: false },
    ]);
  });

  it("Enter and Space open the file; other keys do nothing", () => {
    const page = show(panelState({ files: FILES }));
    const row = rows(page)[0]!;
    key(page, row, { key: "Enter" });
    key(page, row, { key: " " });
    key(page, row, { key: "Enter", ctrlKey: true });
    key(page, row, { key: "a" });
    key(page, row, { key: "Tab" });
    const path = "/work/project/src/a.ts";
    expect(actions(page)).toEqual([
      { type: "openFile", path, preview: true },
      { type: "openFile", path, preview: true },
      { type: "openFile", path, preview: false },
    ]);
  });

  it("a deleted file's row is focusable and asks for its last content (the host decides what it can show)", () => {
    const page = show(panelState({ files: FILES }));
    const deleted = rows(page)[2]!;
    expect(deleted.tabIndex).toBe(0);
    expect(deleted.getAttribute("title")).toMatch(/was deleted: open its last content/);
    click(page, deleted);
    key(page, deleted, { key: "Enter" });
    expect(actions(page)).toEqual([
      { type: "openFile", path: "/work/project/old.ts", preview: true },
      { type: "openFile", path: "/work/project/old.ts", preview: true },
    ]);
  });

  it("Show changes posts showChanges for files the session changed (deleted ones too), without opening the file", () => {
    const page = show(panelState({ files: [...FILES, file("/work/project/notes.md", { ops: "R" })] }));
    const buttons = (row: HTMLTableRowElement) => Array.from(row.querySelectorAll("button.show-changes"));
    expect(rows(page).map((row) => buttons(row).length)).toEqual([1, 1, 1, 0]);
    click(page, buttons(rows(page)[0]!)[0]!);
    key(page, buttons(rows(page)[2]!)[0]!, { key: "Enter" });
    (buttons(rows(page)[2]!)[0] as HTMLButtonElement).click();
    expect(actions(page)).toEqual([
      { type: "showChanges", path: "/work/project/src/a.ts" },
      { type: "showChanges", path: "/work/project/old.ts" },
    ]);
  });

  it("Open all modified posts openAllModified", () => {
    const page = show(panelState({ files: FILES }));
    buttonNamed(page, "Open all modified")!.click();
    expect(actions(page)).toEqual([{ type: "openAllModified" }]);
  });

  it("tabsChanged moves the open marks without rebuilding the table or losing focus", () => {
    const page = show(panelState({ files: FILES }));
    const before = rows(page);
    before[1]!.focus();
    expect(page.document.activeElement).toBe(before[1]);

    page.send({ type: "tabsChanged", openPaths: ["/work/project/src/b.ts", "/somewhere/else.ts"] });

    const after = rows(page);
    expect(after).toHaveLength(3);
    after.forEach((row, i) => expect(row).toBe(before[i]));
    expect(page.document.activeElement).toBe(before[1]);
    expect(after.map((row) => row.classList.contains("is-open"))).toEqual([false, true, false]);
    expect(after.map((row) => row.getAttribute("aria-current"))).toEqual([null, "true", null]);
    expect(after.map((row) => row.querySelector<HTMLElement>(".status-open")!.hidden)).toEqual([true, false, true]);
    const saved = lastSaved(page) as PersistedWebviewState;
    expect(saved.panel.files.map((f) => f.open)).toEqual([false, true, false]);
  });
});

describe("preview before apply", () => {
  const preview = panelState({ mode: "preview", entryId: undefined, summary: "## Goal\nProposed text.\n" });

  it("Apply posts the edited text, waits with buttons disabled, then shows the applied summary", () => {
    const page = show(preview);
    const textarea = page.document.querySelector<HTMLTextAreaElement>("textarea")!;
    expect(textarea.value).toBe(preview.summary);
    type(page, "## Goal\nEdited by hand.\n");
    expect((lastSaved(page) as PersistedWebviewState).draft).toBe("## Goal\nEdited by hand.\n");

    const apply = buttonNamed(page, "Apply")!;
    apply.click();
    expect(actions(page)).toEqual([{ type: "apply", text: "## Goal\nEdited by hand.\n" }]);
    expect(apply.disabled).toBe(true);
    expect(buttonNamed(page, "Discard")!.disabled).toBe(true);
    expect(textarea.readOnly).toBe(true);
    apply.click();
    expect(actions(page)).toHaveLength(1);

    page.send({ type: "applied", entryId: "a1b2c3d4" });
    expect(page.document.querySelector("textarea")).toBeNull();
    expect(page.document.querySelector(".markdown-body p")?.textContent).toBe("Edited by hand.");
    expect(page.document.querySelector("[role=status]")?.textContent).toContain("a1b2c3d4");
    const saved = lastSaved(page) as PersistedWebviewState;
    expect(saved.panel).toMatchObject({ mode: "view", entryId: "a1b2c3d4", summary: "## Goal\nEdited by hand.\n" });
    expect(saved.draft).toBeUndefined();
  });

  it("applyFailed re-enables the buttons, keeps the edits and shows the error", () => {
    const page = show(preview);
    type(page, "Mine.");
    buttonNamed(page, "Apply")!.click();
    page.send({ type: "applyFailed", error: "the session file changed on disk" });
    expect(buttonNamed(page, "Apply")!.disabled).toBe(false);
    expect(buttonNamed(page, "Discard")!.disabled).toBe(false);
    expect(page.document.querySelector<HTMLTextAreaElement>("textarea")!.value).toBe("Mine.");
    expect(page.document.querySelector("[role=alert]")?.textContent).toBe(
      "Apply failed: the session file changed on disk",
    );
  });

  it("an empty summary cannot be applied", () => {
    const page = show(preview);
    type(page, "  \n ");
    const apply = buttonNamed(page, "Apply")!;
    expect(apply.disabled).toBe(true);
    apply.click();
    expect(actions(page)).toEqual([]);
  });

  it("Discard and Copy as markdown post their messages (copy sends the current text)", () => {
    const page = show(preview);
    type(page, "Draft.");
    buttonNamed(page, "Copy as markdown")!.click();
    buttonNamed(page, "Discard")!.click();
    expect(actions(page)).toEqual([{ type: "copyMarkdown", text: "Draft." }, { type: "discard" }]);
  });

  it("the rendered toggle shows the draft as markdown and is remembered", () => {
    const page = show(preview);
    type(page, "- [x] done");
    const toggle = buttonNamed(page, "Show rendered")!;
    toggle.click();
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    expect(page.document.querySelector<HTMLTextAreaElement>("textarea")!.hidden).toBe(true);
    const box = page.document.querySelector<HTMLInputElement>(".rendered-draft input")!;
    expect([box.disabled, box.checked]).toEqual([true, true]);
    expect((lastSaved(page) as PersistedWebviewState).showRendered).toBe(true);
  });

  it("an untrusted (read-only) workspace gets no Apply", () => {
    const page = show({ ...preview, readOnly: true });
    expect(buttonNamed(page, "Apply")).toBeUndefined();
    expect(page.document.querySelector(".read-only-note")).not.toBeNull();
    expect(buttonNamed(page, "Discard")).toBeDefined();
  });

  it("an update with the same proposal keeps the edits; a new proposal replaces them", () => {
    const page = show(preview);
    type(page, "Kept edits.");
    page.send({ type: "update", state: { ...preview, files: FILES } });
    expect(page.document.querySelector<HTMLTextAreaElement>("textarea")!.value).toBe("Kept edits.");
    page.send({ type: "update", state: { ...preview, summary: "A new proposal." } });
    expect(page.document.querySelector<HTMLTextAreaElement>("textarea")!.value).toBe("A new proposal.");
  });

  it("view mode copies the stored summary", () => {
    const page = show(panelState({ summary: "Stored." }));
    buttonNamed(page, "Copy as markdown")!.click();
    expect(actions(page)).toEqual([{ type: "copyMarkdown", text: "Stored." }]);
  });
});

describe("state", () => {
  it("saves the panel state (JSON round trip) on init", () => {
    const state = panelState({ files: FILES });
    const page = show(state);
    expect(lastSaved(page)).toEqual({ panel: state, showRendered: false });
  });

  it("restores from getState before the host answers, including the draft, and still posts ready", () => {
    const preview = panelState({ mode: "preview", entryId: undefined, summary: "Proposal.", files: FILES });
    const saved: PersistedWebviewState = { panel: preview, draft: "My unsaved edits.", showRendered: false };
    const page = open(saved);
    expect(page.posted).toEqual([{ type: "ready" }]);
    expect(page.document.querySelector<HTMLTextAreaElement>("textarea")!.value).toBe("My unsaved edits.");
    expect(rows(page)).toHaveLength(3);
    page.send({ type: "init", state: preview });
    expect(page.document.querySelector<HTMLTextAreaElement>("textarea")!.value).toBe("My unsaved edits.");
  });

  it("ignores a saved state that does not validate", () => {
    const page = open({ panel: { version: 99 }, showRendered: false });
    expect(page.document.querySelector(".loading")).not.toBeNull();
    expect(page.posted).toEqual([{ type: "ready" }]);
  });
});

describe("invalid host messages", () => {
  it("are dropped: nothing re-renders, nothing is saved or posted", () => {
    const page = show(panelState({ files: FILES, mode: "preview", entryId: undefined }));
    const html = page.document.body.innerHTML;
    const saves = page.savedStates.length;
    const garbage: unknown[] = [
      null,
      "init",
      42,
      [],
      { type: "init" },
      { type: "init", state: { ...panelState(), version: 2 } },
      { type: "update", state: { ...panelState(), files: [{ path: "/x" }] } },
      { type: "update", state: { ...panelState(), summary: 7 } },
      { type: "tabsChanged", openPaths: "/work/project/src/b.ts" },
      { type: "tabsChanged", openPaths: [1, 2] },
      { type: "applied" },
      { type: "applied", entryId: 5 },
      { type: "applyFailed", error: { message: "x" } },
      { type: "openFile", path: "/x", preview: true },
      { type: "theme", kind: "dark" },
      { type: "__proto__" },
    ];
    for (const message of garbage) page.send(message);
    expect(page.document.body.innerHTML).toBe(html);
    expect(page.savedStates).toHaveLength(saves);
    expect(actions(page)).toEqual([]);
  });
});
