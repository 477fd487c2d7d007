// Plain text inside a hover's markdown (vscode.MarkdownString), shown as it is:
// markdown syntax escaped, spaces left as spaces. MarkdownString.appendText
// turns every space into &nbsp;, which makes a whole preview one unbreakable
// word: the hover then wraps it anywhere, mid-word. No vscode here.

const SYNTAX = /[\\`*_{}[\]()#+\-.!|<>~&=:]/g;

export function markdownText(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim().replace(SYNTAX, "\\$&"))
    .join("  \n");
}
