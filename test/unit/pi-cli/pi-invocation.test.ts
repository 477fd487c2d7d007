// Finding pi and the command lines that run it (real files on a real PATH).
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findPiExecutable, piArgs, piCommandLine, shellQuote } from "../../../src/core/pi-cli/pi-invocation.js";
import { removeDir, tempDir } from "../write/support/sessions.js";

const dir = tempDir("pi-sessions-pi-cli-");
afterAll(() => removeDir(dir));

function script(folder: string, name: string, executable = true): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  writeFileSync(path, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");
  chmodSync(path, executable ? 0o755 : 0o644);
  return path;
}

describe("findPiExecutable", () => {
  it("finds `pi` on PATH in order, skipping non-executable files and folders", () => {
    const first = join(dir, "a");
    const second = join(dir, "b");
    script(first, "pi", false);
    mkdirSync(join(second, "pi"), { recursive: true });
    const third = join(dir, "c");
    const found = script(third, "pi");
    expect(findPiExecutable(undefined, { PATH: [first, second, third].join(":") }, "linux")).toBe(found);
    expect(findPiExecutable(undefined, { PATH: [first, second].join(":") }, "linux")).toBeUndefined();
    expect(findPiExecutable(undefined, {}, "linux")).toBeUndefined();
  });

  it("a configured absolute path must be an executable file; a bare name is looked up; a relative path is not", () => {
    const exe = script(join(dir, "tools"), "my-pi");
    expect(findPiExecutable(exe, { PATH: "" }, "linux")).toBe(exe);
    expect(findPiExecutable(join(dir, "tools", "missing"), { PATH: "" }, "linux")).toBeUndefined();
    expect(findPiExecutable("my-pi", { PATH: join(dir, "tools") }, "linux")).toBe(exe);
    expect(findPiExecutable("tools/my-pi", { PATH: dir }, "linux")).toBeUndefined();
  });
});

describe("command lines", () => {
  it("pi's flags: --session to resume, --fork to fork", () => {
    expect(piArgs("resume", "/s/a.jsonl")).toEqual(["--session", "/s/a.jsonl"]);
    expect(piArgs("fork", "/s/a.jsonl")).toEqual(["--fork", "/s/a.jsonl"]);
  });

  it("a POSIX shell gets back exactly the words (spaces, quotes, $, newlines)", () => {
    const exe = script(join(dir, "echo"), "pi");
    const path = "/tmp/it's a $HOME `x` \"session\"\nfile.jsonl";
    const line = piCommandLine(exe, piArgs("resume", path), "linux");
    expect(execFileSync("/bin/sh", ["-c", line], { encoding: "utf8" })).toBe(`--session\n${path}\n`);
    expect(shellQuote("/plain/path-1.jsonl", "linux")).toBe("/plain/path-1.jsonl");
  });
});
