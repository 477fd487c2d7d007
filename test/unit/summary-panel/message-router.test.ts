// The host's message router with a fake PanelMessageTarget (the real one
// wraps a vscode.WebviewPanel, which cannot run in vitest; the real one is
// exercised in the extension host suite). The fake records what the router
// asked for.

import { describe, expect, it } from "vitest";
import { routeWebviewMessage, type PanelMessageTarget } from "../../../src/extension/summary-panel/message-router";
import type { SummaryFile, SummaryPanelState } from "../../../src/webview/protocol";

const inside = (path: string, ops: string, extra: Partial<SummaryFile> = {}): SummaryFile => ({
  path: `/work/project/${path}`,
  displayPath: path,
  ops,
  deleted: false,
  outside: false,
  open: false,
  ...extra,
});

const FILES: SummaryFile[] = [
  inside("src/app.ts", "WE"),
  inside("README.md", "R"),
  inside("old.txt", "D", { deleted: true }),
  { path: "/etc/hosts", displayPath: "/etc/hosts", ops: "E", deleted: false, outside: true, open: false },
  { path: "/tmp/notes.txt", displayPath: "/tmp/notes.txt", ops: "R", deleted: false, outside: true, open: false },
];

function state(overrides: Partial<SummaryPanelState> = {}): SummaryPanelState {
  return {
    version: 1,
    kind: "compaction",
    sessionPath: "/sessions/s.jsonl",
    entryId: "c0ffee01",
    summary: "## Goal",
    model: "digest",
    timestamp: "2026-01-10T09:00:00.000Z",
    firstKeptEntryId: "beef0042",
    files: FILES,
    mode: "view",
    readOnly: false,
    ...overrides,
  };
}

class FakeTarget implements PanelMessageTarget {
  calls: string[] = [];
  confirmAnswer = true;
  asked: string[][] = [];
  waiting = true;
  applied = false;

  constructor(private readonly current: SummaryPanelState) {}

  state(): SummaryPanelState {
    return this.current;
  }
  sendInit(): void {
    this.calls.push("init");
  }
  async openFile(file: SummaryFile, preview: boolean): Promise<void> {
    this.calls.push(`open ${file.path} ${preview ? "preview" : "keep"}`);
  }
  async confirmOutside(files: readonly SummaryFile[]): Promise<boolean> {
    this.asked.push(files.map((f) => f.path));
    return this.confirmAnswer;
  }
  apply(text: string): boolean {
    if (!this.waiting) return false;
    this.waiting = false;
    this.applied = true;
    this.calls.push(`apply ${text}`);
    return true;
  }
  discard(): boolean {
    if (this.applied) return false;
    this.waiting = false;
    this.calls.push("discard");
    return true;
  }
  async copyMarkdown(text: string): Promise<void> {
    this.calls.push(`copy ${text}`);
  }
  async revealEntry(entryId: string): Promise<void> {
    this.calls.push(`reveal ${entryId}`);
  }
  async showLastContent(file: SummaryFile): Promise<void> {
    this.calls.push(`last content ${file.path}`);
  }
  async showChanges(file: SummaryFile): Promise<void> {
    this.calls.push(`changes ${file.path}`);
  }
}

