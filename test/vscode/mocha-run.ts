// Runs the compiled *.test.js files of one folder with mocha (TDD interface: suite/test),
// in the extension host or in the driver process, and hands the counts to the launcher
// through a file.
import Mocha from "mocha";
import { appendFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";

/** The launcher sets this to a file path; the counts are written there as JSON. */
export const RESULT_FILE_ENV = "PI_SESSIONS_VSCODE_RESULT_FILE";
/**
 * The launcher sets this for runs inside the extension host: the reporter's lines are
 * appended there as they come (the host's console reaches the browser only as unformatted
 * fragments), so even a hung run shows how far it got.
 */
export const OUTPUT_FILE_ENV = "PI_SESSIONS_VSCODE_OUTPUT_FILE";

export interface MochaFailure {
  title: string;
  message: string;
}

export interface MochaCounts {
  passed: number;
  failed: number;
  pending: number;
  /** Each failed test's full title and the first line of its error, for the launcher's summary. */
  failures: MochaFailure[];
}

function readFailures(value: unknown): MochaFailure[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is Record<string, unknown> => !!item && typeof item === "object")
    .map((item) => ({ title: String(item.title ?? ""), message: String(item.message ?? "") }));
}

/** Reads counts back from what runMochaFolder wrote to the result file. */
export function parseCounts(text: string): MochaCounts | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== "object") return undefined;
    const { passed, failed, pending, failures } = value as Record<string, unknown>;
    if (typeof passed !== "number" || typeof failed !== "number") return undefined;
    return { passed, failed, pending: typeof pending === "number" ? pending : 0, failures: readFailures(failures) };
  } catch {
    return undefined;
  }
}

/** Runs every *.test.js in `dir`; `grep` keeps only tests whose full title matches (a regular expression). */
export interface MochaFolderOptions {
  timeoutMs: number;
  grep?: string | undefined;
  /** Runs after each failed test, before the next one (e.g. a screenshot of the page). */
  afterFailure?: (fullTitle: string) => Promise<void>;
}

export function runMochaFolder(dir: string, options: MochaFolderOptions): Promise<MochaCounts> {
  const outputFile = process.env[OUTPUT_FILE_ENV];
  if (outputFile) {
    Mocha.reporters.Base.consoleLog = (...args: unknown[]): void => {
      const line = format(...args);
      appendFileSync(outputFile, line + "\n");
      console.log(line);
    };
  }
  const mocha = new Mocha({ ui: "tdd", color: false, timeout: options.timeoutMs, reporter: "spec" });
  if (options.grep) mocha.grep(new RegExp(options.grep));
  const afterFailure = options.afterFailure;
  if (afterFailure) {
    mocha.suite.afterEach(async function () {
      const test = this.currentTest;
      if (test?.state === "failed") await afterFailure(test.fullTitle()).catch(() => undefined);
    });
  }
  const failures: MochaFailure[] = [];
  const files = readdirSync(dir).filter((name) => name.endsWith(".test.js")).sort();
  for (const name of files) mocha.addFile(join(dir, name));
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run(() => {
        const stats = runner.stats;
        const counts = { passed: stats?.passes ?? 0, failed: stats?.failures ?? 0, pending: stats?.pending ?? 0, failures };
        const resultFile = process.env[RESULT_FILE_ENV];
        if (resultFile) writeFileSync(resultFile, JSON.stringify(counts));
        resolve(counts);
      });
      runner.on("fail", (test, error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        failures.push({ title: test.fullTitle(), message: message.split("\n")[0]!.slice(0, 300) });
      });
    } catch (error) {
      reject(error);
    }
  });
}
