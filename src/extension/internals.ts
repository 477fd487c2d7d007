// A hidden command (`_piSessions.internals`, not in package.json) that gives
// the extension-host tests what they check and cannot see through the UI:
// whether pi-ai was loaded, how sessions were read, the watchers' events, the
// status bar's state, and the summary panel's test hook.
import { isPiAiRequested } from "../core/summarize/pi-ai-loader";
import type { AutoCompactionNotice } from "./auto-compaction-notice";
import type { ReaderController } from "./reader";
import type { Services } from "./services";
import type { SessionWatcher } from "./session-watcher";
import type { SessionStatusBar } from "./status-bar";
import type { SummaryPanelController } from "./summary-panel";
import { UsagePanel } from "./usage";

export const INTERNALS_COMMAND_ID = "_piSessions.internals";

export interface Internals {
  piAiRequested(): boolean;
  services: Services;
  watcher: SessionWatcher;
  statusBar: SessionStatusBar;
  notice: AutoCompactionNotice;
  panel: SummaryPanelController;
  reader: ReaderController;
  /** Loads the model registry now (the Sessions view does this when it becomes visible). */
  loadModelWindows(): Promise<void>;
  /** The Usage view, when one is open. */
  usagePanel(): UsagePanel | undefined;
}

export function internals(parts: Omit<Internals, "piAiRequested" | "usagePanel">): Internals {
  return { piAiRequested: isPiAiRequested, usagePanel: () => UsagePanel.shownPanel, ...parts };
}
