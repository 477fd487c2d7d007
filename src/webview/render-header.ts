// Panel header: what kind of summary, which session, tokens before → after,
// the model (or "digest"), when, and entry links that reveal entries in the tree.
import { button, h, screenReaderText } from "./dom";
import { formatAbsoluteTime, formatRelativeTime } from "./format-time";
import type { SummaryPanelState } from "./protocol";
import { showBidiControls } from "../core/text/bidi-controls";

export interface HeaderActions {
  revealEntry(entryId: string): void;
}

const TITLES: Record<SummaryPanelState["kind"], string> = {
  compaction: "Compaction summary",
  branch_summary: "Branch summary",
};

function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

function tokensText(before: number | undefined, after: number | undefined): string | undefined {
  if (before !== undefined && after !== undefined) return `${formatCount(before)} → ${formatCount(after)}`;
  if (before !== undefined) return `${formatCount(before)} before`;
  if (after !== undefined) return `${formatCount(after)} after`;
  return undefined;
}

function entryButton(entryId: string, actions: HeaderActions): HTMLButtonElement {
  const element = button(entryId, "link-button entry-link", () => actions.revealEntry(entryId));
  element.setAttribute("title", "Reveal this entry in the session tree");
  element.dataset.focusKey = `entry:${entryId}`;
  element.prepend(screenReaderText("Reveal entry "));
  return element;
}

function fact(term: string, ...description: Node[]): HTMLElement[] {
  return [h("dt", { text: term }), h("dd", {}, ...description)];
}

function whenFact(timestamp: string, now: Date): HTMLElement[] {
  const date = new Date(timestamp);
  const time = h("time", {
    text: formatRelativeTime(date, now),
    attrs: { datetime: timestamp, title: timestamp },
  });
  return fact("When", time, document.createTextNode(` (${formatAbsoluteTime(date)})`));
}

function anchorFact(state: SummaryPanelState, actions: HeaderActions): HTMLElement[] {
  if (state.kind === "compaction" && state.firstKeptEntryId) {
    return fact("Kept from", entryButton(state.firstKeptEntryId, actions));
  }
  if (state.kind === "branch_summary" && state.fromId) {
    if (state.fromId === "root") return fact("From", h("span", { text: "root (start of the session)" }));
    return fact("From", entryButton(state.fromId, actions));
  }
  return [];
}

export function renderHeader(state: SummaryPanelState, actions: HeaderActions, now = new Date()): HTMLElement {
  const title = h("h1", { text: TITLES[state.kind] });
  if (state.mode === "preview") {
    title.append(" ", h("span", { className: "badge preview-badge", text: "Preview: not applied yet" }));
  }
  const session = h("p", {
    className: "session-name",
    text: state.sessionName ?? baseName(state.sessionPath),
    attrs: { title: showBidiControls(state.sessionPath) },
  });

  const facts = h("dl", { className: "facts" });
  const tokens = tokensText(state.tokensBefore, state.tokensAfter);
  if (tokens) facts.append(...fact("Tokens", h("span", { className: "tokens", text: tokens })));
  const isDigest = state.model === "digest";
  facts.append(
    ...fact(
      "Model",
      h("span", {
        className: isDigest ? "model model-digest" : "model",
        text: isDigest ? "digest (no model)" : state.model,
      }),
    ),
  );
  if (state.origin) facts.append(...fact("Written", h("span", { className: "origin", text: state.origin })));
  facts.append(...whenFact(state.timestamp, now));
  if (state.agent === "omp") facts.append(...fact("agent", h("span", { className: "pi-version", text: "oh-my-pi (omp 18.3.4) semantics" })));
  else if (state.piVersion) facts.append(...fact("pi", h("span", { className: "pi-version", text: `${state.piVersion} semantics` })));
  facts.append(...anchorFact(state, actions));
  facts.append(
    ...fact("Entry", state.entryId ? entryButton(state.entryId, actions) : h("span", { text: "not in the session yet" })),
  );
  const header = h("header", { className: "panel-header" }, title, session, facts);
  if (state.notice) header.append(h("p", { className: "read-only-note panel-notice", text: state.notice, attrs: { role: "note" } }));
  return header;
}
