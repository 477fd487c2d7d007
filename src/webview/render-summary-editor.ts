// Preview mode: the summary is not in the session yet. It can be edited (or
// shown rendered), then applied or discarded. No Apply in an untrusted workspace.
import { button, h } from "./dom";
import { renderMarkdownInto } from "./render-markdown";

export interface SummaryEditorActions {
  draftChanged(text: string): void;
  showRenderedChanged(showRendered: boolean): void;
  apply(text: string): void;
  discard(): void;
  copyMarkdown(text: string): void;
}

export interface SummaryEditorOptions {
  text: string;
  showRendered: boolean;
  readOnly: boolean;
  /** Why Apply is missing when readOnly (default: the workspace is not trusted). */
  readOnlyNote?: string;
  pending: boolean;
}

export class SummaryEditor {
  readonly element: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly rendered: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly applyButton: HTMLButtonElement | undefined;
  private readonly discardButton: HTMLButtonElement;
  private showRendered: boolean;
  private pending: boolean;

  constructor(options: SummaryEditorOptions, private readonly actions: SummaryEditorActions) {
    this.showRendered = options.showRendered;
    this.pending = options.pending;

    this.textarea = h("textarea", {
      className: "summary-text",
      attrs: { id: "summary-text", spellcheck: "true", rows: "20" },
    });
    this.textarea.value = options.text;
    this.textarea.dataset.focusKey = "editor";
    this.textarea.addEventListener("input", () => {
      this.updateButtons();
      this.actions.draftChanged(this.textarea.value);
    });
    this.rendered = h("div", { className: "markdown-body rendered-draft", attrs: { tabindex: "0" } });
    this.rendered.setAttribute("aria-label", "Rendered summary");

    this.toggle = button("Show rendered", "secondary toggle-rendered", () => this.setShowRendered(!this.showRendered));
    this.toggle.dataset.focusKey = "toggle";
    const copy = button("Copy as markdown", "secondary copy-markdown", () =>
      this.actions.copyMarkdown(this.textarea.value),
    );
    copy.dataset.focusKey = "copy";

    this.discardButton = button("Discard", "secondary discard", () => this.actions.discard());
    this.discardButton.dataset.focusKey = "discard";
    const actionsBar = h("div", { className: "editor-actions" });
    if (options.readOnly) {
      actionsBar.append(
        h("p", { className: "read-only-note", text: options.readOnlyNote ?? "This workspace is not trusted: the summary cannot be applied." }),
      );
    } else {
      this.applyButton = button("Apply", "primary apply", () => this.apply());
      this.applyButton.dataset.focusKey = "apply";
      actionsBar.append(this.applyButton);
    }
    actionsBar.append(this.discardButton);

    const label = h("label", { className: "sr-only", text: "Summary text (markdown)", attrs: { for: "summary-text" } });
    const heading = h("h2", { text: "Summary", attrs: { id: "summary-heading" } });
    const tools = h("div", { className: "toolbar" }, this.toggle, copy);
    this.element = h(
      "section",
      { className: "summary summary-editor", attrs: { "aria-labelledby": "summary-heading" } },
      h("div", { className: "section-heading" }, heading, tools),
      label,
      this.textarea,
      this.rendered,
      actionsBar,
    );
    this.applyShowRendered();
    this.updateButtons();
  }

  get text(): string {
    return this.textarea.value;
  }

  setPending(pending: boolean): void {
    this.pending = pending;
    this.updateButtons();
  }

  private apply(): void {
    if (this.pending || this.textarea.value.trim() === "") return;
    this.actions.apply(this.textarea.value);
  }

  private setShowRendered(show: boolean): void {
    this.showRendered = show;
    this.applyShowRendered();
    this.actions.showRenderedChanged(show);
  }

  private applyShowRendered(): void {
    this.toggle.setAttribute("aria-pressed", String(this.showRendered));
    this.textarea.hidden = this.showRendered;
    this.rendered.hidden = !this.showRendered;
    if (this.showRendered) renderMarkdownInto(this.rendered, this.textarea.value);
    else this.rendered.replaceChildren();
  }

  private updateButtons(): void {
    this.textarea.readOnly = this.pending;
    this.discardButton.disabled = this.pending;
    if (this.applyButton) this.applyButton.disabled = this.pending || this.textarea.value.trim() === "";
  }
}
