// Property: the index's results equal a brute-force scan by pi 1.5.2's own
// code (test/support/pi15-session-search.ts: buildSessionInfo on every file,
// then filterAndSortSessions in relevance order) on random sessions and
// random queries — before and after appends, rewrites and deletions.
import fc from "fast-check";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/core/search/search-index";
import { normalizeWhitespaceLower } from "../../../src/core/search/query";
import { buildSessionInfo, filterAndSortSessions } from "../../support/pi15-session-search";
import { header, messageLine, nameLine, removeDir, tempDir } from "./support";

const WORDS = ["parser", "Parser", "bug", "fix", "cache", "ÉTÉ", "naïve", "quote", "v2", "2v", "rust", "test", "tests", "σοφία", "ΣΟΦΟΣ", "x", "a-b", "foo_bar", "prs", "wrk"];
const SPACES = [" ", "  ", "\n", "\t", " \n ", "\u00a0"];

const textArb = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SPACES)), { minLength: 0, maxLength: 8 })
  .chain((parts) => fc.tuple(fc.constant(parts.map(([w, s]) => w + s).join("")), fc.constantFrom("", " ", "\n", " x")))
  .map(([t, tail]) => t + tail);

const messageArb = fc.record({
  role: fc.constantFrom("user", "assistant", "toolResult", "assistant"),
  text: textArb,
  blocks: fc.boolean(),
});

const sessionArb = fc.record({
  cwd: fc.constantFrom("/work/parser", "/home/u/Rust Cache", "/tmp/x", ""),
  name: fc.option(fc.constantFrom("Parser fix", "  release  notes ", "", "v2 plan", "naïve cache"), { nil: undefined }),
  messages: fc.array(messageArb, { maxLength: 6 }),
  badLine: fc.boolean(),
  longLines: fc.boolean(),
  crlf: fc.boolean(),
});

type SessionSpec = { cwd: string; name: string | undefined; messages: { role: string; text: string; blocks: boolean }[]; badLine: boolean; longLines: boolean; crlf: boolean };

const queryArb = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
  fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 3 }).map((w) => `"${w.join(" ")}"`),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `${a} "${b}`),
  fc.constantFrom("prs", "rsc", "pf", "wrk", "/tmp", "s1", "S2-", "release notes", '"release   notes"', "re:^parser", "re:bug$", "re:p.rser\\s+bug", "re:(", "re:", "re:\\bv2\\b", "re:cache|quote", "re:ΣΟΦ", "zeppelin", "re:zeppelin", '""', "   ", "naive", "NAÏVE", "σοφος"),
);

function sessionLines(id: string, s: SessionSpec, t0: number): string[] {
  const lines = [header(id, s.cwd, new Date(t0).toISOString())];
  let parent: string | null = null;
  s.messages.forEach((m, i) => {
    lines.push(messageLine(`${id}-e${i}`, parent, m as never, t0 + (i + 1) * 1000));
    parent = `${id}-e${i}`;
    if (s.badLine && i === 0) lines.push("{not json");
    if (s.longLines && i === 0) {
      // Long lines take the readers' skimming paths: a tool result (skimmed), and a user message cut short (pi skips it).
      const long = `${m.text} ${"zeppelin cache ".repeat(200)}`;
      lines.push(messageLine(`${id}-t`, parent, { role: "toolResult", text: long } as never, t0 + 1500));
      const cut = messageLine(`${id}-c`, parent, { role: "user", text: `parser bug ${long}` } as never, t0 + 1600);
      lines.push(cut.slice(0, cut.length - 40));
    }
  });
  if (s.name !== undefined) lines.push(nameLine(`${id}-n`, parent, s.name));
  return lines;
}

function write(path: string, lines: string[], crlf: boolean): void {
  writeFileSync(path, lines.map((l) => `${l}${crlf ? "\r\n" : "\n"}`).join(""));
}

function oracle(paths: string[], query: string): string[] {
  const infos = paths.map((p) => buildSessionInfo(p)).filter((i) => i !== null);
  infos.sort((a, b) => b.modified.getTime() - a.modified.getTime() || (a.path < b.path ? -1 : 1));
  return filterAndSortSessions(infos, query, "relevance").map((i: { path: string }) => i.path);
}

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe("search equals pi 1.5.2's brute-force scan", () => {
  it("on random sessions and queries, across appends, rewrites and deletions", async () => {
    let queries = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(sessionArb, { minLength: 1, maxLength: 8 }),
        fc.array(queryArb, { minLength: 3, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(7), fc.constantFrom("append", "rewrite", "delete", "name"), messageArb), { maxLength: 4 }),
        async (sessions, qs, changes) => {
          const dir = tempDir();
          dirs.push(dir);
          const paths = sessions.map((s, i) => {
            const path = join(dir, `s${i}.jsonl`);
            write(path, sessionLines(`id${i}-S${i}`, s, Date.UTC(2026, 0, 1 + i)), s.crlf);
            return path;
          });
          // maxSegments 1: every update with changes also compacts (rows with appended chunks are copied).
          const index = new SearchIndex(join(dir, "cache"), { maxSegments: 1 });
          let changed = false;
          const check = async (): Promise<void> => {
            for (const q of qs) {
              const ours = await index.search(paths, q, { maxMatchesPerSession: 1000 });
              const expected = oracle(paths, q);
              expect(ours.sessions.map((s) => s.path), q).toEqual(expected);
              // Asked for the first two only (a picker), a re: query may stop early: the same two.
              const first = await index.search(paths, q, { limit: 2, firstOnly: true });
              expect(first.sessions.map((s) => s.path), q).toEqual(expected.slice(0, 2));
              queries++;
              // Before any change, every message containing a word of the query is among the matches.
              if (!q.trim().startsWith("re:") && !q.includes('"') && !changed) {
                const needles = q.split(/\s+/).filter(Boolean).map((w) => w.toLowerCase());
                for (const hit of ours.sessions) {
                  const n = paths.indexOf(hit.path);
                  const found = hit.matches.map((m) => m.entryId);
                  sessions[n]!.messages.forEach((m, i) => {
                    if (m.role !== "toolResult" && needles.some((w) => normalizeWhitespaceLower(m.text).includes(w))) expect(found).toContain(`id${n}-S${n}-e${i}`);
                  });
                }
              }
            }
          };
          await check();
          for (const [i, kind, m] of changes) {
            const path = paths[i % paths.length]!;
            if (kind === "append") appendFileSync(path, `${messageLine(`app${i}-${Math.random()}`, null, m as never, Date.UTC(2026, 2, 1))}\n`);
            else if (kind === "name") appendFileSync(path, `${nameLine(`nm${i}`, null, "Parser renamed")}\n`);
            else if (kind === "rewrite") write(path, sessionLines(`rw${i}-S`, { ...sessions[0]!, messages: [m] }, Date.UTC(2026, 1, 1)), false);
            else rmSync(path, { force: true });
          }
          changed = true;
          if (changes.length) await check();
        },
      ),
      { numRuns: 50 },
    );
    expect(queries).toBeGreaterThanOrEqual(100);
  }, 240_000);
});
