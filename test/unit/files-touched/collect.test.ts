import { beforeAll, describe, expect, it } from "vitest";
import { collectFilesTouched, initFilesTouched } from "../../../src/core/files-touched";
import { call, rawAssistant, rawResult, result, tool, userBash } from "./session-builder";
import type { SessionEntry } from "../../../src/core/session/format/types";

beforeAll(() => initFilesTouched());

function manifest(entries: SessionEntry[], cwd = "/work/repo"): [string, string][] {
  return collectFilesTouched(entries, { cwd }).files.map((f) => [f.displayPath, f.ops]);
}

describe("pi's own tools", () => {
  it("read/write/edit give R/W/E, newest first, one line per file", () => {
    const entries = [
      ...tool("read", { path: "src/a.ts" }),
      ...tool("edit", { path: "src/a.ts", edits: [{ oldText: "x", newText: "y" }] }),
      ...tool("write", { path: "/work/repo/notes.md", content: "hi" }),
      ...tool("edit", { path: "old-style.ts", oldText: "a", newText: "b" }),
    ];
    expect(manifest(entries)).toEqual([["old-style.ts", "E"], ["notes.md", "W"], ["src/a.ts", "RE"]]);
  });

  it("a failed read/write/edit did nothing", () => {
    expect(manifest([...tool("edit", { path: "a.ts", edits: [] }, true), ...tool("read", { path: "missing.ts" }, true)])).toEqual([]);
  });

  it("a call without a result (interrupted session) still counts", () => {
    expect(manifest([call("write", { path: "half.ts", content: "" })])).toEqual([["half.ts", "W"]]);
  });

  it("pi's @ prefix and paths outside the cwd", () => {
    expect(manifest([...tool("read", { path: "@src/x.ts" }), ...tool("read", { path: "/etc/hosts" })])).toEqual([
      ["/etc/hosts", "R"], ["src/x.ts", "R"],
    ]);
  });

  it("grep names a file only when its path is one file; find and ls name none", () => {
    const entries = [
      ...tool("grep", { pattern: "x", path: "src/one.ts" }),
      ...tool("grep", { pattern: "x", path: "src" }),
      ...tool("find", { pattern: "*.ts", path: "src" }),
      ...tool("ls", { path: "src" }),
    ];
    expect(manifest(entries)).toEqual([["src/one.ts", "R"]]);
  });
});

describe("bash", () => {
  it("the bash tool's command is analysed; a failed command keeps its effects", () => {
    const entries = [...tool("bash", { command: "sed -i 's/a/b/' x.ts && npm test" }, true), ...tool("bash", { command: "echo x > y.txt" })];
    expect(manifest(entries)).toEqual([["y.txt", "W"], ["x.ts", "E"]]);
  });

  it("the user's ! commands (bashExecution) count too, even when they fail", () => {
    expect(manifest([userBash("rm -f stale.lock", 1)])).toEqual([["stale.lock", "D"]]);
  });

  it("moves carry letters across calls and tools", () => {
    const entries = [...tool("write", { path: "draft.md", content: "" }), ...tool("bash", { command: "git mv draft.md docs/final.md" })];
    expect(manifest(entries)).toEqual([["docs/final.md", "WM"], ["draft.md", "D"]]);
  });

  it("a move into a directory the session already knows lands inside it", () => {
    const entries = [...tool("read", { path: "lib/util.ts" }), ...tool("bash", { command: "mv helper.ts lib" })];
    expect(manifest(entries)).toEqual([["lib/helper.ts", "M"], ["helper.ts", "D"], ["lib/util.ts", "R"]]);
  });

  it("a move of a known directory moves the files under it", () => {
    const entries = [...tool("write", { path: "old/a.ts", content: "" }), ...tool("bash", { command: "mv old new" })];
    expect(manifest(entries)).toEqual([["new/a.ts", "WM"], ["old/a.ts", "D"]]);
  });

  it("a recursive delete of a known directory deletes the files under it", () => {
    const entries = [...tool("write", { path: "tmp/x.json", content: "" }), ...tool("bash", { command: "rm -rf tmp" })];
    expect(manifest(entries)).toEqual([["tmp/x.json", "WD"]]);
  });

  it("parse failures come back as diagnostics with the entry id", () => {
    const entries = tool("bash", { command: 'echo "open' });
    const out = collectFilesTouched(entries, { cwd: "/work/repo" });
    expect(out.files).toEqual([]);
    expect(out.diagnostics.map((d) => [d.code, d.entryId])).toEqual([["bash-parse-error", entries[0]!.id]]);
  });
});

