// The hand parser for simple commands (simple-bash.ts) against tree-sitter:
// on everything it accepts, the same ShNode tree and so the same analysis;
// on the rest it declines. Checked on the labelled corpus, the large
// fixture's bash calls, and thousands of generated commands mixing the
// simple forms with tricky tokens.
import fc from "fast-check";
import { corpusCommands, fixtureBashCommands } from "../../support/fixture-bash-commands";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { analyzeBashCommand, clearBashAnalysisCache, initFilesTouched } from "../../../src/core/files-touched";
import { parseBashVia, setSimpleBashFastPath } from "../../../src/core/files-touched/bash-syntax";
import { parseSimpleBash } from "../../../src/core/files-touched/simple-bash";


beforeAll(() => initFilesTouched());
afterEach(() => setSimpleBashFastPath(true));

/** True when the hand parser accepts `command`; then its tree must be tree-sitter's, which must have no error. */
function sameWhenAccepted(command: string): boolean {
  const fast = parseSimpleBash(command);
  if (!fast) return false;
  const tree = parseBashVia("direct", command)!;
  expect(tree.hasError, `tree-sitter reports an error for an accepted command: ${JSON.stringify(command)}`).toBe(false);
  expect(fast, JSON.stringify(command)).toEqual(tree.root);
  return true;
}

function analysis(command: string, fastPath: boolean, cwd: string) {
  setSimpleBashFastPath(fastPath);
  clearBashAnalysisCache();
  try {
    return analyzeBashCommand(command, { cwd, sessionCwd: "/work/repo" });
  } finally {
    setSimpleBashFastPath(true);
    clearBashAnalysisCache();
  }
}

function sameAnalysis(command: string): void {
  for (const cwd of ["/work/repo", "/tmp"]) {
    expect(analysis(command, true, cwd), JSON.stringify(command)).toEqual(analysis(command, false, cwd));
  }
}

// Generated commands: mostly the shapes agents write, with tricky tokens mixed in
// (each pool: plain entries, then ones the fast path must decline or get exactly right).
const NAMES = [["cat", "ls", "grep", "sed", "cd", "rm", "mv", "cp", "tee", "touch", "mkdir", "npm", "git", "bash", "./run.sh", "~/bin/x", "/bin/echo", "_x", "x-y", "."], ["g++", "if", "done", "-", "2", "x%y", "a:b", "X=1", "!", "'cat'"]] as const;
const ARGS = [
  [
    "a", "f.txt", "src/", "src/a.ts", "/tmp/x", "~/y", "../z", "-n", "-la", "-rn", "--x=1", "--flag", "1,20p", "*.ts", "x?", "-", "--", "@", "+", ":", ",", "^", "%",
    "1", "2", "-3", "0x1f", "0x10", "007", "_1", "-2", "12a", "in", "do", "done", "fi", "then", "esac", "case", "export", "time", "a=b", "x=",
    "'x'", "''", "'a b'", "'s/a/b/g'", "'$x'", "'é'", "'x\ny'", '"x"', '""', '"a b"', '"é😀"', '"x\\"y"', '"\\\\"', '"a\\.b"', '"#"', '"!"', "\"'\"", "-c 'rm f'", "'x'\"y\"z", "a'b'", '"^x$"', '"a$"', '"$"',
  ],
  ["=", "hi!", "é", "😀", "1'x'", "==", "=~", "$x", '"$x"', "${x}", "$(ls)", "`ls`", "\\x", "a\\ b", "{a,b}", "x[1]", "#c", "a#b", "(x)", "\u00a0b", "a\r", '"a$ "', '"$$"', '"$x$"'],
] as const;
const SEPARATORS = [[" | ", "|", " && ", "&&", " || ", " ; ", ";", "\n", " & ", " |\n", " &&\n  ", ";\n", "\n\n"], [" ;; ", " |& ", " \\\n", "; ;"]] as const;
const REDIRECTS = [[" > ", ">", " >> ", " < ", " 2>", " 2>&1", "2>&1", " >&2", " &> ", " &>>", " >| ", " <& ", " 1>", " 10> ", " >&", " 2> ", " 2>>"], [" 02>", " >&- ", " <<< ", " >(", " <("]] as const;
const HEREDOC_STARTS = [[" <<'EOF'", "<<'EOF'", ' << "EOF"', " <<'EOF' "], [" <<EOF", " <<-'EOF'", " << 'X'"]] as const;
const HEREDOC_BODIES = [["hi\n", "import re\nprint('x')\n", "a $x `y` \\n\n", "é😀\n"], ["  indented\n", "\nblank first\n", "line\\\nEOF\n", "x\n  EOF\n", "x\nEOFX\n", "", "x\tEOF\n"]] as const;

const word = ([plain, tricky]: readonly [readonly string[], readonly string[]]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...plain), weight: 40 }, { arbitrary: fc.constantFrom(...tricky), weight: 1 });
const command = fc
  .tuple(
    word(NAMES),
    fc.array(fc.tuple(fc.constantFrom(" ", " ", "  ", "\t"), word(ARGS)), { maxLength: 4 }),
    fc.option(fc.tuple(word(REDIRECTS), word(ARGS), fc.option(word(ARGS), { freq: 3 })), { freq: 2 }),
    fc.oneof(
      { arbitrary: fc.constant(null), weight: 6 },
      { arbitrary: fc.tuple(word(HEREDOC_STARTS), fc.constantFrom("\n", "\n", "\n", " | tee f\n", " > f\n"), word(HEREDOC_BODIES), fc.constantFrom("EOF", "EOF", "EOF", "X", " EOF", "EOFX"), fc.constantFrom("\n", "\n", "", ";")), weight: 1 },
    ),
  )
  .map(([name, args, redirect, heredoc]) => {
    let s = name + args.map(([blank, a]) => blank + a).join("");
    if (redirect) s += redirect[0] + redirect[1] + (redirect[2] ? ` ${redirect[2]}` : "");
    if (heredoc) s += heredoc.join("");
    return s;
  });