describe("routeWebviewMessage", () => {
  it("answers ready with init", async () => {
    const target = new FakeTarget(state());
    expect(await routeWebviewMessage({ type: "ready" }, target)).toEqual({ done: true, action: "init" });
    expect(target.calls).toEqual(["init"]);
  });

  it.each([
    ["not an object", "openFile"],
    ["unknown type", { type: "runShell", command: "rm -rf /" }],
    ["openFile without preview flag", { type: "openFile", path: "/work/project/src/app.ts" }],
    ["openFile with a non-string path", { type: "openFile", path: 42, preview: true }],
    ["apply with blank text", { type: "apply", text: "  \n" }],
    ["revealEntry without id", { type: "revealEntry" }],
  ])("refuses an invalid message (%s) and does nothing", async (_name, message) => {
    const target = new FakeTarget(state({ mode: "preview", entryId: undefined }));
    expect(await routeWebviewMessage(message, target)).toEqual({ done: false, reason: "invalid message" });
    expect(target.calls).toEqual([]);
  });

  describe("showChanges", () => {
    it("asks the host for the diff of a file the session changed, deleted ones included", async () => {
      const target = new FakeTarget(state());
      expect(await routeWebviewMessage({ type: "showChanges", path: "/work/project/src/app.ts" }, target)).toEqual({ done: true, action: "showChanges" });
      expect(await routeWebviewMessage({ type: "showChanges", path: "/work/project/old.txt" }, target)).toEqual({ done: true, action: "showChanges" });
      expect(target.calls).toEqual(["changes /work/project/src/app.ts", "changes /work/project/old.txt"]);
    });

    it("refuses a file that is not in the manifest, or one the session only read", async () => {
      const target = new FakeTarget(state());
      expect(await routeWebviewMessage({ type: "showChanges", path: "/etc/passwd" }, target)).toEqual({ done: false, reason: "not a file of this summary" });
      expect(await routeWebviewMessage({ type: "showChanges", path: "/work/project/README.md" }, target)).toEqual({ done: false, reason: "the session did not change this file" });
      expect(await routeWebviewMessage({ type: "showChanges", path: 7 }, target)).toEqual({ done: false, reason: "invalid message" });
      expect(target.calls).toEqual([]);
    });
  });

  describe("openFile", () => {
    it("opens a manifest file in a preview tab, or a kept tab", async () => {
      const target = new FakeTarget(state());
      expect(await routeWebviewMessage({ type: "openFile", path: "/work/project/src/app.ts", preview: true }, target)).toEqual({ done: true, action: "openFile" });
      await routeWebviewMessage({ type: "openFile", path: "/work/project/README.md", preview: false }, target);
      expect(target.calls).toEqual(["open /work/project/src/app.ts preview", "open /work/project/README.md keep"]);
      expect(target.asked).toEqual([]);
    });

    it.each(["/etc/passwd", "/work/project/src/../../../etc/passwd", "/work/project/src/app.ts ", "src/app.ts"])(
      "refuses a path that is not one of the panel's files: %s",
      async (path) => {
        const target = new FakeTarget(state());
        expect(await routeWebviewMessage({ type: "openFile", path, preview: true }, target)).toEqual({ done: false, reason: "not a file of this summary" });
        expect(target.calls).toEqual([]);
      },
    );

    it("a deleted file: its last content as the session holds it (never the path opened)", async () => {
      const target = new FakeTarget(state());
      expect(await routeWebviewMessage({ type: "openFile", path: "/work/project/old.txt", preview: true }, target)).toEqual({ done: true, action: "showLastContent" });
      expect(target.calls).toEqual(["last content /work/project/old.txt"]);
    });

    it("asks before opening a file outside the workspace; opens on yes", async () => {
      const target = new FakeTarget(state());
      expect((await routeWebviewMessage({ type: "openFile", path: "/etc/hosts", preview: true }, target)).done).toBe(true);
      expect(target.asked).toEqual([["/etc/hosts"]]);
      expect(target.calls).toEqual(["open /etc/hosts preview"]);
    });

    it("asks before opening a file outside the workspace; opens nothing on no", async () => {
      const target = new FakeTarget(state());
      target.confirmAnswer = false;
      expect(await routeWebviewMessage({ type: "openFile", path: "/etc/hosts", preview: true }, target)).toEqual({ done: false, reason: "declined: outside the workspace" });
      expect(target.asked).toEqual([["/etc/hosts"]]);
      expect(target.calls).toEqual([]);
    });
  });

  describe("openAllModified", () => {
    it("opens the written/edited/moved files that still exist as kept tabs, asking once for those outside", async () => {
      const target = new FakeTarget(state());
      expect(await routeWebviewMessage({ type: "openAllModified" }, target)).toEqual({ done: true, action: "openAllModified 2" });
      expect(target.asked).toEqual([["/etc/hosts"]]);
      expect(target.calls).toEqual(["open /work/project/src/app.ts keep", "open /etc/hosts keep"]);
    });

    it("declining skips only the outside ones", async () => {
      const target = new FakeTarget(state());
      target.confirmAnswer = false;
      expect((await routeWebviewMessage({ type: "openAllModified" }, target)).done).toBe(true);
      expect(target.calls).toEqual(["open /work/project/src/app.ts keep"]);
    });

    it("does not ask when every modified file is inside", async () => {
      const target = new FakeTarget(state({ files: FILES.filter((f) => !f.outside) }));
      await routeWebviewMessage({ type: "openAllModified" }, target);
      expect(target.asked).toEqual([]);
    });

    it("refuses when there is nothing modified", async () => {
      const target = new FakeTarget(state({ files: [inside("README.md", "R"), inside("old.txt", "ED", { deleted: true })] }));
      expect(await routeWebviewMessage({ type: "openAllModified" }, target)).toEqual({ done: false, reason: "no modified files" });
      expect(target.calls).toEqual([]);
    });
  });

  describe("apply and discard", () => {
    const preview = state({ mode: "preview", entryId: undefined });

    it("apply hands the edited text to the waiting run, once", async () => {
      const target = new FakeTarget(preview);
      expect(await routeWebviewMessage({ type: "apply", text: "## Goal\nedited" }, target)).toEqual({ done: true, action: "apply" });
      expect(await routeWebviewMessage({ type: "apply", text: "again" }, target)).toEqual({ done: false, reason: "nothing waits for this preview" });
      expect(await routeWebviewMessage({ type: "discard" }, target)).toEqual({ done: false, reason: "already applied" });
      expect(target.calls).toEqual(["apply ## Goal\nedited"]);
    });

    it("discard answers the run with nothing", async () => {
      const target = new FakeTarget(preview);
      expect(await routeWebviewMessage({ type: "discard" }, target)).toEqual({ done: true, action: "discard" });
      expect(target.calls).toEqual(["discard"]);
    });

    it("a view panel or a read-only preview refuses apply; a view refuses discard", async () => {
      for (const current of [state(), state({ mode: "preview", readOnly: true })]) {
        const target = new FakeTarget(current);
        expect(await routeWebviewMessage({ type: "apply", text: "x" }, target)).toEqual({ done: false, reason: "nothing to apply" });
        expect(target.calls).toEqual([]);
      }
      const view = new FakeTarget(state());
      expect(await routeWebviewMessage({ type: "discard" }, view)).toEqual({ done: false, reason: "nothing to discard" });
      expect(view.calls).toEqual([]);
    });
  });

  it("copies the text it is given", async () => {
    const target = new FakeTarget(state());
    await routeWebviewMessage({ type: "copyMarkdown", text: "# T" }, target);
    expect(target.calls).toEqual(["copy # T"]);
  });

  describe("revealEntry", () => {
    it("reveals the panel's own entry and its kept-from entry", async () => {
      const target = new FakeTarget(state());
      await routeWebviewMessage({ type: "revealEntry", entryId: "c0ffee01" }, target);
      await routeWebviewMessage({ type: "revealEntry", entryId: "beef0042" }, target);
      expect(target.calls).toEqual(["reveal c0ffee01", "reveal beef0042"]);
    });

    it("reveals a branch summary's fromId but not the pseudo-id root", async () => {
      const target = new FakeTarget(state({ kind: "branch_summary", firstKeptEntryId: undefined, fromId: "a1b2c3d4" }));
      expect((await routeWebviewMessage({ type: "revealEntry", entryId: "a1b2c3d4" }, target)).done).toBe(true);
      const fromRoot = new FakeTarget(state({ kind: "branch_summary", firstKeptEntryId: undefined, fromId: "root" }));
      expect(await routeWebviewMessage({ type: "revealEntry", entryId: "root" }, fromRoot)).toEqual({ done: false, reason: "not an entry of this summary" });
    });

    it("refuses any other id", async () => {
      const target = new FakeTarget(state());
      expect(await routeWebviewMessage({ type: "revealEntry", entryId: "deadbeef" }, target)).toEqual({ done: false, reason: "not an entry of this summary" });
      expect(target.calls).toEqual([]);
    });
  });
});
