import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { getAgentDir, SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  defaultAgentDir,
  findSessionFiles,
  isSessionFile,
  piSessionDirForCwd,
  summarizeSessionFile,
} from "../../../src/core/discovery/discover.js";
import { generateRandomSession } from "../../support/random-session.js";

const PI_SESSION_MANAGER = new URL(
  "../../../node_modules/@mariozechner/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
).href;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-discover-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const savedAgentDir = process.env.PI_CODING_AGENT_DIR;
afterEach(() => {
  if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
});

const header = (id: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p", ...extra });

describe("agent dir and pi's session folder", () => {
  it.each([undefined, "", "~", "~/custom/agent", "/abs/agent", "~other/x", "relative/dir"])(
    "PI_CODING_AGENT_DIR=%s gives what pi's getAgentDir gives",
    (value) => {
      if (value === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = value;
      expect(defaultAgentDir(process.env, homedir())).toBe(getAgentDir());
    },
  );

  it.each(["/work/project", "/", "C:\\Users\\me\\proj", "\\\\server\\share\\x", "/a:b/c d", "relative/x"])(
    "the folder for cwd %s is pi's getDefaultSessionDir, and is not created",
    async (cwd) => {
      const pi = (await import(PI_SESSION_MANAGER)) as { getDefaultSessionDir(cwd: string, agentDir: string): string };
      const agentDir = join(dir, "agent-ours");
      const ours = piSessionDirForCwd(cwd, agentDir);
      expect(existsSync(ours)).toBe(false);
      expect(ours).toBe(pi.getDefaultSessionDir(cwd, join(dir, "agent-ours")));
    },
  );
});

describe("finding session files", () => {
  it("finds *.jsonl files with a session header, skipping node_modules, .git, other files and too-deep folders", async () => {
    const root = join(dir, "tree");
    const files: Record<string, string> = {
      "a.jsonl": `${header("a")}\n`,
      "sub/b.jsonl": `${header("b")}\n{"type":"message"}\n`,
      "sub/long-header.jsonl": `${header("c", { note: "x".repeat(2000) })}\n`,
      "sub/bom.jsonl": `\ufeff${header("d")}\n`,
      "sub/not-a-session.jsonl": '{"type":"message","id":"x"}\n',
      "sub/broken.jsonl": "{nope\n",
      "sub/empty.jsonl": "",
      "sub/header.json": `${header("e")}\n`,
      "node_modules/pkg/c.jsonl": `${header("f")}\n`,
      ".git/d.jsonl": `${header("g")}\n`,
      "1/2/3/deep.jsonl": `${header("h")}\n`,
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(root, name, ".."), { recursive: true });
      writeFileSync(join(root, name), text);
    }
    symlinkSync(root, join(root, "sub", "loop"));
    expect(await findSessionFiles([root, join(dir, "does-not-exist")])).toEqual(
      ["1/2/3/deep.jsonl", "a.jsonl", "sub/b.jsonl", "sub/bom.jsonl", "sub/long-header.jsonl"].map((f) => join(root, f)),
    );
    expect(await findSessionFiles([root], { maxDepth: 1 })).toEqual(
      ["a.jsonl", "sub/b.jsonl", "sub/bom.jsonl", "sub/long-header.jsonl"].map((f) => join(root, f)),
    );
    expect(
      await findSessionFiles([root], { include: (p) => p.includes("sub"), exclude: (p) => p.endsWith("bom.jsonl") }),
    ).toEqual(["sub/b.jsonl", "sub/long-header.jsonl"].map((f) => join(root, f)));
  });

  it("agrees with pi's 512-byte check where pi's check can decide", () => {
    const short = join(dir, "short.jsonl");
    writeFileSync(short, `${header("s")}\n`);
    expect(isSessionFile(short)).toBe(true);
    const noId = join(dir, "no-id.jsonl");
    writeFileSync(noId, `${JSON.stringify({ type: "session", cwd: "/" })}\n`);
    expect(isSessionFile(noId)).toBe(false);
    expect(isSessionFile(join(dir, "missing.jsonl"))).toBe(false);
  });
});

describe("summarizeSessionFile equals pi's session list entry", () => {
  it("for random pi sessions and the version 1 fixtures: id, cwd, name, message count, modified, first message", async () => {
    const sessionDir = join(dir, "list");
    for (let seed = 200; seed < 212; seed++) generateRandomSession(seed, sessionDir);
    for (const name of ["large-session.jsonl", "before-compaction.jsonl"]) {
      writeFileSync(join(sessionDir, name), readFileSync(new URL(`../../fixtures/pi-mono/${name}`, import.meta.url)));
    }
    const piList = await SessionManager.list("/work/project", sessionDir);
    expect(piList.length).toBe(14);
    for (const info of piList) {
      const ours = await summarizeSessionFile(info.path);
      expect(ours).not.toBeNull();
      expect({
        id: ours!.id,
        cwd: ours!.cwd,
        name: ours!.name ?? undefined,
        messageCount: ours!.messageCount,
        modified: ours!.modified.getTime(),
        firstMessage: ours!.firstUserMessage ?? "(no messages)",
      }).toEqual({
        id: info.id,
        cwd: info.cwd,
        name: info.name,
        messageCount: info.messageCount,
        modified: info.modified.getTime(),
        firstMessage: info.firstMessage,
      });
    }
  });

  it("is null for a file without a header", async () => {
    const path = join(dir, "headless.jsonl");
    writeFileSync(path, '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}}\n');
    expect(await summarizeSessionFile(path)).toBeNull();
  });
});