describe("ids as other agents spell them", () => {
  it("tool_use/tool_use_id and function_call/call_id with JSON-string arguments", () => {
    const entries = [
      rawAssistant([{ type: "tool_use", id: "toolu_1", name: "edit", input: { path: "a.ts" } }]),
      rawResult({ tool_use_id: "toolu_1", isError: true }),
      rawAssistant([{ type: "function_call", call_id: "fc_2", name: "write", arguments: JSON.stringify({ path: "b.ts" }) }]),
      rawResult({ call_id: "fc_2", isError: false }),
    ];
    expect(manifest(entries)).toEqual([["b.ts", "W"]]);
  });
});

describe("RepoPrompt", () => {
  it("rp read_file/apply_edits/file_actions", () => {
    const entries = [
      ...tool("rp", { call: "read_file", args: { path: "repo:src/a.ts:10-40" } }),
      ...tool("rp", { call: "apply_edits", args: { path: "src/a.ts" } }),
      ...tool("rp", { call: "file_actions", args: { action: "create", path: "src/new.ts" } }),
      ...tool("rp", { call: "file_actions", args: { action: "move", path: "src/new.ts", new_path: "src/moved.ts" } }),
      ...tool("rp", { call: "file_actions", args: { action: "delete", path: "src/gone.ts" } }),
    ];
    expect(manifest(entries)).toEqual([["src/gone.ts", "D"], ["src/moved.ts", "WM"], ["src/new.ts", "D"], ["src/a.ts", "RE"]]);
  });

  it("rp_exec command strings", () => {
    const entries = [
      ...tool("rp_exec", { cmd: 'call read_file {"path":"README.md"}' }),
      ...tool("rp_exec", { cmd: "apply_edits path=src/x.ts" }),
      ...tool("rp_exec", { cmd: "file move src/x.ts src/y.ts && file delete tmp.txt" }),
      ...tool("rp_exec", { cmd: "read docs/guide.md:1-20" }),
    ];
    expect(manifest(entries)).toEqual([["docs/guide.md", "R"], ["tmp.txt", "D"], ["src/y.ts", "EM"], ["src/x.ts", "D"], ["README.md", "R"]]);
  });

  it("an unknown RepoPrompt root is kept as Root:path", () => {
    expect(manifest(tool("rp", { call: "read_file", args: { path: "other-repo:lib/z.ts" } }))).toEqual([["other-repo:lib/z.ts", "R"]]);
  });
});

describe("Codex", () => {
  it("exec_command with workdir, string or argv", () => {
    const entries = [
      ...tool("exec_command", { cmd: "touch a.txt", workdir: "pkg" }),
      ...tool("exec_command", { cmd: ["bash", "-lc", "rm b.txt"], workdir: "/work/repo/pkg" }),
      ...tool("shell", { command: ["touch", "c d.txt"] }),
    ];
    expect(manifest(entries)).toEqual([["c d.txt", "W"], ["pkg/b.txt", "D"], ["pkg/a.txt", "W"]]);
  });

  it("apply_patch needs a successful result", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: src/new.ts",
      "+export {};",
      "*** Update File: src/old.ts",
      "*** Move to: src/renamed.ts",
      "@@",
      "-a",
      "+b",
      "*** Delete File: src/dead.ts",
      "*** End Patch",
    ].join("\n");
    expect(manifest([...tool("apply_patch", { input: patch })])).toEqual([
      ["src/dead.ts", "D"], ["src/renamed.ts", "EM"], ["src/old.ts", "D"], ["src/new.ts", "W"],
    ]);
    expect(manifest([...tool("apply_patch", { input: patch }, true)])).toEqual([]);
    expect(manifest([call("apply_patch", { input: patch })])).toEqual([]);
  });

  it("apply_patch through a shell argv", () => {
    const id = "c_argv";
    const entries = [call("shell", { command: ["apply_patch", "*** Begin Patch\n*** Update File: x.py\n*** End Patch"] }, id), result(id)];
    expect(manifest(entries)).toEqual([["x.py", "E"]]);
  });
});

describe("per span", () => {
  it("collecting a sub-range gives that range's files only", () => {
    const entries = [...tool("read", { path: "early.ts" }), ...tool("write", { path: "late.ts", content: "" })];
    expect(manifest(entries.slice(2))).toEqual([["late.ts", "W"]]);
    expect(manifest(entries.slice(0, 2))).toEqual([["early.ts", "R"]]);
  });

  it("unknown entry types and roles are skipped, never fatal", () => {
    const odd = [
      { type: "context_edit", id: "x1", parentId: null, timestamp: "", targetId: "y" },
      { type: "message", id: "x2", parentId: null, timestamp: "", message: { role: "system", content: "hi" } },
      { type: "message", id: "x3", parentId: null, timestamp: "", message: null },
      { type: "message", id: "x4", parentId: null, timestamp: "", message: { role: "assistant", content: [null, 3, { type: "toolCall" }] } },
    ] as unknown as SessionEntry[];
    expect(manifest(odd)).toEqual([]);
  });
});
