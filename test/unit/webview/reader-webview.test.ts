// The BUNDLED reader webview (src/webview/reader/main.ts) in happy-dom: pages,
// earlier pages, live appends that leave earlier blocks untouched (a
// MutationObserver watches them), clicks posted as ids (never paths), bidi
// controls shown, and the hostile corpus rendered inert in every kind of block.
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ReaderBlock, ReaderState } from "../../../src/webview/reader-protocol";
import { isReaderHostMessage } from "../../../src/webview/reader-protocol";
import { activeContent } from "./support/inert-content";
import { buildWebviewBundle, lastSaved, openWebview, type WebviewPage } from "./support/webview-harness";
import { loadHostileCases } from "../../support/hostile-summaries";
import { pngImagePart } from "../../support/png";

const STATE: ReaderState = { version: 1, sessionPath: "/home/u/.pi/agent/sessions/--p--/s.jsonl", title: "Fix the parser", leafId: "b9", follow: true, filter: "all" };

function user(id: string, text: string): ReaderBlock {
  return { id, kind: "user", timestamp: "2026-02-01T10:00:00.000Z", text };
}

function assistant(id: string, text: string, path = "src/a.ts"): ReaderBlock {
  return {
    id,
    kind: "assistant",
    timestamp: "2026-02-01T10:00:01.000Z",
    text,
    title: "openai/gpt",
    parts: [
      { type: "text", text },
      { type: "thinking", text: "hmm" },
      { type: "toolCall", call: { id: `c-${id}`, name: "bash", args: "{}", command: "grep -rn 'x' src | wc -l" } },
      { type: "toolCall", call: { id: `p-${id}`, name: "read", args: "{}", path } },
    ],
  };
}

function result(id: string, text: string): ReaderBlock {
  return { id, kind: "toolResult", timestamp: "", text, title: "read", isError: false };
}

const ids = (page: WebviewPage) => Array.from(page.document.querySelectorAll<HTMLElement>("article.block")).map((a) => a.dataset.entryId);

let bundle: string;
let page: WebviewPage | undefined;

beforeAll(async () => {
  bundle = await buildWebviewBundle("src/webview/reader/main.ts");
});

afterEach(async () => {
  await page?.close();
  page = undefined;
});

function open(blocks: ReaderBlock[], start = 0, total = start + blocks.length): WebviewPage {
  page = openWebview(bundle);
  const init = { type: "init", state: STATE, blocks, start, total };
  expect(isReaderHostMessage(init)).toBe(true);
  page.send(init);
  return page;
}

describe("pages", () => {
  it("asks for its page, renders it, reports it shown and saves its state", () => {
    const p = open([user("u1", "Hello **there**"), assistant("a1", "Hi")], 10, 12);
    expect(p.posted[0]).toEqual({ type: "ready" });
    expect(p.posted).toContainEqual({ type: "shown", blocks: 2 });
    expect(ids(p)).toEqual(["u1", "a1"]);
    expect(p.document.querySelector(".block-user .markdown-body strong")?.textContent).toBe("there");
    expect(p.document.querySelector(".reader-header h1")?.textContent).toBe("Fix the parser");
    // happy-dom has no layout: the page is "at its end".
    expect(lastSaved(p)).toEqual({ reader: STATE, scroll: { atEnd: true } });
  });

  it("a reloaded page asks for the entry it was scrolled to (the real scroll is checked in the UI suite)", () => {
    page = openWebview(bundle, { reader: STATE, scroll: { entryId: "a1", offset: 120 } });
    expect(page.posted[0]).toEqual({ type: "ready", anchorId: "a1" });
    page.send({ type: "init", state: STATE, blocks: [user("u1", "one"), assistant("a1", "two")], start: 0, total: 2 });
    expect(ids(page)).toEqual(["u1", "a1"]);
  });

  it("a saved state that does not validate is ignored", () => {
    page = openWebview(bundle, { reader: STATE, scroll: { entryId: "a1", offset: "120px" } });
    expect(page.posted[0]).toEqual({ type: "ready" });
  });

  it("thinking, arguments and tool results are folded; bash is highlighted", () => {
    const p = open([assistant("a1", "Hi"), result("r1", "file text")]);
    expect(p.document.querySelector<HTMLDetailsElement>("details.thinking")?.open).toBe(false);
    expect(p.document.querySelector<HTMLDetailsElement>("details.tool-args")?.open).toBe(false);
    expect(p.document.querySelector<HTMLDetailsElement>(".block-toolResult details")?.open).toBe(false);
    expect(Array.from(p.document.querySelectorAll(".bash-command .sh-cmd")).map((e) => e.textContent)).toEqual(["grep", "wc"]);
    expect(p.document.querySelector(".bash-command .sh-str")?.textContent).toBe("'x'");
    expect(p.document.querySelector(".bash-command .sh-flag")?.textContent).toBe("-rn");
  });

  it("Load earlier asks for the page before the first block and prepends it", () => {
    const p = open([user("u5", "five")], 5, 6);
    const earlier = p.document.querySelector<HTMLButtonElement>(".load-earlier")!;
    expect(earlier.hidden).toBe(false);
    earlier.click();
    expect(p.posted).toContainEqual({ type: "loadEarlier", before: 5 });
    p.send({ type: "earlier", blocks: [user("u3", "three"), user("u4", "four")], start: 3 });
    expect(ids(p)).toEqual(["u3", "u4", "u5"]);
    p.send({ type: "earlier", blocks: [user("u0", "zero")], start: 0 });
    // Not the page right before the first block: ignored.
    expect(ids(p)).toEqual(["u3", "u4", "u5"]);
  });

  it("a message click reveals its entry; a file click names the entry and the call, never a path", () => {
    const p = open([assistant("a1", "Hi", "/etc/passwd")]);
    p.document.querySelector<HTMLElement>(".block-assistant .markdown-body p")!.click();
    expect(p.posted).toContainEqual({ type: "revealEntry", entryId: "a1" });
    p.document.querySelector<HTMLButtonElement>("button.tool-path")!.click();
    const opened = p.posted.find((m) => (m as { type: string }).type === "openFile");
    expect(opened).toEqual({ type: "openFile", entryId: "a1", toolCallId: "p-a1", preview: true });
  });
});

