// Counts a user reads say "1 session", never "1 sessions": every one is made by
// counted(); a count written out by hand with a fixed plural fails here (but an
// agent's own text reproduced exactly, marked `// omp's own words`).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { counted } from "../../../src/core/text/counted.js";

const SRC = new URL("../../../src/", import.meta.url).pathname;
const NOUNS = "entries|sessions|messages|files|images|branches|forks|changes|replacements|edits|steps|matches|lines|days|calls|results|projects|folders|problems|labels|errors|warnings|tabs|rows";
const HAND_WRITTEN = new RegExp(`\\$\\{[^{}]+\\} (${NOUNS})\\b`);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("counted", () => {
  it("one and many", () => {
    expect(counted(1, "session")).toBe("1 session");
    expect(counted(0, "session")).toBe("0 sessions");
    expect(counted(2, "entry")).toBe("2 entries");
    expect(counted(1, "entry")).toBe("1 entry");
    expect(counted(3, "branch")).toBe("3 branches");
  });

  it("no count in src/ is written with a fixed plural", () => {
    const found = sources(SRC).flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, i) => (HAND_WRITTEN.test(line) && !line.includes("own words") ? [`${path.slice(SRC.length)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
