// pi appends "<read-files>…</read-files>" and "<modified-files>…</modified-files>"
// to its summaries (one path per line). They are not HTML (html is off), so a
// block rule turns one or more adjacent lists into a single collapsible
// "pi file lists" section instead of a paragraph of escaped tags.
import type { MarkdownIt } from "markdown-it";
import type { StateBlock } from "markdown-it";

export interface PiFileList {
  kind: "read" | "modified";
  paths: string[];
}

const LIST_TAGS: Record<string, PiFileList["kind"]> = {
  "<read-files>": "read",
  "<modified-files>": "modified",
};

const LIST_TITLES: Record<PiFileList["kind"], string> = {
  read: "Read",
  modified: "Modified",
};

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!);
}

/** Parses one list starting at `startLine`; returns it and the line after its closing tag. */
function parseList(state: StateBlock, startLine: number, endLine: number): { list: PiFileList; next: number } | undefined {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return undefined;
  const opening = lineText(state, startLine).trim();
  const kind = LIST_TAGS[opening];
  if (!kind) return undefined;
  const closing = `</${opening.slice(1)}`;
  const paths: string[] = [];
  for (let line = startLine + 1; line < endLine; line++) {
    if (state.isEmpty(line)) continue;
    if (state.sCount[line]! < state.blkIndent) return undefined;
    const text = lineText(state, line);
    if (text.trim() === closing) return { list: { kind, paths }, next: line + 1 };
    paths.push(text.trimEnd());
  }
  return undefined;
}

function piFileListsRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const first = parseList(state, startLine, endLine);
  if (!first) return false;
  if (silent) return true;

  const lists = [first.list];
  let next = first.next;
  for (;;) {
    const following = parseList(state, state.skipEmptyLines(next), endLine);
    if (!following) break;
    lists.push(following.list);
    next = following.next;
  }

  const token = state.push("pi_file_lists", "details", 0);
  token.block = true;
  token.map = [startLine, next];
  token.meta = { lists };
  state.line = next;
  return true;
}

export function piFileListsPlugin(md: MarkdownIt): void {
  md.block.ruler.before("fence", "pi_file_lists", piFileListsRule, {
    alt: ["paragraph", "reference", "blockquote", "list"],
  });
  md.renderer.rules.pi_file_lists = (tokens, idx) => {
    const lists = (tokens[idx]!.meta?.lists ?? []) as PiFileList[];
    const escape = md.utils.escapeHtml;
    const sections = lists.map((list) => {
      const items = list.paths.map((path) => `<li><code>${escape(path)}</code></li>`).join("");
      return (
        `<p class="pi-file-list-title">${LIST_TITLES[list.kind]} (${list.paths.length})</p>` +
        `<ul class="pi-file-list pi-file-list-${list.kind}">${items}</ul>`
      );
    });
    return `<details class="pi-file-lists"><summary>pi file lists</summary>${sections.join("")}</details>\n`;
  };
}