describe("live", () => {
  it("appends new blocks without touching the earlier ones", () => {
    const p = open([user("u1", "one"), assistant("a1", "two")]);
    const before = Array.from(p.document.querySelectorAll("article.block"));
    const records: MutationRecord[] = [];
    const observer = new p.window.MutationObserver((list) => records.push(...list));
    for (const element of before) observer.observe(element, { subtree: true, childList: true, attributes: true, characterData: true });
    const list = p.document.querySelector(".blocks")!;
    const listRecords: MutationRecord[] = [];
    const listObserver = new p.window.MutationObserver((l) => listRecords.push(...l));
    listObserver.observe(list, { childList: true });
    p.send({ type: "append", blocks: [user("u2", "three"), result("r2", "four")], total: 4 });
    expect(ids(p)).toEqual(["u1", "a1", "u2", "r2"]);
    const after = Array.from(p.document.querySelectorAll("article.block"));
    expect(after.slice(0, 2)).toEqual(before);
    // Flush the observers' queues.
    records.push(...observer.takeRecords());
    listRecords.push(...listObserver.takeRecords());
    expect(records).toEqual([]);
    expect(listRecords.flatMap((r) => Array.from(r.removedNodes))).toEqual([]);
    expect(listRecords.flatMap((r) => Array.from(r.addedNodes)).map((n) => (n as HTMLElement).dataset.entryId)).toEqual(["u2", "r2"]);
  });

  it("a changed block is replaced in place (a label), the others stay", () => {
    const p = open([user("u1", "one"), user("u2", "two")]);
    const second = p.document.querySelectorAll("article.block")[1];
    p.send({ type: "changed", blocks: [{ ...user("u1", "one"), label: "milestone" }] });
    expect(p.document.querySelector(".label-badge")?.textContent).toBe("label: milestone");
    expect(p.document.querySelectorAll("article.block")[1]).toBe(second);
  });

  it("the header says which entries it counts: this branch's, and the file's when they differ (the Sessions view counts the file)", () => {
    page = openWebview(bundle);
    const init = { type: "init", state: STATE, blocks: [user("u1", "a"), assistant("a1", "b")], start: 0, total: 2, inFile: 5 };
    expect(isReaderHostMessage(init)).toBe(true);
    page.send(init);
    const facts = () => page!.document.querySelector(".session-facts")?.textContent ?? "";
    expect(facts()).toContain("2 of 2 entries of this branch shown");
    expect(facts()).toContain("5 in the file (all branches)");
    page.send({ type: "append", blocks: [user("u2", "c")], total: 3, inFile: 3 });
    expect(facts()).toContain("3 of 3 entries of this branch shown");
    expect(facts()).not.toContain("in the file");
  });

  it("reveal marks the entry", () => {
    const p = open([user("u1", "one"), user("u2", "two")]);
    p.send({ type: "reveal", entryId: "u1" });
    expect(p.document.querySelector(".is-revealed")?.getAttribute("data-entry-id")).toBe("u1");
  });

  it("context edits: omitted and replaced are marked, the replacement shown", () => {
    const p = open([
      { ...user("u1", "long question"), edit: { editId: "e1", replacement: "short question" } },
      { ...result("r1", "noise"), edit: { editId: "e2" } },
    ]);
    expect(p.document.querySelector("article.is-replaced .edit-replacement pre")?.textContent).toBe("short question");
    expect(p.document.querySelector("article.is-omitted .edit-badge")?.textContent).toBe("omitted from context");
  });

  it("messages that do not validate are dropped", () => {
    const p = open([user("u1", "one")]);
    p.send({ type: "append", blocks: [{ id: "x", kind: "script", timestamp: "", text: "" }], total: 2 });
    p.send({ type: "append", blocks: [user("u2", "x".repeat(500_000))], total: 2 });
    expect(ids(p)).toEqual(["u1"]);
  });
});

