import { describe, expect, it } from "vitest";
import {
  isHostMessage,
  isModifiedFile,
  isPersistedWebviewState,
  isSummaryPanelState,
  isWebviewMessage,
  LIMITS,
  type SummaryFile,
  type SummaryPanelState,
} from "../../../src/webview/protocol";

const FILE: SummaryFile = {
  path: "/work/project/src/a.ts",
  displayPath: "src/a.ts",
  ops: "RE",
  deleted: false,
  outside: false,
  open: true,
};

const STATE: SummaryPanelState = {
  version: 1,
  kind: "compaction",
  sessionPath: "/home/u/.pi/agent/sessions/--w--/s.jsonl",
  sessionName: "name",
  entryId: "a1b2c3d4",
  summary: "## Goal\nx",
  tokensBefore: 1000,
  tokensAfter: 200,
  model: "anthropic/claude-sonnet-4-5",
  timestamp: "2025-05-01T10:00:00.000Z",
  firstKeptEntryId: "e5f6a7b8",
  fromId: undefined,
  files: [FILE],
  mode: "view",
  readOnly: false,
};

const long = (n: number) => "x".repeat(n);

describe("SummaryPanelState", () => {
  it("accepts a full state, a minimal one, and its JSON round trip", () => {
    expect(isSummaryPanelState(STATE)).toBe(true);
    expect(isSummaryPanelState(JSON.parse(JSON.stringify(STATE)))).toBe(true);
    const minimal = {
      version: 1,
      kind: "branch_summary",
      sessionPath: "/s.jsonl",
      summary: "",
      model: "digest",
      timestamp: "2025-05-01T10:00:00Z",
      files: [],
      mode: "preview",
      readOnly: true,
    };
    expect(isSummaryPanelState(minimal)).toBe(true);
    expect(isSummaryPanelState({ ...STATE, somethingNew: 1 })).toBe(true);
  });

  const badStates: [string, unknown][] = [
    ["not an object", "state"],
    ["an array", [STATE]],
    ["null", null],
    ["version 2", { ...STATE, version: 2 }],
    ["version as string", { ...STATE, version: "1" }],
    ["unknown kind", { ...STATE, kind: "summary" }],
    ["sessionPath missing", { ...STATE, sessionPath: undefined }],
    ["sessionPath empty", { ...STATE, sessionPath: "" }],
    ["sessionPath too long", { ...STATE, sessionPath: long(LIMITS.pathChars + 1) }],
    ["sessionName a number", { ...STATE, sessionName: 3 }],
    ["sessionName empty", { ...STATE, sessionName: "" }],
    ["entryId null", { ...STATE, entryId: null }],
    ["entryId too long", { ...STATE, entryId: long(LIMITS.idChars + 1) }],
    ["summary missing", { ...STATE, summary: undefined }],
    ["summary too long", { ...STATE, summary: long(LIMITS.summaryChars + 1) }],
    ["tokensBefore negative", { ...STATE, tokensBefore: -1 }],
    ["tokensBefore fractional", { ...STATE, tokensBefore: 1.5 }],
    ["tokensAfter NaN", { ...STATE, tokensAfter: Number.NaN }],
    ["tokensAfter a string", { ...STATE, tokensAfter: "200" }],
    ["model empty", { ...STATE, model: "" }],
    ["model too long", { ...STATE, model: long(LIMITS.modelChars + 1) }],
    ["timestamp not a date", { ...STATE, timestamp: "yesterday" }],
    ["timestamp not ISO", { ...STATE, timestamp: "May 1, 2025" }],
    ["timestamp a number", { ...STATE, timestamp: 1746093600000 }],
    ["firstKeptEntryId a number", { ...STATE, firstKeptEntryId: 7 }],
    ["fromId an object", { ...STATE, fromId: {} }],
    ["files not an array", { ...STATE, files: {} }],
    ["too many files", { ...STATE, files: Array.from({ length: LIMITS.files + 1 }, () => FILE) }],
    ["mode unknown", { ...STATE, mode: "edit" }],
    ["readOnly a string", { ...STATE, readOnly: "false" }],
    ["readOnly missing", { ...STATE, readOnly: undefined }],
  ];
  it.each(badStates)("rejects %s", (_name, state) => {
    expect(isSummaryPanelState(state)).toBe(false);
  });

  const badFiles: [string, unknown][] = [
    ["path missing", { ...FILE, path: undefined }],
    ["path empty", { ...FILE, path: "" }],
    ["path too long", { ...FILE, path: long(LIMITS.pathChars + 1) }],
    ["displayPath a number", { ...FILE, displayPath: 1 }],
    ["ops with an unknown letter", { ...FILE, ops: "RX" }],
    ["ops lower case", { ...FILE, ops: "r" }],
    ["ops with a repeated letter", { ...FILE, ops: "RR" }],
    ["ops too long", { ...FILE, ops: "RWEMDR" }],
    ["ops an array", { ...FILE, ops: ["R"] }],
    ["deleted a string", { ...FILE, deleted: "no" }],
    ["outside missing", { ...FILE, outside: undefined }],
    ["open a number", { ...FILE, open: 1 }],
    ["null", null],
  ];
  it.each(badFiles)("rejects a file with %s", (_name, bad) => {
    expect(isSummaryPanelState({ ...STATE, files: [FILE, bad] })).toBe(false);
  });
});

