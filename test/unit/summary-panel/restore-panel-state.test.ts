// What a panel restored after a reload shows, from the state the webview
// saved (PersistedWebviewState) and the session file read again.

import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import { buildPanelState, type PanelEnvironment } from "../../../src/extension/summary-panel/build-panel-state";
import {
  ENTRY_GONE_NOTICE,
  RESTORED_PREVIEW_NOTICE,
  restoredPanelState,
  SESSION_GONE_NOTICE,
} from "../../../src/extension/summary-panel/restore-panel-state";
import { isSummaryPanelState, type PersistedWebviewState, type SummaryPanelState } from "../../../src/webview/protocol";
import { createPanelFixture, type PanelFixture } from "./support/pi-session";

let fx: PanelFixture;
let compactionId: string;

beforeEach(() => {
  fx = createPanelFixture();
  compactionId = fx.writer.appendCompaction("## Goal\nSet up.", fx.ids.u2!, 12_345);
});
afterEach(() => fx.cleanup());

function env(openPaths: string[] = []): PanelEnvironment {
  return { workspaceRoots: [fx.project], openPaths: new Set(openPaths), exists: existsSync, homeDir: "/home/tester" };
}

async function savedView(): Promise<SummaryPanelState> {
  const session = openSessionSync(fx.path());
  const built = await buildPanelState(session, session.entry(compactionId), env(), { mode: "view", readOnly: false, extras: { tokensAfter: 777 } });
  return built!.state;
}

function persisted(panel: SummaryPanelState, draft?: string): PersistedWebviewState {
  return { panel, showRendered: false, ...(draft ? { draft } : {}) };
}

describe("restoredPanelState", () => {
  it("a view of an entry still in the file is rebuilt from the file, with fresh marks, keeping the runner's tokensAfter", async () => {
    const saved = await savedView();
    writeFileSync(join(fx.project, "old.txt"), "back\n");
    const app = join(fx.project, "src/app.ts");
    const state = await restoredPanelState(persisted(saved), openSessionSync(fx.path()), env([app]), false);
    expect(isSummaryPanelState(state)).toBe(true);
    expect(state.entryId).toBe(compactionId);
    expect(state.tokensAfter).toBe(777);
    expect(state.notice).toBeUndefined();
    expect(state.files.find((f) => f.path === app)?.open).toBe(true);
    expect(state.files.find((f) => f.displayPath === "old.txt")?.deleted).toBe(false);
  });

  it("a view whose session file is gone keeps what was shown, says so, and refreshes the marks", async () => {
    const saved = await savedView();
    rmSync(join(fx.project, "src/app.ts"));
    const readme = join(fx.project, "README.md");
    const state = await restoredPanelState(persisted(saved), undefined, env([readme]), false);
    expect(state.notice).toBe(SESSION_GONE_NOTICE);
    expect(state.summary).toBe(saved.summary);
    expect(state.files.map((f) => [f.displayPath, f.open, f.deleted])).toEqual(saved.files.map((f) => [f.displayPath, f.path === readme, f.deleted]));
  });

  it("a view whose entry is no longer in the file says so", async () => {
    const saved = await savedView();
    const state = await restoredPanelState(persisted({ ...saved, entryId: "feedf00d" }), openSessionSync(fx.path()), env(), false);
    expect(state.notice).toBe(ENTRY_GONE_NOTICE);
    expect(state.entryId).toBe("feedf00d");
  });

  it("an entry id that now names another kind of entry is treated as gone", async () => {
    const saved = await savedView();
    const state = await restoredPanelState(persisted({ ...saved, entryId: fx.ids.u1 }), openSessionSync(fx.path()), env(), false);
    expect(state.notice).toBe(ENTRY_GONE_NOTICE);
    expect(state.summary).toBe(saved.summary);
  });

  it("a preview becomes read-only with a notice; its summary is unchanged so the webview keeps the draft", async () => {
    const saved = { ...(await savedView()), mode: "preview" as const, entryId: undefined };
    const state = await restoredPanelState(persisted(saved, "my edits"), openSessionSync(fx.path()), env(), false);
    expect(state.mode).toBe("preview");
    expect(state.readOnly).toBe(true);
    expect(state.notice).toBe(RESTORED_PREVIEW_NOTICE);
    expect(state.summary).toBe(saved.summary);
  });

  it("Restricted Mode now: a restored view is read-only", async () => {
    const state = await restoredPanelState(persisted(await savedView()), openSessionSync(fx.path()), env(), true);
    expect(state.readOnly).toBe(true);
  });
});
