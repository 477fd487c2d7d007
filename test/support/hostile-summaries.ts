// The hostile-summary corpus (test/fixtures/hostile-summaries): each case's
// summary repeated as the case says. The folder is passed in: unit tests and the
// compiled real-VS-Code suites find it from different places.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface HostileCase<File = unknown, State = unknown> {
  /** The file name without `.json`. */
  name: string;
  description: string;
  /** The summary, already repeated `repeat` times. */
  summary: string;
  repeat?: number;
  minChars?: number;
  files?: File[];
  state?: State;
  visibleText: string[];
}

/** Every case, sorted by name; without the `large*` ones unless asked. */
export function loadHostileCases<File = unknown, State = unknown>(corpus: string, options: { large?: boolean } = {}): HostileCase<File, State>[] {
  return readdirSync(corpus)
    .filter((name) => name.endsWith(".json") && (options.large || !name.startsWith("large")))
    .sort()
    .map((name) => {
      const raw = JSON.parse(readFileSync(join(corpus, name), "utf8")) as Omit<HostileCase<File, State>, "name">;
      return { ...raw, name: name.replace(/\.json$/, ""), summary: raw.summary.repeat(raw.repeat ?? 1) };
    });
}
