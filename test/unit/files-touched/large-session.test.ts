// The manifest of pi's own large test session (v1, 192 bash calls), loaded
// with pi's parser and migration (the oracle), then collected by ours.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { migrateSessionEntries, parseSessionEntries } from "@mariozechner/pi-coding-agent";
import { beforeAll, describe, expect, it } from "vitest";
import { collectFilesTouched, initFilesTouched, type FilesTouched } from "../../../src/core/files-touched";
import type { AssistantMessage, SessionEntry, ToolResultMessage } from "../../../src/core/session/format/types";

const FIXTURE = join(__dirname, "..", "..", "fixtures", "pi-mono", "large-session.jsonl");
const CWD = "/Users/badlogic/workspaces/pi-mono";

let entries: SessionEntry[];
let manifest: FilesTouched;
const opsOf = (displayPath: string) => manifest.files.find((f) => f.displayPath === displayPath)?.ops;

beforeAll(async () => {
  await initFilesTouched();
  const all = parseSessionEntries(readFileSync(FIXTURE, "utf8")) as unknown as { type: string; cwd?: string }[];
  migrateSessionEntries(all as never);
  expect(all[0]!.cwd).toBe(CWD);
  entries = all.filter((e) => e.type !== "session") as unknown as SessionEntry[];
  manifest = collectFilesTouched(entries, { cwd: CWD });
});

describe("large-session.jsonl", () => {
  it("has the tool calls the fixture README lists", () => {
    const counts: Record<string, number> = {};
    for (const e of entries) {
      if (e.type !== "message" || e.message.role !== "assistant") continue;
      for (const c of e.message.content as { type: string; name?: string }[]) if (c.type === "toolCall") counts[c.name!] = (counts[c.name!] ?? 0) + 1;
    }
    expect(counts).toMatchObject({ read: 50, edit: 146, write: 3, bash: 192 });
  });

  it("lists every file pi's read/write/edit calls name, with their letter", () => {
    const failed = new Set<string>();
    for (const e of entries) {
      if (e.type !== "message" || e.message.role !== "toolResult") continue;
      const r = e.message as ToolResultMessage;
      if (r.isError) failed.add(r.toolCallId);
    }
    let checked = 0;
    for (const e of entries) {
      if (e.type !== "message" || e.message.role !== "assistant") continue;
      for (const c of (e.message as AssistantMessage).content) {
        if (c.type !== "toolCall" || !["read", "write", "edit"].includes(c.name) || failed.has(c.id)) continue;
        const absolute = resolve(CWD, String(c.arguments.path));
        const display = absolute.startsWith(`${CWD}/`) ? absolute.slice(CWD.length + 1) : absolute;
        const letter = { read: "R", write: "W", edit: "E" }[c.name as "read" | "write" | "edit"];
        expect(opsOf(display), `${c.name} ${c.arguments.path}`).toContain(letter);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  // Bash calls read by hand (numbers are their order among the 192 bash calls).
  it("lists what a hand-checked sample of its bash calls touched", () => {
    const sample: Record<string, string> = {
      // #15 sed -i '' 's/new Editor()/…/g' packages/tui/test/editor.test.ts (BSD sed: '' is the suffix)
      "packages/tui/test/editor.test.ts": "E",
      // #17, #18, #46, #47 sed -i '' … markdown.test.ts; #16 grep, #28 awk read it
      "packages/tui/test/markdown.test.ts": "RE",
      // #1, #8 grep -n "chalk…" packages/coding-agent/src/tui/tui-renderer.ts
      "packages/coding-agent/src/tui/tui-renderer.ts": "R",
      // #21 grep -A 3 … packages/tui/src/wrap-ansi.ts
      "packages/tui/src/wrap-ansi.ts": "R",
      // #81 grep … packages/coding-agent/src/theme/dark.json; #127 cp dark.json ~/.pi/agent/themes/test.json
      "packages/coding-agent/src/theme/dark.json": "R",
      // #161 cp packages/coding-agent/src/theme/light.json ~/.pi/agent/themes/custom-light.json
      "packages/coding-agent/src/theme/light.json": "R",
      // #175 head -50 packages/coding-agent/CHANGELOG.md
      "packages/coding-agent/CHANGELOG.md": "R",
      // #176 cat package.json | grep -A 5 "scripts"
      "package.json": "R",
      // #189 grep … packages/tui/dist/index.d.ts
      "packages/tui/dist/index.d.ts": "R",
      // #152 cp … ~/.pi/agent/themes/nord.json, #154 rm it (pi's read/edit also named it as ~/…)
      "~/.pi/agent/themes/nord.json": "WD",
    };
    for (const [path, letters] of Object.entries(sample)) {
      for (const letter of letters) expect(opsOf(path), `${path} ${letter}`).toContain(letter);
    }
    // Files only bash touched: the letters are exact.
    const bashOnly: Record<string, string> = {
      // #29 cd packages/tui/test && cat > /tmp/fix-markdown.sed << 'EOF' … (body is data)
      "/tmp/fix-markdown.sed": "W",
      // #30, #36, #40 cat > /tmp/fix_markdownN.py << 'EOF' … EOF; python3 /tmp/fix_markdownN.py (the script's own edits are unknown)
      "/tmp/fix_markdown.py": "W",
      "/tmp/fix_markdown2.py": "W",
      "/tmp/fix_markdown3.py": "W",
      // #127 cp … ~/.pi/agent/themes/test.json, #131 rm ~/.pi/agent/themes/test.json
      "~/.pi/agent/themes/test.json": "WD",
      // #139 cp $(npm root -g)/… custom.json, #140 and #156 cp … custom.json, #160 rm custom.json
      "~/.pi/agent/themes/custom.json": "WD",
      // #161 cp … custom-light.json; #169 cp … custom-dark.json
      "~/.pi/agent/themes/custom-light.json": "W",
      "~/.pi/agent/themes/custom-dark.json": "W",
    };
    for (const [path, ops] of Object.entries(bashOnly)) expect(opsOf(path), path).toBe(ops);
  });

  it("names nothing for recursive greps, globs, builds and git commands", () => {
    // #23 grep -r … packages/tui/src, #11 tsc … src/**/*.ts, #13 ls packages/tui/test/*.ts, #179 git add .
    for (const path of ["packages/tui/src", "src/**/*.ts", "packages/tui/test/*.ts", "."]) expect(opsOf(path)).toBeUndefined();
    expect(manifest.diagnostics).toEqual([]);
  });
});
