// The session reader inside the webview: shows the pages the host sends,
// asks for earlier ones, appends pi's new entries without touching the blocks
// already shown, and posts the user's clicks (reveal, open a file) back.
import { button, h } from "../dom";
import { markBidiControls } from "../mark-bidi";
import {
  isPersistedReaderState,
  isReaderHostMessage,
  type ReaderBlock,
  type ReaderHostMessage,
  type ReaderScroll,
  type ReaderState,
  type ReaderWebviewMessage,
} from "../reader-protocol";
import { renderBlock, type BlockActions } from "./render-block";

const FILTER_NAMES: Record<ReaderState["filter"], string> = {
  all: "",
  user: "user messages only",
  "no-tool-results": "no tool results",
  labelled: "labelled entries",
};

export interface ReaderApi {
  postMessage(message: ReaderWebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export class ReaderApp {
  private state: ReaderState | undefined;
  private firstIndex = 0;
  private total = 0;
  private inFile: number | undefined;
  private waitingEarlier = false;
  /** Where the page is scrolled (saved with the state, so a reload comes back to it). */
  private scroll: ReaderScroll | undefined;
  /** Saved before a reload: applied to the first page the host sends. */
  private restoreScroll: ReaderScroll | undefined;
  private scrollSaveTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly header = h("header", { className: "reader-header" });
  private readonly earlier = button("Load earlier entries", "load-earlier", () => this.loadEarlier());
  private readonly list = h("div", { className: "blocks", attrs: { role: "feed", "aria-label": "Conversation" } });
  private readonly notice = h("p", { className: "reader-notice", attrs: { role: "status" } });
  private readonly actions: BlockActions;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: ReaderApi,
  ) {
    this.actions = {
      revealEntry: (entryId) => this.post({ type: "revealEntry", entryId }),
      openFile: (entryId, toolCallId, preview) => this.post({ type: "openFile", entryId, toolCallId, preview }),
    };
    this.list.addEventListener("click", (event) => this.clicked(event));
  }

  start(): void {
    const saved = this.api.getState();
    if (isPersistedReaderState(saved)) {
      this.state = saved.reader;
      this.scroll = this.restoreScroll = saved.scroll;
    }
    this.earlier.hidden = true;
    this.root.replaceChildren(this.header, this.notice, this.earlier, this.list);
    this.renderHeader();
    if (!this.state) this.list.replaceChildren(h("p", { className: "loading", text: "Loading the session…" }));
    window.addEventListener("scroll", () => this.scrolled(), { passive: true });
    const anchor = this.restoreScroll && "entryId" in this.restoreScroll ? this.restoreScroll.entryId : undefined;
    this.post(anchor !== undefined ? { type: "ready", anchorId: anchor } : { type: "ready" });
  }

  handleMessage(data: unknown): void {
    if (!isReaderHostMessage(data)) return;
    this.dispatch(data);
  }

  private dispatch(message: ReaderHostMessage): void {
    switch (message.type) {
      case "init": {
        const sameSession = this.state?.sessionPath === message.state.sessionPath;
        this.state = message.state;
        this.firstIndex = message.start;
        this.total = message.total;
        this.inFile = message.inFile;
        this.waitingEarlier = false;
        this.list.replaceChildren(...message.blocks.map((block) => this.element(block)));
        this.renderHeader();
        this.updateEarlier();
        const restore = sameSession ? this.restoreScroll : undefined;
        this.restoreScroll = undefined;
        if (message.focusId) this.reveal(message.focusId);
        else if (!restore || !this.restore(restore)) this.scrollToEnd();
        this.saveState();
        this.post({ type: "shown", blocks: message.blocks.length });
        return;
      }
      case "earlier":
        this.prepend(message.blocks, message.start);
        return;
      case "append":
        if (message.inFile !== undefined) this.inFile = message.inFile;
        this.append(message.blocks, message.total);
        return;
      case "changed":
        for (const block of message.blocks) this.replace(block);
        return;
      case "reveal":
        this.reveal(message.entryId);
        return;
      case "notice":
        this.notice.textContent = message.text;
        markBidiControls(this.notice);
        return;
    }
  }

  private element(block: ReaderBlock): HTMLElement {
    return renderBlock(block, this.actions);
  }

  private prepend(blocks: ReaderBlock[], start: number): void {
    this.waitingEarlier = false;
    if (start + blocks.length !== this.firstIndex) {
      // Not the page right before ours (the branch changed meanwhile): ask again.
      this.updateEarlier();
      return;
    }
    const scroller = document.scrollingElement ?? document.documentElement;
    const fromBottom = scroller.scrollHeight - scroller.scrollTop;
    this.list.prepend(...blocks.map((block) => this.element(block)));
    this.firstIndex = start;
    scroller.scrollTop = scroller.scrollHeight - fromBottom;
    this.renderHeader();
    this.updateEarlier();
  }

  private append(blocks: ReaderBlock[], total: number): void {
    const scroller = document.scrollingElement ?? document.documentElement;
    const atEnd = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 40;
    this.list.append(...blocks.map((block) => this.element(block)));
    this.total = total;
    this.renderHeader();
    if (atEnd) this.scrollToEnd();
  }

  private replace(block: ReaderBlock): void {
    const existing = this.find(block.id);
    if (existing) existing.replaceWith(this.element(block));
  }

  private find(entryId: string): HTMLElement | undefined {
    return Array.from(this.list.querySelectorAll<HTMLElement>("article.block")).find((element) => element.dataset.entryId === entryId);
  }

  private reveal(entryId: string): void {
    const target = this.find(entryId);
    if (!target) return;
    for (const element of Array.from(this.list.querySelectorAll(".is-revealed"))) element.classList.remove("is-revealed");
    target.classList.add("is-revealed");
    target.scrollIntoView({ block: "center" });
  }

  private clicked(event: MouseEvent): void {
    const target = event.target as Element | null;
    if (!target || target.closest("a, button, summary, pre, input")) return;
    // Selecting text is not a click on the message.
    const selection = document.getSelection();
    if (selection && !selection.isCollapsed && selection.toString().length > 0) return;
    const block = target.closest<HTMLElement>("article.block");
    if (block?.dataset.entryId) this.post({ type: "revealEntry", entryId: block.dataset.entryId });
  }

  private loadEarlier(): void {
    if (this.waitingEarlier || this.firstIndex === 0) return;
    this.waitingEarlier = true;
    this.earlier.disabled = true;
    this.post({ type: "loadEarlier", before: this.firstIndex });
  }

  private updateEarlier(): void {
    this.earlier.hidden = this.firstIndex === 0;
    this.earlier.disabled = false;
    this.earlier.textContent = `Load earlier entries (${this.firstIndex} more)`;
  }

  /** Back to where a reloaded page was: its anchor entry at the same offset (false when the anchor is not shown). */
  private restore(scroll: ReaderScroll): boolean {
    if ("atEnd" in scroll) return false;
    const anchor = this.find(scroll.entryId);
    if (!anchor) return false;
    const scroller = document.scrollingElement ?? document.documentElement;
    scroller.scrollTop += anchor.getBoundingClientRect().top - scroll.offset;
    return true;
  }

  /** The first block in view and its offset, or the end: what a reload comes back to. */
  private currentScroll(): ReaderScroll | undefined {
    const scroller = document.scrollingElement ?? document.documentElement;
    if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 40) return { atEnd: true };
    for (const block of Array.from(this.list.querySelectorAll<HTMLElement>("article.block"))) {
      const rect = block.getBoundingClientRect();
      if (rect.bottom > 0 && block.dataset.entryId) return { entryId: block.dataset.entryId, offset: Math.round(rect.top) };
    }
    return undefined;
  }

