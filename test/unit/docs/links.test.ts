// The README is the front door and docs/ holds the detail: every relative link and image in them
// must reach a file of the repository (and a heading, when it names one), and the README stays
// short enough to read.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "../../..");
const README_LIMIT = 25 * 1024;

interface Link {
  line: number;
  target: string;
}

/** Markdown without fenced code blocks and inline code spans (links there are not links). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, "");
  });
}

function linksOf(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((line, i) => {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: i + 1, target: m[1]! });
    for (const m of line.matchAll(/<img\s[^>]*src="([^"]+)"/g)) links.push({ line: i + 1, target: m[1]! });
  });
  return links;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/<[^>]+>/g, "")
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

/** Problems with the relative links of one markdown file, as `file:line: target — why`. */
function brokenLinks(file: string, text: string, readText: (path: string) => string | undefined, isFile: (path: string) => boolean): string[] {
  const problems: string[] = [];
  for (const { line, target } of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // http:, mailto:, data: …
    const hash = target.indexOf("#");
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const where = `${relative(root, file)}:${line}: ${target}`;
    const path = pathPart === "" ? file : resolve(dirname(file), pathPart.split("?")[0]!);
    if (!path.startsWith(root)) {
      problems.push(`${where} — outside the repository`);
      continue;
    }
    if (!isFile(path) && !(pathPart.endsWith("/") || existsSync(path))) {
      problems.push(`${where} — no such file`);
      continue;
    }
    if (anchor !== undefined && anchor !== "" && path.endsWith(".md")) {
      const targetText = readText(path);
      if (targetText !== undefined && !anchorsOf(targetText).has(anchor)) problems.push(`${where} — no heading #${anchor}`);
    }
  }
  return problems;
}

function readIfFile(path: string): string | undefined {
  return existsSync(path) && statSync(path).isFile() ? readFileSync(path, "utf8") : undefined;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

const docsFiles = [join(root, "README.md"), ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => join(root, "docs", f))];

describe("README and docs/", () => {
  it("the checker finds a missing file, a missing image, a missing heading, and passes good links", () => {
    const file = join(root, "README.md");
    const text = [
      "# Top",
      "## The `pi-sessions` CLI",
      "[ok](docs/development.md) [ok](#top) [ok](#the-pi-sessions-cli) [web](https://example.com/x)",
      "![missing](test/vscode/screenshots/readme/no-such.png)",
      "[gone](docs/no-such.md) [anchor](#nowhere) [other](docs/development.md#no-such-heading)",
      "```",
      "[in code](no-such-file.md)",
      "```",
    ].join("\n");
    const problems = brokenLinks(file, text, (p) => (p === file ? text : readIfFile(p)), isFile);
    expect(problems).toEqual([
      "README.md:4: test/vscode/screenshots/readme/no-such.png — no such file",
      "README.md:5: docs/no-such.md — no such file",
      "README.md:5: #nowhere — no heading #nowhere",
      "README.md:5: docs/development.md#no-such-heading — no heading #no-such-heading",
    ]);
  });

  it.each(docsFiles.map((f) => [relative(root, f), f]))("every relative link and image in %s resolves", (_name, file) => {
    const text = readFileSync(file, "utf8");
    if (file.endsWith("README.md")) expect(linksOf(text).length).toBeGreaterThan(20);
    expect(brokenLinks(file, text, readIfFile, isFile)).toEqual([]);
  });

  it("the README is a front door: under 25 KB (details go to docs/)", () => {
    const size = statSync(join(root, "README.md")).size;
    expect(size, `README.md is ${size} bytes`).toBeLessThan(README_LIMIT);
  });
});
