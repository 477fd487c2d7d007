// The digest (no model): layout, verbatim requests, counts and errors derived
// by hand from small message lists, budgets, and determinism.

import { describe, expect, it } from "vitest";
import { buildDigest, DIGEST_FIRST_LINE } from "../../../src/core/summarize/digest.js";
import type { ContextMessage } from "../../../src/core/context/context-message.js";

const u = (text: string): ContextMessage => ({ role: "user", content: text, timestamp: 1 });
const a = (text: string, calls: { id: string; name: string; arguments: Record<string, unknown> }[] = []): ContextMessage =>
  ({ role: "assistant", content: [...(text ? [{ type: "text", text }] : []), ...calls.map((c) => ({ type: "toolCall", ...c }))], provider: "p", model: "m", timestamp: 2 }) as ContextMessage;
const r = (id: string, name: string, text: string, isError = false): ContextMessage => ({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], isError, timestamp: 3 });

const SECTIONS = ["## Goal", "## Constraints & Preferences", "## Progress", "### Done", "### In Progress", "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"];

const messages: ContextMessage[] = [
  u("  Add a --json flag to `todo list`.\n\nKeep the text output.  "),
  a("Looking.", [
    { id: "1", name: "read", arguments: { path: "src/cli.ts" } },
    { id: "2", name: "bash", arguments: { command: "npm test" } },
  ]),
  r("1", "read", "source"),
  r("2", "bash", "RUN v1.6\n FAIL test/list.test.ts > json\nError: expected [] got undefined", true),
  u("Use [] for an empty list."),
  a("", [{ id: "3", name: "bash", arguments: { command: "npm test" } }]),
  r("3", "bash", "RUN v1.6\n FAIL test/list.test.ts > json\nError: expected [] got undefined", true),
  { role: "bashExecution", command: "git status", output: "fatal: not a git repository", exitCode: 128, cancelled: false, truncated: false, timestamp: 4 },
  a("## Result\nAll green now.\n\nNext I would add docs."),
];

describe("buildDigest", () => {
  const digest = buildDigest({ messages, files: [{ displayPath: "src/cli.ts", ops: "RE" }, { displayPath: "README.md", ops: "R" }] });

  it("starts with the honest first line, then pi's sections in pi's order", () => {
    expect(digest.split("\n")[0]).toBe(DIGEST_FIRST_LINE);
    const headings = digest.split("\n").filter((l) => SECTIONS.includes(l));
    expect(headings).toEqual(SECTIONS);
  });

  it("quotes the first request as the goal, and later ones as constraints, verbatim (trimmed)", () => {
    const goal = digest.split("## Goal\n")[1]!.split("\n\n## Constraints")[0];
    expect(goal).toBe("Add a --json flag to `todo list`.\n\nKeep the text output.");
    expect(digest).toContain("The user's later messages, verbatim:\n- Use [] for an empty list.\n");
  });

  it("counts tool calls per tool and shell commands with their failures", () => {
    expect(digest).toContain("- [x] 3 tool calls: bash ×2, read ×1; 2 failed");
    // two bash tool calls (both failed) + one user `!git status` (exit 128)
    expect(digest).toContain("- [x] 3 shell commands run (3 failed)");
    expect(digest).toContain("- [x] Files changed: src/cli.ts (RE)");
    expect(digest).not.toContain("README.md (R)");
  });

  it("lists each error once, by its first line that reads like an error", () => {
    const blocked = digest.split("### Blocked\n")[1]!.split("\n\n")[0]!.split("\n");
    expect(blocked).toEqual(["- bash: FAIL test/list.test.ts > json", "- $ git status: fatal: not a git repository"]);
  });

  it("keeps the last assistant text as the current state, quoted so its headings stay inside", () => {
    expect(digest).toContain("> ## Result\n> All green now.\n>\n> Next I would add docs.");
    expect(digest).toContain("- [ ] Last request: Use [] for an empty list.");
  });

  it("is byte-identical for the same input, and differs for another span", () => {
    expect(buildDigest({ messages, files: [{ displayPath: "src/cli.ts", ops: "RE" }, { displayPath: "README.md", ops: "R" }] })).toBe(digest);
    expect(buildDigest({ messages: messages.slice(0, 4) })).not.toBe(digest);
  });

  it("keeps the newest requests within the budget and says how many were left out", () => {
    const many = [u("goal"), ...["one", "two", "three", "four"].map((w) => u(`${w} ${"x".repeat(20)}`))];
    const d = buildDigest({ messages: many, limits: { userChars: 60 } });
    expect(d).toContain("- (2 earlier requests left out to keep this digest short.)\n- three xxxxxxxxxxxxxxxxxxxx\n- four xxxxxxxxxxxxxxxxxxxx");
    expect(d).not.toContain("- one");
  });

  it("cuts a single request that alone is over the budget", () => {
    const d = buildDigest({ messages: [u("goal"), u("y".repeat(100))], limits: { userChars: 10 } });
    expect(d).toContain(`- ${"y".repeat(10)}… [90 more characters]`);
  });

  it("caps the distinct errors listed", () => {
    const errs = Array.from({ length: 5 }, (_, i) => r(String(i), "bash", `error ${i}`, true));
    const d = buildDigest({ messages: [u("g"), ...errs], limits: { errors: 2 } });
    expect(d).toContain("- bash: error 0\n- bash: error 1\n- … and 3 more distinct errors");
  });

  it("continues a previous summary: its goal, and the summary itself quoted without its manifest", () => {
    const previous = "## Goal\nShip v2.\n\n## Progress\n- [x] a\n\n---\n\n## Files touched (cumulative)\nR=read, W=write, E=edit, M=move/rename, D=delete\n\n```text\nR  a.ts\n```";
    const d = buildDigest({ messages: [u("Next part.")], previousSummary: previous });
    expect(d).toContain("## Goal\nShip v2.\n\n(From the previous summary.)");
    expect(d).toContain("- Next part.");
    expect(d).toContain("> ## Goal\n> Ship v2.\n>\n> ## Progress\n> - [x] a");
    expect(d).not.toContain("Files touched (cumulative)");
  });

  it("says so when there is no request or answer", () => {
    const d = buildDigest({ messages: [] });
    expect(d).toContain("## Goal\n(No user request in this part of the session.)");
    expect(d).toContain("- (No assistant answer in this part of the session.)");
    expect(d).toContain("### Blocked\n- (No errors seen.)");
  });
});
