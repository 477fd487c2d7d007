// GitHub-style task items ("- [x] done", "- [ ] to do") as disabled
// checkboxes, done on markdown-it's tokens after inline parsing.
import type { MarkdownIt } from "markdown-it";
import type { StateCore, Token } from "markdown-it";

const TASK_MARKER = /^\[([ xX])\](?:\s+|$)/;

function addClass(token: Token, className: string): void {
  const classes = String(token.attrGet("class") ?? "").split(" ");
  if (!classes.includes(className)) token.attrJoin("class", className);
}

function enclosingList(tokens: Token[], itemIndex: number): Token | undefined {
  const level = tokens[itemIndex]!.level - 1;
  for (let i = itemIndex - 1; i >= 0; i--) {
    const token = tokens[i]!;
    if (token.level === level && (token.type === "bullet_list_open" || token.type === "ordered_list_open")) {
      return token;
    }
  }
  return undefined;
}

function markTaskItems(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== "inline" || tokens[i - 1]!.type !== "paragraph_open") continue;
    if (tokens[i - 2]!.type !== "list_item_open") continue;
    const first = inline.children?.[0];
    if (!first || first.type !== "text") continue;
    const marker = TASK_MARKER.exec(first.content);
    if (!marker) continue;

    first.content = first.content.slice(marker[0].length);
    const checkbox = new state.Token("task_checkbox", "input", 0);
    checkbox.meta = { checked: marker[1] !== " " };
    inline.children!.unshift(checkbox);
    addClass(tokens[i - 2]!, "task-list-item");
    const list = enclosingList(tokens, i - 2);
    if (list) addClass(list, "contains-task-list");
  }
}

export function taskListsPlugin(md: MarkdownIt): void {
  md.core.ruler.after("text_join", "task_lists", markTaskItems);
  md.renderer.rules.task_checkbox = (tokens, idx) => {
    const checked = tokens[idx]!.meta?.checked === true;
    const label = checked ? "done" : "not done";
    return `<input type="checkbox" class="task-list-item-checkbox" disabled${checked ? " checked" : ""} aria-label="${label}"> `;
  };
}
