// Exports of a branch: Markdown that round-trips the message texts, a JSONL
// clone that pi 0.73.1's SessionManager opens with the same context (and the
// labels), offline HTML with everything escaped, secrets flagged and redacted,
// and the CLI's `export` command.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { entryMarker, exportSession, findSecrets } from "../../../src/core/export";
import { contentText } from "../../../src/core/reader";
import { openSessionSync, sessionFromBytes } from "../../../src/core/session/open/open-session";
import { showBidiControls } from "../../../src/core/text/bidi-controls";
import { cli } from "../cli/run-cli";
import { assistant, conversation, header, jsonl, label, toolResult, user } from "../reader/support/session-text";

const FIXTURE = fileURLToPath(new URL("../../fixtures/pi-mono/before-compaction.jsonl", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pi-sessions-export-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sections of an exported Markdown file, by entry id: the text after the heading line. */
function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = markdown.split(/\n<!-- entry ([^ ]+) -->\n/);
  for (let i = 1; i < parts.length; i += 2) {
    const body = parts[i + 1]!;
    out.set(decodeURIComponent(parts[i]!), body.slice(body.indexOf("\n") + 1).replace(/^\n/, "").replace(/\n+$/, ""));
  }
  return out;
}

describe("Markdown", () => {
  const session = openSessionSync(FIXTURE);
  const markdown = exportSession(session, { leafId: session.index.leafId, format: "md", redact: false }).text;
  const bySection = sections(markdown);

  it("has one marked section per entry of the branch", () => {
    expect([...bySection.keys()]).toEqual(session.pathTo().map((e) => e.id));
    for (const entry of session.pathTo()) expect(markdown).toContain(entryMarker(entry.id));
  });

  it("round-trips every user message's text and every assistant text part", () => {
    let checked = 0;
    for (const entry of session.pathTo()) {
      if (entry.type !== "message") continue;
      const message = entry.message as { role: string; content: unknown };
      const section = bySection.get(entry.id)!;
      if (message.role === "user") {
        expect(section.trim()).toBe(showBidiControls(contentText(message.content).text).trim());
        checked++;
      } else if (message.role === "assistant" && Array.isArray(message.content)) {
        for (const part of message.content as { type: string; text?: string }[]) {
          if (part.type === "text" && part.text?.trim()) {
            expect(section).toContain(showBidiControls(part.text));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("tool output is folded in <details> with a fence longer than any backticks in it", () => {
    const lines = [header(), user("u", null, "go"), assistant("a", "u", "", [{ id: "c", name: "bash", arguments: { command: "cat x" } }]), toolResult("r", "a", "c", "bash", "has ``` and ```` inside")];
    const md = exportSession(sessionFromBytes(new TextEncoder().encode(jsonl(lines))), { leafId: "r", format: "md", redact: false }).text;
    const section = sections(md).get("r")!;
    expect(section).toMatch(/^<details><summary>bash ok<\/summary>\n\n`````text\nhas ``` and ```` inside\n`````\n\n<\/details>$/);
  });
});

describe("JSONL clone", () => {
  it("pi's SessionManager opens it with the same context and the labels of the branch", () => {
    const lines = conversation(4);
    lines.push(label("l1", "b3", "a1", "first read"), user("u9", "l1", "and now?"));
    // A label set from another branch, on an entry of ours.
    lines.push(user("x1", "b1", "another branch"), label("l2", "x1", "u2", "from elsewhere"));
    const source = join(dir, "source.jsonl");
    writeFileSync(source, jsonl(lines));
    const session = openSessionSync(source);
    const leaf = "u9";
    const clone = join(dir, "clone.jsonl");
    writeFileSync(clone, exportSession(session, { leafId: leaf, format: "jsonl", redact: false }).text);

    const original = SessionManager.open(source);
    original.branch(leaf);
    const copy = SessionManager.open(clone);
    expect(copy.buildSessionContext()).toEqual(original.buildSessionContext());
    expect(copy.getLabel("a1")).toBe("first read");
    expect(copy.getLabel("u2")).toBe("from elsewhere");
    expect(copy.getHeader()).toMatchObject({ type: "session", version: 3, cwd: "/work/project", parentSession: source });
    expect(copy.getEntries().some((e: { id: string }) => e.id === "x1")).toBe(false);
    // The branch's lines are copied byte for byte.
    const cloneLines = readFileSync(clone, "utf8").split("\n");
    for (const id of ["u0", "a0", "r0", "u9"]) expect(cloneLines).toContain(session.rawLine(id));
  });

  it("the pi fixture's branch (a migrated v1 file) opens in pi with the same context", () => {
    // pi's SessionManager.open migrates a v1 file in place: it gets a copy.
    const source = join(dir, "fixture-v1.jsonl");
    writeFileSync(source, readFileSync(FIXTURE));
    const session = openSessionSync(source);
    const clone = join(dir, "fixture-clone.jsonl");
    writeFileSync(clone, exportSession(session, { leafId: session.index.leafId, format: "jsonl", redact: false }).text);
    expect(SessionManager.open(clone).buildSessionContext()).toEqual(SessionManager.open(source).buildSessionContext());
  });
});

describe("secrets", () => {
  const OPENAI = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
  const AWS = "AKIAIOSFODNN7EXAMPLE";
  const lines = [
    header(),
    user("u", null, "show me the env"),
    assistant("a", "u", "", [{ id: "c", name: "read", arguments: { path: ".env" } }]),
    toolResult("r", "a", "c", "read", `DATABASE_PASSWORD=hunter2hunter2\nOPENAI_API_KEY=${OPENAI}\nPORT=8080\n`),
    assistant("b", "r", `Your AWS key ${AWS} is exposed.`),
  ];
  const session = sessionFromBytes(new TextEncoder().encode(jsonl(lines)), join(dir, "secret.jsonl"));

  it("are counted by kind", () => {
    expect(findSecrets(session.pathTo())).toEqual({ count: 3, kinds: { ".env secret": 1, "OpenAI API key": 1, "AWS access key id": 1 } });
  });

  it("redacted exports hold none of them, in every format; the redacted clone still opens in pi", () => {
    for (const format of ["md", "html", "jsonl"] as const) {
      const result = exportSession(session, { leafId: "b", format, redact: true });
      expect(result.secrets.count).toBe(3);
      for (const secret of [OPENAI, AWS, "hunter2hunter2"]) expect(result.text.includes(secret), `${format} ${secret}`).toBe(false);
      expect(result.text).toContain("[redacted: OpenAI API key]");
      expect(result.text).toContain("PORT=8080");
    }
    const clone = join(dir, "redacted.jsonl");
    writeFileSync(clone, exportSession(session, { leafId: "b", format: "jsonl", redact: true }).text);
    expect(SessionManager.open(clone).buildSessionContext().messages).toHaveLength(4);
  });

  it("without redaction they stay (the user chose so)", () => {
    expect(exportSession(session, { leafId: "b", format: "md", redact: false }).text).toContain(OPENAI);
  });
});

describe("HTML", () => {
  const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)> "quoted" & \u202Etxt.exe <a href="javascript:x">y</a>';
  const lines = [header(), user("u", null, hostile), assistant("a", "u", hostile, [{ id: "c", name: "read", arguments: { path: `src/\u202E${hostile}` } }])];
  const html = exportSession(sessionFromBytes(new TextEncoder().encode(jsonl(lines))), { leafId: "a", format: "html", redact: false }).text;

  const tags = html.match(/<[A-Za-z][^>]*>/g) ?? [];

  it("escapes everything: no markup from the session survives", () => {
    expect(tags.filter((tag) => /^<(script|img|a|iframe|object|embed|link|base|form)\b/i.test(tag))).toEqual([]);
    expect(tags.filter((tag) => /\son[a-z]+=/i.test(tag))).toEqual([]);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('<span class="bidi" title="bidi control character">⟨U+202E⟩</span>txt.exe');
    expect(/[\u202A-\u202E]/.test(html)).toBe(false);
  });

  it("loads nothing: no src/href attributes, a CSP with no source but data: images, the inline style allowed by its hash", () => {
    expect(tags.filter((tag) => /\s(src|href|srcset|action|style)=/i.test(tag))).toEqual([]);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const hash = createHash("sha256").update(style).digest("base64");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp).toBe(`default-src 'none'; img-src data:; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`);
    expect(style).not.toMatch(/url\(|@import|@font-face/);
  });
});

describe("CLI export", () => {
  it("writes the file, never over an existing one, and flags secrets", async () => {
    const source = join(dir, "cli.jsonl");
    writeFileSync(source, jsonl([header(), user("u", null, "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz"), assistant("a", "u", "ok")]));
    const out = join(dir, "cli.md");
    const run = await cli(["export", source, "--format", "md", "-o", out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("warning: the branch holds 1 likely secret(s): 1 Anthropic API key; pass --redact to replace them");
    expect(readFileSync(out, "utf8")).toContain("key sk-ant-api03");
    const again = await cli(["export", source, "--format", "md", "-o", out, "--redact"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists \(not overwritten\)/);
    const redacted = await cli(["export", source, "--format", "html", "--redact", "--leaf", "u"]);
    expect(redacted.code).toBe(0);
    expect(redacted.stdout).toContain("[redacted: Anthropic API key]");
    expect(redacted.stdout).not.toContain("ok</div>");
  });

  it("bad usage: one error line", async () => {
    const source = join(dir, "cli.jsonl");
    expect((await cli(["export", source])).stderr).toBe("error: 'export' needs --format md|html|jsonl\n");
    expect((await cli(["export", source, "--format", "pdf"])).stderr).toBe("error: --format must be md, html or jsonl, got 'pdf'\n");
    expect((await cli(["export", join(dir, "missing.jsonl"), "--format", "md"])).code).toBe(1);
    expect(existsSync(join(dir, "missing.jsonl"))).toBe(false);
  });
});
