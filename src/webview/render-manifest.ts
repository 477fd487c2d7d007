// The files-touched manifest as a table. Rows open their file (a preview tab
// unless Ctrl/Cmd/Alt is held); a deleted file's row shows its last content the session holds; open files
// are marked and the marks follow `tabsChanged` without rebuilding the table.
import { button, h, screenReaderText } from "./dom";
import { FILE_OPS, isChangedFile, isModifiedFile, type FileOp, type SummaryFile } from "./protocol";
import { showBidiControls } from "../core/text/bidi-controls";
import { counted } from "../core/text/counted";

export interface ManifestActions {
  openFile(path: string, preview: boolean): void;
  openAllModified(): void;
  showChanges(path: string): void;
}

const OP_NAMES: Record<FileOp, string> = {
  R: "read",
  W: "written",
  E: "edited",
  M: "moved",
  D: "deleted",
};

interface ManifestRow {
  file: SummaryFile;
  row: HTMLTableRowElement;
  openMark: HTMLElement;
}

function opsBadges(ops: string): HTMLElement {
  const cell = h("td", { className: "ops" });
  for (const op of FILE_OPS) {
    if (!ops.includes(op)) continue;
    cell.append(
      h(
        "span",
        { className: `op op-${op}`, attrs: { title: OP_NAMES[op] } },
        h("span", { text: op, attrs: { "aria-hidden": "true" } }),
        screenReaderText(OP_NAMES[op]),
      ),
    );
  }
  return cell;
}

function wantsPreview(event: MouseEvent | KeyboardEvent): boolean {
  return !(event.ctrlKey || event.metaKey || event.altKey);
}

export class FileManifest {
  readonly element: HTMLElement;
  private readonly rows: ManifestRow[] = [];

  constructor(files: readonly SummaryFile[], private readonly actions: ManifestActions) {
    const heading = h("h2", { text: "Files touched", attrs: { id: "files-heading" } });
    const modified = files.filter(isModifiedFile);
    const openAll = button("Open all modified", "secondary open-all-modified", () => actions.openAllModified());
    openAll.disabled = modified.length === 0;
    openAll.dataset.focusKey = "open-all-modified";
    openAll.setAttribute("title", `Open the written, edited or moved files that still exist (${modified.length})`);
    const top = h("div", { className: "section-heading" }, heading, openAll);
    this.element = h("section", { className: "files", attrs: { "aria-labelledby": "files-heading" } }, top);

    if (files.length === 0) {
      this.element.append(h("p", { className: "empty", text: "No files recorded for this summary." }));
      return;
    }
    const body = h("tbody");
    for (const file of files) body.append(this.createRow(file));
    const count = counted(files.length, "file");
    const table = h(
      "table",
      { className: "manifest", attrs: { "aria-label": "Files touched by the session" } },
      h("caption", {
        text: `${count}. Press Enter on a row to open the file in a preview tab; hold Ctrl, Cmd or Alt to keep the tab.`,
      }),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { text: "Operations", attrs: { scope: "col" } }),
          h("th", { text: "File", attrs: { scope: "col" } }),
          h("th", { text: "Status", attrs: { scope: "col" } }),
        ),
      ),
      body,
    );
    this.element.append(table);
  }

  /** Marks the rows whose file is open in an editor tab. */
  setOpenPaths(openPaths: ReadonlySet<string>): void {
    for (const entry of this.rows) {
      entry.file = { ...entry.file, open: openPaths.has(entry.file.path) };
      this.applyOpenMark(entry);
    }
  }

  private createRow(file: SummaryFile): HTMLTableRowElement {
    const status = h("td", { className: "file-status" });
    const openMark = h("span", { className: "badge status-open", text: "open" });
    status.append(openMark);
    if (file.deleted) status.append(h("span", { className: "badge status-deleted", text: "deleted" }));
    if (file.outside) {
      status.append(
        h("span", {
          className: "badge status-outside",
          text: "outside",
          attrs: { title: "Outside the workspace and the session folder: you will be asked before it opens" },
        }),
      );
    }
    if (isChangedFile(file)) {
      const changes = button("Show changes", "link show-changes", () => this.actions.showChanges(file.path));
      changes.setAttribute("title", `What the session did to ${showBidiControls(file.displayPath)}, in the diff editor`);
      changes.dataset.focusKey = `changes:${file.path}`;
      changes.addEventListener("click", (event) => event.stopPropagation());
      changes.addEventListener("keydown", (event) => event.stopPropagation());
      status.append(changes);
    }
    const path = h("td", { className: "path" }, h("span", { className: "display-path", text: file.displayPath }));
    path.setAttribute("title", showBidiControls(file.path));

    const row = h("tr", { className: "file-row" }, opsBadges(file.ops), path, status);
    if (file.outside) row.classList.add("is-outside");
    if (file.deleted) {
      // Deleted: the host shows its last content as the session holds it, or says why there is none.
      row.classList.add("is-deleted");
      row.setAttribute("title", `${showBidiControls(file.displayPath)} was deleted: open its last content as the session holds it`);
    }
    row.tabIndex = 0;
    row.dataset.focusKey = `file:${file.path}`;
    row.addEventListener("click", (event) => this.actions.openFile(file.path, wantsPreview(event)));
    row.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      this.actions.openFile(file.path, wantsPreview(event));
    });
    const entry: ManifestRow = { file, row, openMark };
    this.applyOpenMark(entry);
    this.rows.push(entry);
    return row;
  }

  private applyOpenMark(entry: ManifestRow): void {
    const open = entry.file.open;
    entry.row.classList.toggle("is-open", open);
    if (open) entry.row.setAttribute("aria-current", "true");
    else entry.row.removeAttribute("aria-current");
    entry.openMark.hidden = !open;
  }
}