describe("images", () => {
  const { mimeType, data } = pngImagePart(4, 4);

  it("a user message's and a tool result's images show as data: URIs, nothing else", () => {
    const p = open([{ ...user("u1", "look"), images: [{ mimeType, data }], detail: "1 image" }, { ...result("r1", "x"), images: [{ mimeType, data }] }]);
    const sources = Array.from(p.document.querySelectorAll("img")).map((img) => img.getAttribute("src"));
    expect(sources).toEqual([`data:image/png;base64,${data}`, `data:image/png;base64,${data}`]);
    expect(p.document.querySelector(".block-tool-result details.tool-result img, article.block-toolResult details.tool-result img")).not.toBeNull();
    expect(activeContent(p.document.documentElement, 0, { dataImages: true })).toEqual([]);
  });

  it.each([
    ["an SVG", { mimeType: "image/svg+xml", data: "PHN2Zz4=" }],
    ["HTML claiming to be PNG", { mimeType: "image/png", data: Buffer.from("<script>alert(1)</script>").toString("base64") }],
    ["a remote URL", { mimeType: "image/png", data, url: "https://example.com/x.png" }],
    ["a quote in the type", { mimeType: 'image/png" onerror="x', data }],
  ])("a block carrying %s does not validate (the page shows nothing of it)", (_, image) => {
    const block = { ...user("u2", "look"), images: [image] };
    expect(isReaderHostMessage({ type: "append", blocks: [block], total: 2 })).toBe(false);
    const p = open([user("u1", "one")]);
    p.send({ type: "append", blocks: [block], total: 2 });
    expect(ids(p)).toEqual(["u1"]);
    expect(p.document.querySelectorAll("img").length).toBe(0);
  });
});

it("bidi controls show as marked tokens in text, paths and the header", () => {
  const p = open([assistant("a1", "rename \u202Egpj.exe", "src/\u202Etxt.exe"), result("r1", "\u2067evil\u2069")]);
  const text = p.document.getElementById("app")!.textContent ?? "";
  expect(text).toContain("rename ⟨U+202E⟩gpj.exe");
  expect(text).toContain("src/⟨U+202E⟩txt.exe");
  expect(text).toContain("⟨U+2067⟩evil⟨U+2069⟩");
  expect(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/.test(text)).toBe(false);
  // The text, the path, the result's summary line and its output (two controls each there).
  expect(p.document.querySelectorAll(".bidi-control").length).toBe(6);
});

const CORPUS = fileURLToPath(new URL("../../fixtures/hostile-summaries/", import.meta.url));
const HOSTILE = loadHostileCases<{ path: string }>(CORPUS).map((c) => ({ name: c.name, text: c.summary, path: c.files?.[0]?.path ?? c.summary.slice(0, 200) }));

describe.each(HOSTILE)("hostile corpus in the reader: $name", ({ text, path }) => {
  it("every kind of block stays inert", () => {
    const p = open([
      user("u1", text),
      assistant("a1", text, path),
      result("r1", text),
      { id: "c1", kind: "compaction", timestamp: "", text, tokens: 5 },
      { id: "s1", kind: "system", timestamp: "", text },
      { id: "m1", kind: "mark", timestamp: "", text, title: text.slice(0, 100) },
      { id: "x1", kind: "unknown", timestamp: "", text, title: text.slice(0, 100) },
      { ...user("u2", "edited"), label: text.slice(0, 1000), edit: { editId: "e", replacement: text } },
    ]);
    p.send({ type: "notice", text: text.slice(0, 10_000) });
    expect(activeContent(p.document.documentElement, 0)).toEqual([]);
  });
});
