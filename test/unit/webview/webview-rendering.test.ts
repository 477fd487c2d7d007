// What the bundled webview shows: the structured summary, the header and the
// files-touched manifest (see support/webview-harness.ts for the one stub).
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildWebviewBundle, file, openWebview, panelState, type WebviewPage } from "./support/webview-harness";

// pi's summary format (compaction.js SUMMARIZATION_PROMPT), pi's file blocks
// (utils.js formatFileOperations) and the files-touched manifest block.
const STRUCTURED_SUMMARY = `## Goal
Make the parser stream large sessions.

## Constraints & Preferences
- Keep Node 20 support
- No new dependencies

## Progress
### Done
- [x] Read \`src/parser.ts\`
- [X] Wrote the streaming splitter

### In Progress
- [ ] Benchmark on a 100 MB file

### Blocked
- (none)

## Key Decisions
- **Streaming**: avoid loading whole files

## Next Steps
1. Run the bench
2. Update docs

## Critical Context
- Error seen: \`RangeError: Invalid string length\`
- See [the issue](https://github.com/badlogic/pi-mono/issues/1)

<read-files>
src/parser.ts
docs/notes.md
</read-files>

<modified-files>
src/splitter.ts
</modified-files>

---

## Files touched (cumulative)
R=read, W=write, E=edit, M=move/rename, D=delete
\`\`\`text
R  src/parser.ts
W  src/splitter.ts
\`\`\`
`;

let bundle: string;
let page: WebviewPage | undefined;

beforeAll(async () => {
  bundle = await buildWebviewBundle();
});

afterEach(async () => {
  await page?.close();
  page = undefined;
});

function show(state = panelState()): WebviewPage {
  page = openWebview(bundle);
  page.send({ type: "init", state });
  return page;
}

function texts(root: ParentNode, selector: string): string[] {
  return Array.from(root.querySelectorAll(selector)).map((element) => (element.textContent ?? "").trim());
}

describe("summary rendering", () => {
  it("renders every section of pi's structured summary as headings, in order, under the panel's own h2", () => {
    const { document } = show(panelState({ summary: STRUCTURED_SUMMARY }));
    const body = document.querySelector(".markdown-body")!;
    expect(texts(document, "h1, h2")).toEqual(["Compaction summary", "Summary", "Files touched"]);
    expect(texts(body, "h1, h2")).toEqual([]);
    expect(texts(body, "h3")).toEqual([
      "Goal",
      "Constraints & Preferences",
      "Progress",
      "Key Decisions",
      "Next Steps",
      "Critical Context",
      "Files touched (cumulative)",
    ]);
    expect(texts(body, "h4")).toEqual(["Done", "In Progress", "Blocked"]);
    expect(texts(body, "ol > li")).toEqual(["Run the bench", "Update docs"]);
    expect(body.querySelector("strong")?.textContent).toBe("Streaming");
    expect(body.querySelector("pre code")?.textContent).toBe("R  src/parser.ts\nW  src/splitter.ts\n");
  });

  it("renders task items as disabled checkboxes with the right checked state", () => {
    const { document } = show(panelState({ summary: STRUCTURED_SUMMARY }));
    const boxes = Array.from(document.querySelectorAll<HTMLInputElement>(".markdown-body input"));
    expect(boxes.map((box) => [box.type, box.disabled, box.checked])).toEqual([
      ["checkbox", true, true],
      ["checkbox", true, true],
      ["checkbox", true, false],
    ]);
    expect(boxes.map((box) => box.parentElement!.textContent!.trim())).toEqual([
      "Read src/parser.ts",
      "Wrote the streaming splitter",
      "Benchmark on a 100 MB file",
    ]);
    // "(none)" under Blocked is a plain item: no marker, no checkbox.
    const blocked = Array.from(document.querySelectorAll(".markdown-body li")).find((li) => li.textContent === "(none)");
    expect(blocked?.querySelector("input")).toBeNull();
  });

  it("shows pi's <read-files>/<modified-files> blocks as one collapsible section, not as tags", () => {
    const { document } = show(panelState({ summary: STRUCTURED_SUMMARY }));
    const body = document.querySelector(".markdown-body")!;
    const lists = body.querySelectorAll("details.pi-file-lists");
    expect(lists).toHaveLength(1);
    expect(lists[0]!.querySelector("summary")?.textContent).toBe("pi file lists");
    expect(texts(lists[0]!, ".pi-file-list-title")).toEqual(["Read (2)", "Modified (1)"]);
    expect(texts(lists[0]!, ".pi-file-list-read code")).toEqual(["src/parser.ts", "docs/notes.md"]);
    expect(texts(lists[0]!, ".pi-file-list-modified code")).toEqual(["src/splitter.ts"]);
    expect(body.textContent).not.toContain("<read-files>");
    expect(body.textContent).not.toContain("</modified-files>");
  });

  it("keeps an unterminated <read-files> block as visible text", () => {
    const { document } = show(panelState({ summary: "<read-files>\na.ts\n\nAfter." }));
    const body = document.querySelector(".markdown-body")!;
    expect(body.querySelector("details")).toBeNull();
    expect(body.textContent).toContain("<read-files>");
  });

  it("keeps http(s) links and turns other schemes into text", () => {
    const { document } = show(panelState({ summary: STRUCTURED_SUMMARY + "\n[bad](javascript:alert(1)) [mail](mailto:a@b.c)\n" }));
    const hrefs = Array.from(document.querySelectorAll(".markdown-body a")).map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["https://github.com/badlogic/pi-mono/issues/1", "mailto:a@b.c"]);
    expect(document.querySelector(".markdown-body")!.textContent).toContain("[bad](javascript:alert(1))");
  });
});

