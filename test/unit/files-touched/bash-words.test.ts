import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, touched } from "./helpers";

beforeAll(loadParser);

describe("quoting and escapes are resolved", () => {
  it("single, double and ANSI-C quotes", () => {
    expect(touched("touch 'a b.txt' \"c d.txt\" $'e\\tf.txt'")).toEqual({ "a b.txt": "W", "c d.txt": "W", "e\tf.txt": "W" });
  });

  it("backslash escapes outside and inside double quotes", () => {
    expect(touched("touch my\\ file.txt \"q\\\"uote.txt\" \"back\\\\slash.txt\"")).toEqual({
      "my file.txt": "W", 'q"uote.txt': "W", "back\\slash.txt": "W",
    });
  });

  it("an escaped command name still runs the command", () => {
    expect(touched("\\rm old.txt")).toEqual({ "old.txt": "D" });
  });

  it("quoted parts glued together form one word", () => {
    expect(touched("touch 'pre'fix\"-mid\"-end.txt")).toEqual({ "prefix-mid-end.txt": "W" });
  });

  it("a command named by path dispatches on its basename", () => {
    expect(touched("/bin/rm gone.txt; /usr/bin/env touch env.txt")).toEqual({ "gone.txt": "D", "env.txt": "W" });
  });
});

describe("words only known at run time name no path", () => {
  it("variables, command substitution, backticks, arithmetic", () => {
    expect(touched('rm $FILE "${OUT}" $(ls) `pwd`/x.txt "$((1+2)).txt"')).toEqual({});
    expect(touched("echo x > $TARGET")).toEqual({});
    expect(touched('sed -i "s/a/b/" "${files[@]}"')).toEqual({});
  });

  it("globs match files only known at run time; quoted glob characters are literal", () => {
    expect(touched("rm *.log src/?.ts data[0-9].csv")).toEqual({});
    expect(touched("touch 'star*.txt' \"q?.txt\"")).toEqual({ "star*.txt": "W", "q?.txt": "W" });
  });

  it("~user is unknown, ~ and ~/ are the home directory", () => {
    expect(touched("cat ~/notes.txt ~bob/x.txt")).toEqual({ "~/notes.txt": "R" });
  });
});

describe("literal values are expanded", () => {
  it("brace expansion with lists, nesting and sequences", () => {
    expect(touched("touch src/{a,b}.ts")).toEqual({ "src/a.ts": "W", "src/b.ts": "W" });
    expect(touched("touch {x,y{1,2}}.md")).toEqual({ "x.md": "W", "y1.md": "W", "y2.md": "W" });
    expect(touched("touch f{1..3}.txt")).toEqual({ "f1.txt": "W", "f2.txt": "W", "f3.txt": "W" });
    expect(touched("touch g{08..10}.txt")).toEqual({ "g08.txt": "W", "g09.txt": "W", "g10.txt": "W" });
    expect(touched("touch h{a..c}")).toEqual({ ha: "W", hb: "W", hc: "W" });
  });

  it("quoted braces and a lone {} are literal", () => {
    expect(touched("touch '{a,b}.txt' {}.txt")).toEqual({ "{a,b}.txt": "W", "{}.txt": "W" });
  });

  it("cp with brace expansion: the usual backup idiom", () => {
    expect(touched("cp config.json{,.bak}")).toEqual({ "config.json": "R", "config.json.bak": "W" });
  });

  it("for loops over literal word lists bind the variable", () => {
    expect(touched("for f in a.ts b.ts; do sed -i 's/x/y/' \"$f\"; done")).toEqual({ "a.ts": "E", "b.ts": "E" });
    expect(touched("for n in {1..2}; do touch \"part-$n.txt\"; done")).toEqual({ "part-1.txt": "W", "part-2.txt": "W" });
    expect(touched("for f in *.ts; do rm $f; done")).toEqual({});
  });

  it("literal assignments are used later in the same command string", () => {
    expect(touched("OUT=report.txt; echo hi > $OUT; cat \"${OUT}\"")).toEqual({ "report.txt": "RW" });
    expect(touched("export DIR=build && touch $DIR/x.o")).toEqual({ "build/x.o": "W" });
  });

  it("a variable assigned something unknown stays unknown", () => {
    expect(touched("F=$(mktemp); echo x > $F")).toEqual({});
    expect(touched("F=a.txt; F=$(date); rm $F")).toEqual({});
  });

  it("an unquoted value with spaces would be split: unknown", () => {
    expect(touched("F='a b'; rm $F")).toEqual({});
    expect(touched("F='a b'; rm \"$F\"")).toEqual({ "a b": "D" });
  });
});
