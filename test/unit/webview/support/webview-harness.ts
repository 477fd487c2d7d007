// Runs the BUNDLED webview (src/webview/main.ts built by esbuild with the
// options of esbuild.mjs) in a happy-dom Window. The only stand-in is
// `acquireVsCodeApi`: VS Code's webview host cannot run in a unit test, so a
// stub records what the page posts and what it saves with setState.
import { build } from "esbuild";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Window as HappyWindow } from "happy-dom";
import type { SummaryFile, SummaryPanelState } from "../../../../src/webview/protocol";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** Bundles the webview entry exactly as esbuild.mjs does (browser ESM, es2022) into a temp file. */
export async function buildWebviewBundle(entry = "src/webview/main.ts"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pi-sessions-webview-"));
  try {
    const outfile = join(dir, "webview.js");
    await build({
      entryPoints: [join(ROOT, entry)],
      outfile,
      bundle: true,
      platform: "browser",
      format: "esm",
      target: "es2022",
      logLevel: "silent",
      legalComments: "none",
    });
    return await readFile(outfile, "utf8");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Bundles a small browser entry (TypeScript source, resolved from the repository root) for a test window. */
export async function buildBrowserSnippet(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, loader: "ts", resolveDir: ROOT, sourcefile: "snippet.ts" },
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** A bare page with JavaScript evaluation on, for running a snippet. */
export function openBlankWindow(): HappyWindow {
  const window = new HappyWindow({
    url: "https://webview.invalid/index.html",
    settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
  });
  window.document.body.innerHTML = '<main id="app"></main>';
  return window;
}

export interface WebviewPage {
  /** The page seen through the DOM's own types (happy-dom implements them). */
  window: Window & typeof globalThis;
  document: Document;
  /** Messages the page posted to the host, in order. */
  posted: unknown[];
  /** Every value passed to setState, in order. */
  savedStates: unknown[];
  acquireCalls: number;
  /** Delivers a message from the host, as VS Code does (a window "message" event). */
  send(message: unknown): void;
  close(): Promise<void>;
}

export function openWebview(bundle: string, initialState?: unknown): WebviewPage {
  const window = openBlankWindow();
  const page: WebviewPage = {
    window: window as unknown as Window & typeof globalThis,
    document: window.document as unknown as Document,
    posted: [],
    savedStates: [],
    acquireCalls: 0,
    send(message) {
      window.dispatchEvent(new window.MessageEvent("message", { data: message }));
    },
    close: () => window.happyDOM.close(),
  };
  let state: unknown = initialState;
  const api = {
    postMessage: (message: unknown) => page.posted.push(structuredClone(message)),
    getState: () => state,
    setState: (next: unknown) => {
      // VS Code stores a JSON copy: anything not JSON-serialisable would be lost.
      state = JSON.parse(JSON.stringify(next));
      page.savedStates.push(state);
    },
  };
  Object.assign(window, {
    acquireVsCodeApi: () => {
      page.acquireCalls++;
      return api;
    },
  });
  // ESM bundles run in strict mode; evaluate it the same way.
  window.eval(`"use strict";\n${bundle}`);
  return page;
}

export function lastSaved(page: WebviewPage): unknown {
  return page.savedStates[page.savedStates.length - 1];
}

export function file(path: string, overrides: Partial<SummaryFile> = {}): SummaryFile {
  return {
    path,
    displayPath: path.replace(/^\/work\/project\//, ""),
    ops: "R",
    deleted: false,
    outside: false,
    open: false,
    ...overrides,
  };
}

export function panelState(overrides: Partial<SummaryPanelState> = {}): SummaryPanelState {
  return {
    version: 1,
    kind: "compaction",
    sessionPath: "/home/user/.pi/agent/sessions/--work-project--/2025-05-01T10-00-00-000Z_abc.jsonl",
    sessionName: "Refactor the parser",
    entryId: "c0ffee01",
    summary: "## Goal\nShip it.\n",
    tokensBefore: 123456,
    tokensAfter: 4321,
    model: "anthropic/claude-sonnet-4-5",
    timestamp: "2025-05-01T10:00:00.000Z",
    firstKeptEntryId: "beef0042",
    files: [],
    mode: "view",
    readOnly: false,
    ...overrides,
  };
}
