import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, touched } from "./helpers";

beforeAll(loadParser);

describe("redirections by operator and fd", () => {
  it("> and >| and N> write, >> appends (edit), < reads", () => {
    expect(touched("echo a > w.txt")).toEqual({ "w.txt": "W" });
    expect(touched("echo a >| w.txt")).toEqual({ "w.txt": "W" });
    expect(touched("cmd 2> err.log")).toEqual({ "err.log": "W" });
    expect(touched("echo a >> log.txt")).toEqual({ "log.txt": "E" });
    expect(touched("sort < in.txt")).toEqual({ "in.txt": "R" });
  });

  it("&> writes and &>> appends", () => {
    expect(touched("make &> build.log")).toEqual({ "build.log": "W" });
    expect(touched("make &>> build.log")).toEqual({ "build.log": "E" });
    expect(touched("make >& out.log")).toEqual({ "out.log": "W" });
  });

  it("ignores fd duplications and /dev/*", () => {
    expect(touched("npm test 2>&1 | tail -5")).toEqual({});
    expect(touched("cmd 3>&1 1>&2 2>&3 >/dev/null 2>/dev/null")).toEqual({});
    expect(touched("exec 3<&- 4>&-")).toEqual({});
    expect(touched("echo x > /dev/stderr")).toEqual({});
  });

  it("a redirect after the last command of a list or pipeline belongs to that command", () => {
    // tree-sitter-bash attaches it to the whole list; bash gives it to the last command.
    expect(touched("cd sub && cat a.txt > b.txt")).toEqual({ "sub/a.txt": "R", "sub/b.txt": "W" });
    expect(touched("cd sub | cat a.txt > b.txt")).toEqual({ "a.txt": "R", "b.txt": "W" });
    expect(touched("cd sub; cd deeper && echo x | tee t.txt > u.txt")).toEqual({ "sub/deeper/t.txt": "W", "sub/deeper/u.txt": "W" });
  });

  it("a redirect before the command name counts", () => {
    expect(touched("> out.txt echo hi")).toEqual({ "out.txt": "W" });
  });

  it("words after a redirect target stay arguments of the command", () => {
    expect(touched("cat > out.txt in.txt")).toEqual({ "out.txt": "W", "in.txt": "R" });
  });

  it("redirections of compound commands apply to the whole block", () => {
    expect(touched("{ echo a; echo b; } > both.txt")).toEqual({ "both.txt": "W" });
    expect(touched("while read -r l; do echo $l; done < lines.txt")).toEqual({ "lines.txt": "R" });
    expect(touched("for i in 1 2; do echo $i; done >> nums.txt")).toEqual({ "nums.txt": "E" });
    expect(touched("(cd sub && ls) > listing.txt")).toEqual({ "listing.txt": "W" });
  });

  it("heredoc bodies are data, never paths", () => {
    const cmd = "cat > notes.md <<'EOF'\nrm -rf important.txt\necho x > fake.txt\nEOF";
    expect(touched(cmd)).toEqual({ "notes.md": "W" });
    expect(touched("cat <<EOF > out.txt\n$HOME > nothing\nEOF")).toEqual({ "out.txt": "W" });
    expect(touched("cat <<-EOF >> log.txt\n\tbody > x\n\tEOF")).toEqual({ "log.txt": "E" });
  });

  it("commands after the heredoc marker on the same line still run", () => {
    expect(touched("cat <<EOF | tee copy.txt\nbody\nEOF")).toEqual({ "copy.txt": "W" });
    expect(touched("cat <<EOF > a.txt && rm b.txt\nbody\nEOF")).toEqual({ "a.txt": "W", "b.txt": "D" });
  });

  it("here-strings are data", () => {
    expect(touched('grep foo <<< "x > y.txt"')).toEqual({});
    expect(touched("wc -l <<< hello > count.txt")).toEqual({ "count.txt": "W" });
  });

  it("an ambiguous redirect target (several words) names no file", () => {
    expect(touched("echo x > {a,b}.txt")).toEqual({});
  });

  it("process substitution is no file, but its commands run", () => {
    expect(touched("diff <(sort a.txt) <(sort b.txt)")).toEqual({ "a.txt": "R", "b.txt": "R" });
    expect(touched("echo x > >(tee t.log)")).toEqual({ "t.log": "W" });
  });
});