describe("header", () => {
  it("shows tokens before → after, the model, when, and entry links that post revealEntry", () => {
    const { document, posted } = show();
    expect(document.querySelector("h1")?.textContent).toBe("Compaction summary");
    expect(document.querySelector(".session-name")?.textContent).toBe("Refactor the parser");
    expect(document.querySelector(".tokens")?.textContent).toBe("123,456 → 4,321");
    expect(document.querySelector(".model")?.textContent).toBe("anthropic/claude-sonnet-4-5");
    expect(document.querySelector("time")?.getAttribute("datetime")).toBe("2025-05-01T10:00:00.000Z");
    const facts = texts(document, ".facts dt");
    expect(facts).toEqual(["Tokens", "Model", "When", "Kept from", "Entry"]);

    const [keptFrom, entry] = Array.from(document.querySelectorAll<HTMLButtonElement>(".entry-link"));
    expect(keptFrom!.textContent).toContain("beef0042");
    keptFrom!.click();
    entry!.click();
    expect(posted.slice(1)).toEqual([
      { type: "revealEntry", entryId: "beef0042" },
      { type: "revealEntry", entryId: "c0ffee01" },
    ]);
  });

  it("marks a summary our pi extension wrote inside pi (escaped text, after the model)", () => {
    const { document } = show(panelState({ origin: "in pi, by the pi-sessions extension (/compact)" }));
    expect(texts(document, ".facts dt")).toEqual(["Tokens", "Model", "Written", "When", "Kept from", "Entry"]);
    expect(document.querySelector(".origin")?.textContent).toBe("in pi, by the pi-sessions extension (/compact)");
  });

  it("names a digest summary and a branch summary's fromId; 'root' is not a link", () => {
    const { document } = show(
      panelState({
        kind: "branch_summary",
        model: "digest",
        firstKeptEntryId: undefined,
        fromId: "root",
        tokensBefore: undefined,
        tokensAfter: undefined,
        sessionName: undefined,
      }),
    );
    expect(document.querySelector("h1")?.textContent).toBe("Branch summary");
    expect(document.querySelector(".session-name")?.textContent).toBe("2025-05-01T10-00-00-000Z_abc.jsonl");
    expect(document.querySelector(".model")?.textContent).toBe("digest (no model)");
    expect(document.querySelector(".tokens")).toBeNull();
    expect(texts(document, ".facts dt")).toEqual(["Model", "When", "From", "Entry"]);
    expect(Array.from(document.querySelectorAll(".entry-link")).map((b) => b.textContent)).toEqual([
      "Reveal entry c0ffee01",
    ]);
  });

  it("marks a preview and says the entry is not written yet", () => {
    const { document } = show(panelState({ mode: "preview", entryId: undefined }));
    expect(document.querySelector("h1 .preview-badge")?.textContent).toBe("Preview: not applied yet");
    expect(document.querySelector(".facts")?.textContent).toContain("not in the session yet");
  });
});