const generated = fc
  .tuple(fc.constantFrom("", "", "", " ", "\n"), command, fc.array(fc.tuple(word(SEPARATORS), command), { maxLength: 3 }), fc.constantFrom("", "", ";", " &", "\n", " ", " ;"))
  .map(([lead, first, rest, end]) => lead + first + rest.map(([sep, c]) => sep + c).join("") + end);

const SOUP = fc
  .array(
    fc.constantFrom(
      ..."abcxyz./-_ 019=%:".split(""),
      "'", '"', "\\", "$", "`", "(", ")", "{", "}", "[", "]", "<", ">", "|", "&", ";", "\n", "\t", "*", "?", "~", "#", "!", "@",
      "<<'EOF'\n", "\nEOF\n", "$(", "${", "<<<", ">>", "2>&1", "2>", "cd ", "cat ", "mv ", "rm -rf ", "for f in ", "; do ", "; done", "if ", "; then ", "; fi", "é", "😀", "\u00a0",
    ),
    { maxLength: 40 },
  )
  .map((p) => p.join(""));

describe("simple-bash fast path", () => {
  it("gives tree-sitter's tree for the corpus commands it takes, and takes most of them", () => {
    const commands = corpusCommands();
    expect(commands.length).toBe(660);
    const accepted = commands.filter(sameWhenAccepted).length;
    expect(accepted / commands.length).toBeGreaterThan(0.7);
  });

  it("gives tree-sitter's tree for the large fixture's bash calls, and takes nearly all", () => {
    const commands = fixtureBashCommands();
    expect(commands.length).toBeGreaterThan(150);
    const accepted = commands.filter(sameWhenAccepted).length;
    expect(accepted / commands.length).toBeGreaterThan(0.95);
  });

  it("gives tree-sitter's tree for generated commands", () => {
    let runs = 0;
    let accepted = 0;
    let heredocs = 0;
    fc.assert(
      fc.property(generated, (cmd) => {
        runs++;
        if (sameWhenAccepted(cmd)) {
          accepted++;
          if (cmd.includes("<<")) heredocs++;
        }
      }),
      { numRuns: 6000 },
    );
    // The generator is built to reach the fast path often, heredocs included.
    expect(accepted).toBeGreaterThan(runs * 0.1);
    expect(heredocs).toBeGreaterThan(20);
  });

  it("gives tree-sitter's tree for random character soup it accepts", () => {
    fc.assert(fc.property(SOUP, (cmd) => void sameWhenAccepted(cmd)), { numRuns: 3000 });
  });

  it("gives the same analysis as tree-sitter on the corpus, the fixture and generated commands", () => {
    for (const command of [...corpusCommands(), ...fixtureBashCommands()]) sameAnalysis(command);
    fc.assert(fc.property(generated, (cmd) => void sameAnalysis(cmd)), { numRuns: 1500 });
  });

  it("takes the simple forms agents write", () => {
    for (const command of [
      "cat a b",
      "sed -n 1,20p f",
      "ls -la dir",
      "grep -rn x src/",
      "cd d && npm test",
      "cat src/a.ts | head -50",
      "echo hi > out.txt",
      "echo more >> log.txt 2>&1",
      "wc -l < data.csv",
      "grep -n 'a b' \"c d.txt\"",
      'grep -c "^x$" f',
      "a; b || c & d",
      "cd packages/x && npm run build 2>&1 | tail -3",
      "cat > /tmp/x.py << 'EOF'\nimport re\nprint($x)\nEOF\npython3 /tmp/x.py",
    ]) {
      expect(sameWhenAccepted(command), command).toBe(true);
    }
  });

  it("declines what it does not fully understand", () => {
    for (const command of [
      "cat $(ls)",
      "cat `ls`",
      "cat $f",
      'cat "$f"',
      "cat ${f}",
      "cat <<EOF\n$x\nEOF",
      "cat <<-'EOF'\n\tx\n\tEOF",
      "cat << 'EOF'\nx\n  EOF\nEOF",
      "for f in a b; do rm $f; done",
      "if true; then rm a; fi",
      "f() { rm a; }",
      "(cd x && rm a)",
      "{ rm a; }",
      "rm a\\ b",
      "rm a # comment",
      "rm a \\\nb",
      "rm \u00a0a",
      "X=1 rm a",
      "[[ -f a ]] && rm a",
      "! rm a",
      "rm a[1]",
      "rm {a,b}",
      "diff <(cat a) b",
      "cat <<< hi",
      "a | b | c && d",
      "a | b | c\nd > f",
      "a - 2>f",
      "rm 02>f",
      "a >&- b",
      "a ;; b",
      "a\r\nb",
      "",
      "   ",
    ]) {
      expect(parseSimpleBash(command), JSON.stringify(command)).toBeUndefined();
    }
  });
});
