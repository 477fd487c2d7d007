import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, touched } from "./helpers";

beforeAll(loadParser);

describe("readers", () => {
  it("cat, head, tail, less, wc, sort, uniq, diff, cmp read their files", () => {
    expect(touched("cat a.txt b.txt")).toEqual({ "a.txt": "R", "b.txt": "R" });
    expect(touched("head -n 20 a.ts; head -20 b.ts; tail -n +5 c.ts; tail -f d.log; head -c 100 e.bin")).toEqual({
      "a.ts": "R", "b.ts": "R", "c.ts": "R", "d.log": "R", "e.bin": "R",
    });
    expect(touched("wc -l src/x.ts; less y.md; more z.md")).toEqual({ "src/x.ts": "R", "y.md": "R", "z.md": "R" });
    expect(touched("sort -k 2 -t , data.csv")).toEqual({ "data.csv": "R" });
    expect(touched("sort -o sorted.txt in.txt")).toEqual({ "in.txt": "R", "sorted.txt": "W" });
    expect(touched("uniq -c in.txt out.txt")).toEqual({ "in.txt": "R", "out.txt": "W" });
    expect(touched("diff -u old.ts new.ts; cmp a.bin b.bin")).toEqual({ "old.ts": "R", "new.ts": "R", "a.bin": "R", "b.bin": "R" });
  });

  it("cat - and stdin are no files", () => {
    expect(touched("echo x | cat - ")).toEqual({});
  });

  it("jq: the filter is not a file; --slurpfile/--rawfile/-f are read", () => {
    expect(touched("jq '.version' package.json")).toEqual({ "package.json": "R" });
    expect(touched("jq -r --arg v 1 '.x' a.json b.json")).toEqual({ "a.json": "R", "b.json": "R" });
    expect(touched("jq --slurpfile s extra.json -n '$s'")).toEqual({ "extra.json": "R" });
    expect(touched("jq -f filter.jq data.json")).toEqual({ "filter.jq": "R", "data.json": "R" });
  });

  it("grep: the pattern is not a file; -e/-f; recursive over directories names nothing", () => {
    expect(touched("grep -n 'chalk' src/tui.ts")).toEqual({ "src/tui.ts": "R" });
    expect(touched("grep -A 5 -B 2 foo a.ts b.ts")).toEqual({ "a.ts": "R", "b.ts": "R" });
    expect(touched("grep -e foo -e bar c.ts")).toEqual({ "c.ts": "R" });
    expect(touched("grep -f patterns.txt d.ts")).toEqual({ "patterns.txt": "R", "d.ts": "R" });
    expect(touched("grep -rn foo src")).toEqual({});
    expect(touched("grep -r --include='*.ts' foo .")).toEqual({});
    expect(touched("grep -r foo src/one.ts")).toEqual({ "src/one.ts": "R" });
    expect(touched("ps aux | grep node")).toEqual({});
  });

  it("rg searches directories by default: only file operands are read", () => {
    expect(touched("rg -n TODO src")).toEqual({});
    expect(touched("rg -n TODO src/main.ts")).toEqual({ "src/main.ts": "R" });
    expect(touched("rg -g '*.ts' foo")).toEqual({});
  });

  it("source and . read the file", () => {
    expect(touched("source .env && . ./venv/bin/activate")).toEqual({ ".env": "R", "venv/bin/activate": "R" });
  });
});

describe("git", () => {
  it("git mv moves; git rm deletes unless --cached", () => {
    expect(touched("git mv old.ts new.ts")).toEqual({ "new.ts": "M", "old.ts": "D" });
    expect(touched("git mv a.ts b.ts lib/")).toEqual({ "lib/a.ts": "M", "a.ts": "D", "lib/b.ts": "M", "b.ts": "D" });
    expect(touched("git rm obsolete.ts; git rm --cached keep.ts; git rm -r --cached dist")).toEqual({ "obsolete.ts": "D" });
  });

  it("git checkout -- f and git restore f overwrite f; --staged alone does not", () => {
    expect(touched("git checkout -- a.ts; git checkout HEAD~1 -- b.ts")).toEqual({ "a.ts": "W", "b.ts": "W" });
    expect(touched("git checkout main; git checkout -b feature")).toEqual({});
    expect(touched("git restore c.ts; git restore --staged d.ts; git restore --staged --worktree e.ts")).toEqual({ "c.ts": "W", "e.ts": "W" });
    expect(touched("git restore --source=HEAD~2 f.ts")).toEqual({ "f.ts": "W" });
  });

  it("git -C DIR changes the base; other subcommands name no files", () => {
    expect(touched("git -C sub mv a.ts b.ts")).toEqual({ "sub/b.ts": "M", "sub/a.ts": "D" });
    expect(touched("git add . && git commit -m 'rm x.ts > y' && git diff a.ts && git status")).toEqual({});
  });

  it("git apply reads the patch", () => {
    expect(touched("git apply --3way fix.patch")).toEqual({ "fix.patch": "R" });
  });
});

describe("downloads and archives", () => {
  it("curl -o/--output writes, -O uses the URL's name, -d @file reads", () => {
    expect(touched("curl -sSL -o out.json https://example.com/api")).toEqual({ "out.json": "W" });
    expect(touched("curl --output=page.html https://example.com/")).toEqual({ "page.html": "W" });
    expect(touched("curl -LO https://example.com/dl/tool-1.2.tar.gz")).toEqual({ "tool-1.2.tar.gz": "W" });
    expect(touched("curl -X POST -H 'Content-Type: application/json' -d @body.json https://x/y")).toEqual({ "body.json": "R" });
    expect(touched("curl -s https://example.com | jq .")).toEqual({});
  });

  it("wget -O writes; a bare wget saves under the URL's name", () => {
    expect(touched("wget -O data.zip https://example.com/x")).toEqual({ "data.zip": "W" });
    expect(touched("wget -q https://example.com/files/report.pdf")).toEqual({ "report.pdf": "W" });
    expect(touched("wget -qO- https://example.com/install.sh | sh")).toEqual({});
  });

  it("tar: create writes the archive, extract/list read it", () => {
    expect(touched("tar -czf backup.tgz src")).toEqual({ "backup.tgz": "W" });
    expect(touched("tar xzf release.tar.gz -C /opt")).toEqual({ "release.tar.gz": "R" });
    expect(touched("tar --list --file=a.tar")).toEqual({ "a.tar": "R" });
  });
});