describe("host → webview messages", () => {
  const valid: unknown[] = [
    { type: "init", state: STATE },
    { type: "update", state: { ...STATE, mode: "preview", entryId: undefined } },
    { type: "tabsChanged", openPaths: [] },
    { type: "tabsChanged", openPaths: ["/a", "/b"] },
    { type: "applied", entryId: "a1b2c3d4" },
    { type: "applyFailed", error: "the file changed" },
  ];
  it.each(valid)("accepts %j", (message) => {
    expect(isHostMessage(message)).toBe(true);
  });

  const invalid: [string, unknown][] = [
    ["undefined", undefined],
    ["a string", "init"],
    ["no type", { state: STATE }],
    ["unknown type", { type: "reset" }],
    ["a webview message", { type: "ready" }],
    ["init without state", { type: "init" }],
    ["init with a bad state", { type: "init", state: { ...STATE, mode: "x" } }],
    ["update with a bad state", { type: "update", state: [] }],
    ["tabsChanged with a string", { type: "tabsChanged", openPaths: "/a" }],
    ["tabsChanged with numbers", { type: "tabsChanged", openPaths: [1] }],
    ["tabsChanged with an empty path", { type: "tabsChanged", openPaths: [""] }],
    ["tabsChanged with a too long path", { type: "tabsChanged", openPaths: [long(LIMITS.pathChars + 1)] }],
    ["tabsChanged with too many paths", { type: "tabsChanged", openPaths: Array.from({ length: LIMITS.openPaths + 1 }, () => "/a") }],
    ["applied without entryId", { type: "applied" }],
    ["applied with an empty entryId", { type: "applied", entryId: "" }],
    ["applyFailed with an object", { type: "applyFailed", error: new Error("x") }],
    ["applyFailed too long", { type: "applyFailed", error: long(LIMITS.errorChars + 1) }],
  ];
  it.each(invalid)("rejects %s", (_name, message) => {
    expect(isHostMessage(message)).toBe(false);
  });
});

describe("webview → host messages", () => {
  const valid: unknown[] = [
    { type: "ready" },
    { type: "openFile", path: "/work/project/a.ts", preview: true },
    { type: "openFile", path: "/work/project/a.ts", preview: false },
    { type: "openAllModified" },
    { type: "apply", text: "## Goal\nx" },
    { type: "discard" },
    { type: "copyMarkdown", text: "" },
    { type: "revealEntry", entryId: "a1b2c3d4" },
  ];
  it.each(valid)("accepts %j", (message) => {
    expect(isWebviewMessage(message)).toBe(true);
  });

  const invalid: [string, unknown][] = [
    ["null", null],
    ["an array", [{ type: "ready" }]],
    ["unknown type", { type: "openFolder" }],
    ["a host message", { type: "init", state: STATE }],
    ["openFile without preview", { type: "openFile", path: "/a" }],
    ["openFile with preview as a string", { type: "openFile", path: "/a", preview: "true" }],
    ["openFile with an empty path", { type: "openFile", path: "", preview: true }],
    ["openFile with a too long path", { type: "openFile", path: long(LIMITS.pathChars + 1), preview: true }],
    ["openFile with a path array", { type: "openFile", path: ["/a"], preview: true }],
    ["apply without text", { type: "apply" }],
    ["apply with blank text", { type: "apply", text: " \n\t" }],
    ["apply with too much text", { type: "apply", text: long(LIMITS.summaryChars + 1) }],
    ["copyMarkdown with a number", { type: "copyMarkdown", text: 1 }],
    ["revealEntry without entryId", { type: "revealEntry" }],
    ["revealEntry with a too long id", { type: "revealEntry", entryId: long(LIMITS.idChars + 1) }],
  ];
  it.each(invalid)("rejects %s", (_name, message) => {
    expect(isWebviewMessage(message)).toBe(false);
  });
});

describe("persisted webview state", () => {
  it("accepts the panel with or without a draft, rejects anything else", () => {
    expect(isPersistedWebviewState({ panel: STATE, showRendered: false })).toBe(true);
    expect(isPersistedWebviewState({ panel: STATE, draft: "edits", showRendered: true })).toBe(true);
    expect(isPersistedWebviewState(STATE)).toBe(false);
    expect(isPersistedWebviewState({ panel: STATE })).toBe(false);
    expect(isPersistedWebviewState({ panel: STATE, draft: 5, showRendered: false })).toBe(false);
    expect(isPersistedWebviewState({ panel: { ...STATE, version: 0 }, showRendered: false })).toBe(false);
  });
});

describe("isModifiedFile", () => {
  it("is a written, edited or moved file that was not deleted", () => {
    const cases: [Partial<SummaryFile>, boolean][] = [
      [{ ops: "R" }, false],
      [{ ops: "W" }, true],
      [{ ops: "RE" }, true],
      [{ ops: "M" }, true],
      [{ ops: "D" }, false],
      [{ ops: "WD", deleted: true }, false],
    ];
    for (const [overrides, expected] of cases) expect(isModifiedFile({ ...FILE, ...overrides })).toBe(expected);
  });
});
