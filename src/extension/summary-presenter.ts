// Where summaries are shown: the summary panel (src/extension/summary-panel),
// for existing entries, proposals to confirm (the runners' `confirm` step) and
// results after a write. This is the one seam between the commands and the panel.
import type { LoadedSession } from "../core/session/open/open-session";
import type { SummaryPanelController, SummaryProposal } from "./summary-panel";

export interface SummaryResultExtras {
  tokensBefore?: number;
  tokensAfter?: number | null;
  model?: string;
}

export interface SummaryPresenter {
  /** Shows an existing compaction or branch_summary entry. */
  showEntry(session: LoadedSession, entryId: string): Promise<void>;
  /** The proposal, editable: the final text on Apply, null on Discard. */
  confirm(proposal: SummaryProposal): Promise<string | null>;
  /** After a write. */
  showResult(session: LoadedSession, entry: object, extras: SummaryResultExtras): Promise<void>;
  /** The write after Apply failed (nothing written). */
  applyFailed(sessionPath: string, error: string): void;
}

export function panelPresenter(controller: SummaryPanelController): SummaryPresenter {
  return {
    showEntry: (session, entryId) => controller.showEntry(session, entryId),
    confirm: (proposal) => controller.preview(proposal),
    showResult: (session, entry, extras) => controller.showResult(session, entry, extras),
    applyFailed: (sessionPath, error) => controller.applyFailed(sessionPath, error),
  };
}
