// The summary panel inside the webview: keeps the state (persisted with
// setState on every change), validates what the host sends, renders, and
// posts the user's actions back.
import { h } from "./dom";
import { markBidiControls } from "./mark-bidi";
import {
  isHostMessage,
  isPersistedWebviewState,
  type HostMessage,
  type PersistedWebviewState,
  type SummaryPanelState,
  type WebviewMessage,
} from "./protocol";
import { renderHeader } from "./render-header";
import { FileManifest } from "./render-manifest";
import { SummaryEditor } from "./render-summary-editor";
import { renderSummaryView } from "./render-summary-view";
import type { VsCodeApi } from "./vscode-api";

export class SummaryPanelApp {
  private persisted: PersistedWebviewState | undefined;
  private manifest: FileManifest | undefined;
  private editor: SummaryEditor | undefined;
  private pending = false;
  private readonly status = h("p", { className: "panel-status", attrs: { role: "status" } });
  private readonly error = h("p", { className: "panel-status panel-error", attrs: { role: "alert" } });

  constructor(
    private readonly root: HTMLElement,
    private readonly api: VsCodeApi,
  ) {}

  /** Restores what was saved (the panel was hidden or VS Code restarted), then asks the host for the state. */
  start(): void {
    const saved = this.api.getState();
    if (isPersistedWebviewState(saved)) this.persisted = saved;
    this.render();
    this.post({ type: "ready" });
  }

  handleMessage(data: unknown): void {
    if (!isHostMessage(data)) return;
    this.dispatch(data);
  }

  private dispatch(message: HostMessage): void {
    switch (message.type) {
      case "init":
        this.setStatus("");
        this.setError("");
        this.receiveState(message.state);
        return;
      case "update":
        this.receiveState(message.state);
        return;
      case "tabsChanged":
        this.tabsChanged(new Set(message.openPaths));
        return;
      case "applied":
        this.applied(message.entryId);
        return;
      case "applyFailed":
        this.pending = false;
        this.editor?.setPending(false);
        this.setStatus("");
        this.setError(`Apply failed: ${message.error}`);
        return;
    }
  }

  private receiveState(panel: SummaryPanelState): void {
    const previous = this.persisted;
    // Keep the user's edits when the host re-sends the same proposed summary.
    const keepDraft =
      previous !== undefined &&
      panel.mode === "preview" &&
      previous.panel.mode === "preview" &&
      previous.panel.summary === panel.summary;
    this.persisted = {
      panel,
      draft: keepDraft ? previous.draft : undefined,
      showRendered: keepDraft ? previous.showRendered : false,
    };
    if (panel.mode !== "preview") this.pending = false;
    this.save();
    this.render();
  }

  private tabsChanged(openPaths: ReadonlySet<string>): void {
    if (!this.persisted) return;
    const panel = this.persisted.panel;
    const files = panel.files.map((file) => ({ ...file, open: openPaths.has(file.path) }));
    this.persisted = { ...this.persisted, panel: { ...panel, files } };
    this.manifest?.setOpenPaths(openPaths);
    this.save();
  }

  private applied(entryId: string): void {
    if (!this.persisted) return;
    const { panel, draft } = this.persisted;
    this.pending = false;
    this.persisted = {
      panel: { ...panel, mode: "view", entryId, summary: draft ?? panel.summary },
      showRendered: false,
    };
    this.save();
    this.render();
    this.setError("");
    this.setStatus(`Applied: the summary is entry ${entryId} of the session.`);
  }

  private currentText(): string {
    return this.persisted?.draft ?? this.persisted?.panel.summary ?? "";
  }

  private post(message: WebviewMessage): void {
    this.api.postMessage(message);
  }

  private save(): void {
    this.api.setState(this.persisted);
  }

  private setStatus(text: string): void {
    this.status.textContent = text;
  }

  private setError(text: string): void {
    this.error.textContent = text;
  }

  private render(): void {
    const focusKey = focusedKey(this.root);
    this.manifest = undefined;
    this.editor = undefined;
    if (!this.persisted) {
      this.root.replaceChildren(h("p", { className: "loading", text: "Loading the summary…" }), this.status, this.error);
      return;
    }
    const panel = this.persisted.panel;
    const header = renderHeader(panel, { revealEntry: (entryId) => this.post({ type: "revealEntry", entryId }) });
    const summary = panel.mode === "preview" ? this.renderEditor(panel) : this.renderView(panel);
    this.manifest = new FileManifest(panel.files, {
      openFile: (path, preview) => this.post({ type: "openFile", path, preview }),
      openAllModified: () => this.post({ type: "openAllModified" }),
      showChanges: (path) => this.post({ type: "showChanges", path }),
    });
    this.root.replaceChildren(header, this.status, this.error, summary, this.manifest.element);
    markBidiControls(this.root);
    restoreFocus(this.root, focusKey);
  }

  private renderView(panel: SummaryPanelState): HTMLElement {
    return renderSummaryView(panel.summary, { copyMarkdown: (text) => this.post({ type: "copyMarkdown", text }) });
  }

  private renderEditor(panel: SummaryPanelState): HTMLElement {
    this.editor = new SummaryEditor(
      {
        text: this.currentText(),
        showRendered: this.persisted?.showRendered ?? false,
        readOnly: panel.readOnly,
        ...(panel.notice ? { readOnlyNote: "This summary cannot be applied: see the note above." } : {}),
        pending: this.pending,
      },
      {
        draftChanged: (text) => {
          if (!this.persisted) return;
          this.persisted = { ...this.persisted, draft: text === this.persisted.panel.summary ? undefined : text };
          this.save();
        },
        showRenderedChanged: (showRendered) => {
          if (!this.persisted) return;
          this.persisted = { ...this.persisted, showRendered };
          this.save();
        },
        apply: (text) => {
          if (panel.readOnly || this.pending) return;
          this.pending = true;
          this.editor?.setPending(true);
          this.setError("");
          this.setStatus("Applying…");
          this.post({ type: "apply", text });
        },
        discard: () => this.post({ type: "discard" }),
        copyMarkdown: (text) => this.post({ type: "copyMarkdown", text }),
      },
    );
    return this.editor.element;
  }
}

function focusedKey(root: HTMLElement): string | undefined {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !root.contains(active)) return undefined;
  return active.dataset.focusKey;
}

function restoreFocus(root: HTMLElement, key: string | undefined): void {
  if (key === undefined) return;
  for (const element of Array.from(root.querySelectorAll<HTMLElement>("[data-focus-key]"))) {
    if (element.dataset.focusKey === key && !element.hidden) {
      element.focus();
      return;
    }
  }
}