describe("files-touched manifest", () => {
  const files = [
    file("/work/project/src/a.ts", { ops: "RE", open: true }),
    file("/work/project/src/b.ts", { ops: "W" }),
    file("/work/project/old.ts", { ops: "RD", deleted: true }),
    file("/etc/hosts", { displayPath: "/etc/hosts", ops: "R", outside: true }),
    file("/work/project/moved.ts", { ops: "M" }),
  ];

  it("is an accessible table: caption, column headers, label", () => {
    const { document } = show(panelState({ files }));
    const table = document.querySelector("table.manifest")!;
    expect(table.getAttribute("aria-label")).toBe("Files touched by the session");
    expect(table.querySelector("caption")?.textContent).toMatch(/^5 files\./);
    expect(Array.from(table.querySelectorAll("th")).map((th) => [th.textContent, th.getAttribute("scope")])).toEqual([
      ["Operations", "col"],
      ["File", "col"],
      ["Status", "col"],
    ]);
    expect(texts(table, "tbody .display-path")).toEqual([
      "src/a.ts",
      "src/b.ts",
      "old.ts",
      "/etc/hosts",
      "moved.ts",
    ]);
    expect(table.querySelector("tbody tr td.path")?.getAttribute("title")).toBe("/work/project/src/a.ts");
  });

  it("shows one badge per operation letter, with its name for screen readers", () => {
    const { document } = show(panelState({ files: [file("/work/project/x.ts", { ops: "RWEMD" })] }));
    const badges = Array.from(document.querySelectorAll(".ops .op"));
    expect(badges.map((b) => b.querySelector("[aria-hidden=true]")?.textContent)).toEqual(["R", "W", "E", "M", "D"]);
    expect(badges.map((b) => b.querySelector(".sr-only")?.textContent)).toEqual([
      "read",
      "written",
      "edited",
      "moved",
      "deleted",
    ]);
    expect(badges.map((b) => b.getAttribute("title"))).toEqual(["read", "written", "edited", "moved", "deleted"]);
  });

  it("marks open, deleted and outside files", () => {
    const { document } = show(panelState({ files }));
    const rows = Array.from(document.querySelectorAll<HTMLTableRowElement>("tbody tr"));
    const openMark = (row: HTMLTableRowElement) => row.querySelector<HTMLElement>(".status-open")!;

    expect(rows[0]!.classList.contains("is-open")).toBe(true);
    expect(rows[0]!.getAttribute("aria-current")).toBe("true");
    expect(openMark(rows[0]!).hidden).toBe(false);
    expect(openMark(rows[0]!).textContent).toBe("open");
    expect(rows[1]!.classList.contains("is-open")).toBe(false);
    expect(rows[1]!.hasAttribute("aria-current")).toBe(false);
    expect(openMark(rows[1]!).hidden).toBe(true);

    expect(rows[2]!.classList.contains("is-deleted")).toBe(true);
    expect(rows[2]!.getAttribute("aria-disabled")).toBeNull();
    expect(rows[2]!.getAttribute("tabindex")).toBe("0");
    expect(rows[2]!.querySelector(".status-deleted")?.textContent).toBe("deleted");
    expect(rows[1]!.getAttribute("tabindex")).toBe("0");

    expect(rows[3]!.classList.contains("is-outside")).toBe(true);
    expect(rows[3]!.querySelector(".status-outside")?.getAttribute("title")).toMatch(/asked before it opens/);
    expect(rows.filter((row) => row.classList.contains("is-outside"))).toHaveLength(1);
  });

  it("offers Open all modified only when a written/edited/moved file still exists", () => {
    const some = show(panelState({ files }));
    expect(some.document.querySelector<HTMLButtonElement>(".open-all-modified")!.disabled).toBe(false);
    void some.close();
    const none = show(
      panelState({ files: [file("/work/project/r.ts"), file("/work/project/gone.ts", { ops: "WD", deleted: true })] }),
    );
    expect(none.document.querySelector<HTMLButtonElement>(".open-all-modified")!.disabled).toBe(true);
  });

  it("says so when there are no files", () => {
    const { document } = show(panelState({ files: [] }));
    expect(document.querySelector("table")).toBeNull();
    expect(document.querySelector(".files .empty")?.textContent).toBe("No files recorded for this summary.");
  });
});
