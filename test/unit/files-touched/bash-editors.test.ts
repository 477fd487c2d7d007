import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, touched } from "./helpers";

beforeAll(loadParser);

describe("sed", () => {
  it("GNU -i edits in place; -i.bak and --in-place=SUF leave a backup", () => {
    expect(touched("sed -i 's/a/b/g' x.ts y.ts")).toEqual({ "x.ts": "E", "y.ts": "E" });
    expect(touched("sed -i.bak 's/a/b/' x.ts")).toEqual({ "x.ts": "E", "x.ts.bak": "W" });
    expect(touched("sed --in-place=.orig -e 's/a/b/' x.ts")).toEqual({ "x.ts": "E", "x.ts.orig": "W" });
    expect(touched("sed --in-place 's/a/b/' x.ts")).toEqual({ "x.ts": "E" });
    expect(touched("sed -E -i 's/(a)/\\1/' x.ts")).toEqual({ "x.ts": "E" });
  });

  it("a suffix with * names the backup from the file name", () => {
    expect(touched("sed -i'bak/*' 's/a/b/' src/x.ts")).toEqual({ "src/x.ts": "E", "bak/x.ts": "W" });
    expect(touched("sed -i'old_*' 's/a/b/' src/x.ts")).toEqual({ "src/x.ts": "E", "src/old_x.ts": "W" });
  });

  it("GNU reads -ie as suffix e (the classic mistake)", () => {
    expect(touched("sed -ie 's/a/b/' x.ts")).toEqual({ "x.ts": "E", "x.tse": "W" });
  });

  it("BSD -i '' and -i .bak", () => {
    expect(touched("sed -i '' 's/a/b/' x.ts")).toEqual({ "x.ts": "E" });
    expect(touched("sed -i .bak 's/a/b/' x.ts")).toEqual({ "x.ts": "E", "x.ts.bak": "W" });
  });

  it("without -i it reads; -e/-f scripts make every operand a file", () => {
    expect(touched("sed -n '1,20p' log.txt")).toEqual({ "log.txt": "R" });
    expect(touched("sed -e 's/a/b/' -e 's/c/d/' in.txt > out.txt")).toEqual({ "in.txt": "R", "out.txt": "W" });
    expect(touched("sed -f script.sed data.txt")).toEqual({ "script.sed": "R", "data.txt": "R" });
  });
});

describe("perl", () => {
  it("-pi -e, -i.bak, -0777 -pi", () => {
    expect(touched("perl -pi -e 's/a/b/' f.txt g.txt")).toEqual({ "f.txt": "E", "g.txt": "E" });
    expect(touched("perl -i.bak -pe 's/a/b/' f.txt")).toEqual({ "f.txt": "E", "f.txt.bak": "W" });
    expect(touched("perl -pi.orig -e 's/a/b/' f.txt")).toEqual({ "f.txt": "E", "f.txt.orig": "W" });
    expect(touched("perl -0777 -pi -e 's/a\\nb/c/' f.txt")).toEqual({ "f.txt": "E" });
    expect(touched("perl -i -p -e 's/a/b/' f.txt")).toEqual({ "f.txt": "E" });
  });

  it("-ne reads; a script file is run, its arguments unknown", () => {
    expect(touched("perl -ne 'print if /x/' f.txt")).toEqual({ "f.txt": "R" });
    expect(touched("perl script.pl data.txt")).toEqual({});
  });
});

describe("awk", () => {
  it("gawk -i inplace edits; inplace::suffix leaves a backup", () => {
    expect(touched("awk -i inplace '{print $1}' f.txt")).toEqual({ "f.txt": "E" });
    expect(touched("gawk -i inplace -v inplace::suffix=.bak '{print}' f.txt")).toEqual({ "f.txt": "E", "f.txt.bak": "W" });
  });

  it("reads its file operands, not the program nor var=value", () => {
    expect(touched("awk -F, -v n=2 '{print $n}' data.csv x=1 more.csv")).toEqual({ "data.csv": "R", "more.csv": "R" });
    expect(touched("awk -f prog.awk in.txt")).toEqual({ "prog.awk": "R", "in.txt": "R" });
    expect(touched("awk '/x/,/y/{print NR\": \"$0}' src/app.ts | head -40")).toEqual({ "src/app.ts": "R" });
  });
});

describe("patch", () => {
  it("patch < file reads the patch; files inside it are unknown", () => {
    expect(touched("patch -p1 < fix.patch")).toEqual({ "fix.patch": "R" });
    expect(touched("patch -p1 -i fix.patch")).toEqual({ "fix.patch": "R" });
  });

  it("patch FILE [PATCH] edits FILE; -o writes elsewhere; --dry-run changes nothing", () => {
    expect(touched("patch orig.c fix.diff")).toEqual({ "orig.c": "E", "fix.diff": "R" });
    expect(touched("patch -o new.c orig.c fix.diff")).toEqual({ "orig.c": "R", "new.c": "W", "fix.diff": "R" });
    expect(touched("patch --dry-run orig.c < fix.diff")).toEqual({ "fix.diff": "R" });
  });
});

describe("formatters that rewrite files in place", () => {
  it("edit the named files in write/fix modes, read them in check modes", () => {
    expect(touched("npx prettier --write src/a.ts README.md")).toEqual({ "src/a.ts": "E", "README.md": "E" });
    expect(touched("npx prettier --check src/a.ts")).toEqual({ "src/a.ts": "R" });
    expect(touched("eslint --fix src/b.ts && eslint src/c.ts")).toEqual({ "src/b.ts": "E", "src/c.ts": "R" });
    expect(touched("black app.py; black --check lib.py")).toEqual({ "app.py": "E", "lib.py": "R" });
    expect(touched("gofmt -w main.go; rustfmt src/lib.rs; clang-format -i x.cpp")).toEqual({ "main.go": "E", "src/lib.rs": "E", "x.cpp": "E" });
    expect(touched("ruff format a.py && ruff check --fix b.py && ruff check c.py")).toEqual({ "a.py": "E", "b.py": "E", "c.py": "R" });
  });

  it("directories name no files", () => {
    expect(touched("prettier --write src && black . && gofmt -w ./pkg")).toEqual({});
  });

  it("watch runs its joined arguments as a script", () => {
    expect(touched("watch -n 5 'cat status.txt'")).toEqual({ "status.txt": "R" });
  });
});