  private scrolled(): void {
    if (this.scrollSaveTimer !== undefined) return;
    this.scrollSaveTimer = setTimeout(() => {
      this.scrollSaveTimer = undefined;
      this.scroll = this.currentScroll();
      this.saveState();
    }, 150);
  }

  private saveState(): void {
    if (!this.state) return;
    this.scroll = this.currentScroll() ?? this.scroll;
    this.api.setState(this.scroll ? { reader: this.state, scroll: this.scroll } : { reader: this.state });
  }

  private scrollToEnd(): void {
    const scroller = document.scrollingElement ?? document.documentElement;
    scroller.scrollTop = scroller.scrollHeight;
  }

  private renderHeader(): void {
    if (!this.state) {
      this.header.replaceChildren(h("h1", { text: "Session" }));
      return;
    }
    const shown = this.list.querySelectorAll("article.block").length;
    const facts = [
      this.state.follow ? "current branch, live" : `branch up to ${this.state.leafId ?? "(empty)"}`,
      FILTER_NAMES[this.state.filter],
      `${shown} of ${this.total} ${this.total === 1 ? "entry" : "entries"} of this branch shown`,
      // The Sessions view counts the file's entries: every branch, whatever the filter.
      this.inFile !== undefined && this.inFile !== this.total ? `${this.inFile} in the file (all branches)` : "",
    ].filter(Boolean);
    this.header.replaceChildren(
      h("h1", { className: "session-title", text: this.state.title || "Session" }),
      h("p", { className: "session-facts", text: facts.join(" · ") }),
      h("p", { className: "session-path", text: this.state.sessionPath }),
    );
    markBidiControls(this.header);
  }

  private post(message: ReaderWebviewMessage): void {
    this.api.postMessage(message);
  }
}
