// Console output of `vitest run` (vitest 1.6, no TTY) for the virtual project.
// Test names come from the test files as they are at that moment, so the
// report always matches the code the session has written; failures are
// described by the scenario (which test, which message, which line).

const SEPARATOR = "⎯";
const FRAME_WIDTH = 80; // code frame lines are cut to the terminal width

/** describe/it names from a test file (nesting follows indentation). */
export function collectTests(source) {
  const stack = [];
  const tests = [];
  for (const line of source.split("\n")) {
    const m = /^(\s*)(describe|it|test)\("((?:[^"\\]|\\.)*)"/.exec(line);
    if (!m) continue;
    const indent = m[1].length;
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    if (m[2] === "describe") stack.push({ indent, name: m[3] });
    else tests.push({ suites: stack.map((s) => s.name), name: m[3] });
  }
  return tests;
}

/**
 * @param {object} o
 * @param {import("./virtual-project.mjs").VirtualProject} o.project
 * @param {string[]} [o.files] test files to run (default: every test/*.test.ts)
 * @param {Array<{file: string, test: string, error: string, diff?: string[], at: string, caret?: string}>} [o.failures]
 *   `at`: text on the failing line; `caret`: where on that line vitest points (default: `at`)
 * @param {Date} o.startedAt
 * @param {ReturnType<import("./deterministic.mjs").createRng>} o.rng
 * @param {boolean} [o.verbose]
 * @param {string} [o.npmScript] prefix with npm's "> pkg@version test" banner
 */
export function vitestRun({ project, files, failures = [], startedAt, rng, verbose = false, npmScript }) {
  const testFiles = files ?? project.list(["test"]).filter((p) => p.endsWith(".test.ts"));
  const lines = [];
  if (npmScript) {
    const pkg = JSON.parse(project.read("package.json"));
    lines.push("", `> ${pkg.name}@${pkg.version} ${npmScript}`, `> ${pkg.scripts[npmScript]}`, "");
  }
  lines.push("", ` RUN  v1.6.0 ${project.cwd}`, "");

  let passed = 0;
  let failed = 0;
  let testsMs = 0;
  const order = [...testFiles].sort((a, b) => project.read(a).length - project.read(b).length);
  for (const file of order) {
    const tests = collectTests(project.read(file));
    const fileFailures = failures.filter((f) => f.file === file);
    for (const f of fileFailures) {
      if (!tests.some((t) => [...t.suites, t.name].join(" > ") === f.test)) throw new Error(`scenario bug: no test "${f.test}" in ${file}`);
    }
    const touchesDisk = /cli|store|done/.test(file);
    const ms = tests.length * rng.int(1, 3) + (touchesDisk ? rng.int(15, 40) : 0);
    testsMs += ms;
    failed += fileFailures.length;
    passed += tests.length - fileFailures.length;
    const counts = fileFailures.length > 0 ? `(${tests.length} tests | ${fileFailures.length} failed)` : `(${tests.length} tests)`;
    lines.push(` ${fileFailures.length > 0 ? "❯" : "✓"} ${file}  ${counts} ${ms}ms`);
    if (verbose) {
      for (const t of tests) {
        const full = [...t.suites, t.name].join(" > ");
        const bad = fileFailures.find((f) => f.test === full);
        lines.push(`   ${bad ? "×" : "✓"} ${full}${bad ? "" : ` ${rng.int(0, 9)}ms`}`);
      }
    } else {
      for (const f of fileFailures) {
        lines.push(`   ❯ ${file} > ${f.test}`, `     → ${f.error.replace(/^\w*Error: /, "")}`);
      }
    }
  }

  if (failures.length > 0) {
    lines.push("", `${SEPARATOR.repeat(7)} Failed Tests ${failures.length} ${SEPARATOR.repeat(7)}`, "");
    failures.forEach((f, i) => {
      lines.push(` FAIL  ${f.file} > ${f.test}`, f.error);
      if (f.diff) lines.push("", "- Expected", "+ Received", "", ...f.diff);
      lines.push("", ...codeFrame(project.read(f.file), f), "", `${SEPARATOR.repeat(24)}[${i + 1}/${failures.length}]${SEPARATOR}`, "");
    });
  } else {
    lines.push("");
  }

  const fileSummary = failed > 0 ? `${new Set(failures.map((f) => f.file)).size} failed | ${testFiles.length - new Set(failures.map((f) => f.file)).size} passed` : `${testFiles.length} passed`;
  const testSummary = failed > 0 ? `${failed} failed | ${passed} passed` : `${passed} passed`;
  const transform = rng.int(180, 260);
  const collect = rng.int(300, 420);
  const prepare = rng.int(900, 1200);
  const hhmmss = startedAt.toISOString().slice(11, 19);
  lines.push(
    ` Test Files  ${fileSummary} (${testFiles.length})`,
    `      Tests  ${testSummary} (${passed + failed})`,
    `   Start at  ${hhmmss}`,
    `   Duration  ${((prepare + collect + testsMs) / 1000).toFixed(2)}s (transform ${transform}ms, setup 0ms, collect ${collect}ms, tests ${testsMs}ms, environment 0ms, prepare ${prepare}ms)`,
    "",
  );
  return { output: `${lines.join("\n")}\n`, exitCode: failed > 0 ? 1 : 0, passed, failed };
}

/** vitest's code frame: two lines either side of the failing line (the first line in the test containing `at`), caret under the column. */
function codeFrame(source, failure) {
  const sourceLines = source.split("\n");
  const testName = failure.test.split(" > ").pop();
  const start = sourceLines.findIndex((l) => l.includes(`it("${testName}"`));
  const index = sourceLines.findIndex((l, i) => i > start && l.includes(failure.at));
  if (start === -1 || index === -1) throw new Error(`scenario bug: "${failure.at}" not found in ${failure.file} > ${failure.test}`);
  const column = sourceLines[index].indexOf(failure.caret ?? failure.at) + 1;
  const out = [` ❯ ${failure.file}:${index + 1}:${column}`];
  const width = Math.max(3, String(index + 3).length);
  for (let i = Math.max(0, index - 2); i <= Math.min(sourceLines.length - 1, index + 2); i++) {
    const row = `    ${String(i + 1).padStart(width)}| ${sourceLines[i]}`.trimEnd();
    out.push(row.length > FRAME_WIDTH ? `${row.slice(0, FRAME_WIDTH - 1)}…` : row);
    if (i === index) out.push(`    ${" ".repeat(width)}| ${" ".repeat(column - 1)}^`);
  }
  return out;
}
