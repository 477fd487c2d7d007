import { beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOf, loadParser, touched } from "./helpers";

beforeAll(loadParser);

describe("lists, pipelines and blocks", () => {
  it("walks ;, &&, ||, & and newlines", () => {
    expect(touched("touch a.txt; rm b.txt && cat c.txt || echo x > d.txt\nhead e.txt & tail f.txt")).toEqual({
      "a.txt": "W", "b.txt": "D", "c.txt": "R", "d.txt": "W", "e.txt": "R", "f.txt": "R",
    });
  });

  it("walks every stage of a pipeline", () => {
    expect(touched("cat in.txt | sort | tee out.txt | wc -l")).toEqual({ "in.txt": "R", "out.txt": "W" });
  });

  it("walks subshells, groups and negation", () => {
    expect(touched("(touch a.txt); { rm b.txt; }; ! cat c.txt")).toEqual({ "a.txt": "W", "b.txt": "D", "c.txt": "R" });
  });

  it("walks if/elif/else, case, while, until, for and select bodies", () => {
    expect(touched("if cat a.txt; then touch b.txt; elif true; then rm c.txt; else echo > d.txt; fi")).toEqual({
      "a.txt": "R", "b.txt": "W", "c.txt": "D", "d.txt": "W",
    });
    expect(touched("case $1 in start) touch s.txt;; stop|halt) rm s.txt;; esac")).toEqual({ "s.txt": "WD" });
    expect(touched("while true; do cat w.txt; done; until false; do touch u.txt; done")).toEqual({ "w.txt": "R", "u.txt": "W" });
    expect(touched("for ((i=0; i<3; i++)); do echo $i >> n.txt; done")).toEqual({ "n.txt": "E" });
  });

  it("walks function bodies", () => {
    expect(touched("save() { echo x > saved.txt; }; save")).toEqual({ "saved.txt": "W" });
  });

  it("runs command substitutions and backticks inside arguments", () => {
    expect(touched("echo $(cat a.txt) `head b.txt` > c.txt")).toEqual({ "a.txt": "R", "b.txt": "R", "c.txt": "W" });
    expect(touched('x="$(cat inner.txt)"')).toEqual({ "inner.txt": "R" });
  });

  it("ignores comments", () => {
    expect(touched("ls # rm important.txt > x")).toEqual({});
  });

  it("arithmetic is not a heredoc nor a redirect", () => {
    expect(touched("echo $((1 << 2)) > shift.txt")).toEqual({ "shift.txt": "W" });
  });
});

describe("cd changes the base of relative paths for the rest of the string", () => {
  it("follows cd across && and ;", () => {
    expect(touched("cd src && sed -i 's/a/b/' x.ts; cat ../README.md")).toEqual({ "src/x.ts": "E", "README.md": "R" });
  });

  it("absolute cd and paths outside the cwd", () => {
    expect(touched("cd /tmp && touch scratch.txt")).toEqual({ "/tmp/scratch.txt": "W" });
  });

  it("cd inside a subshell, pipeline or background job does not leak", () => {
    expect(touched("(cd sub && touch a.txt); touch b.txt")).toEqual({ "sub/a.txt": "W", "b.txt": "W" });
    expect(touched("cd sub | true; touch c.txt")).toEqual({ "c.txt": "W" });
    expect(touched("cd sub & touch d.txt")).toEqual({ "d.txt": "W" });
  });

  it("cd inside { } and loops does carry on", () => {
    expect(touched("{ cd sub; }; touch a.txt")).toEqual({ "sub/a.txt": "W" });
    expect(touched("for d in one; do cd $d; done; touch x.txt")).toEqual({ "one/x.txt": "W" });
  });

  it("cd to an unknown place makes later relative paths unknown, absolute ones still count", () => {
    expect(touched("cd $WORK && touch a.txt /abs/b.txt")).toEqual({ "/abs/b.txt": "W" });
    expect(touched("cd $(git rev-parse --show-toplevel) && rm x.txt")).toEqual({});
  });

  it("branches that disagree on the directory leave it unknown", () => {
    expect(touched("if true; then cd a; else cd b; fi; touch x.txt")).toEqual({});
    expect(touched("if true; then cd a; else cd a; fi; touch x.txt")).toEqual({ "a/x.txt": "W" });
  });

  it("cd - returns to the previous directory", () => {
    expect(touched("cd sub; cd -; touch x.txt")).toEqual({ "x.txt": "W" });
  });

  it("cd with no argument goes home", () => {
    expect(touched("cd && touch x.txt")).toEqual({ "~/x.txt": "W" });
  });

  it("pushd and popd", () => {
    expect(touched("pushd lib; touch a.txt; popd; touch b.txt")).toEqual({ "lib/a.txt": "W", "b.txt": "W" });
    expect(touched("pushd lib > /dev/null && pushd deep && touch c.txt && popd && touch d.txt")).toEqual({
      "lib/deep/c.txt": "W", "lib/d.txt": "W",
    });
  });

  it("cd .. leaves the session cwd: paths become absolute", () => {
    expect(touched("cd .. && touch sibling.txt")).toEqual({ "/sibling.txt": "W" });
    expect(touched("cd .. && touch sibling.txt", "/work/repo")).toEqual({ "/work/sibling.txt": "W" });
  });
});

describe("parse failures", () => {
  it("yields no actions and a diagnostic", () => {
    expect(touched('echo "unterminated > x.txt')).toEqual({});
    expect(diagnosticsOf('echo "unterminated > x.txt')).toEqual(["bash-parse-error"]);
    expect(touched("if then fi; touch a.txt")).toEqual({});
  });
});

describe("commands that cannot touch files", () => {
  it("are recognised without missing escaped or quoted command names", () => {
    expect(touched("r\\m a.txt")).toEqual({ "a.txt": "D" });
    expect(touched("'rm' b.txt")).toEqual({ "b.txt": "D" });
    expect(touched('"t"ouch c.txt')).toEqual({ "c.txt": "W" });
    expect(touched("npm run build && npm test")).toEqual({});
  });

  it("an unbalanced quote is still parsed and reported", () => {
    expect(diagnosticsOf('echo "open')).toEqual(["bash-parse-error"]);
  });
});
