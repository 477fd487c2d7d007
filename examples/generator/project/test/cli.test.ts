import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HELP, run, VERSION } from "../src/cli.js";
import { fakeIo, tempDir, type FakeIo } from "./helpers.js";

describe("todo cli", () => {
  let cleanup: () => Promise<void>;
  let io: FakeIo;

  beforeEach(async () => {
    const tmp = await tempDir();
    cleanup = tmp.cleanup;
    io = fakeIo({ TODO_FILE: join(tmp.dir, "todos.json") });
  });

  afterEach(async () => {
    await cleanup();
  });

  async function todo(...argv: string[]): Promise<number> {
    io.out.length = 0;
    io.err.length = 0;
    return run(argv, io);
  }

  it("prints help without a command", async () => {
    expect(await todo()).toBe(0);
    expect(io.out).toEqual([HELP]);
  });

  it("prints the version", async () => {
    expect(await todo("--version")).toBe(0);
    expect(io.out).toEqual([VERSION]);
  });

  it("adds and lists todos", async () => {
    expect(await todo("add", "buy", "milk", "--tag", "errand")).toBe(0);
    expect(io.out).toEqual(["Added #1: buy milk"]);
    await todo("add", "file taxes", "--priority", "high", "--due", "2024-05-31");
    expect(await todo("list")).toBe(0);
    expect(io.out).toEqual(["  1. buy milk  #errand", "  2. ! file taxes  due in 11 days", "2 todos"]);
  });

  it("says so when the list is empty", async () => {
    await todo("list");
    expect(io.out).toEqual(['Nothing to do. Add a todo with: todo add "text"']);
  });

  it("filters the list by tag", async () => {
    await todo("add", "a", "--tag", "work");
    await todo("add", "b", "--tag", "home");
    await todo("list", "--tag", "work");
    expect(io.out).toEqual(["  1. a  #work", "1 todo"]);
    await todo("list", "--tag", "garden");
    expect(io.out).toEqual(["No todos match (2 todos in total)."]);
  });

  it("edits a todo", async () => {
    await todo("add", "draft");
    expect(await todo("edit", "1", "final", "text", "--priority", "low")).toBe(0);
    expect(io.out).toEqual(["Updated   1. · final text"]);
  });

  it("removes a todo", async () => {
    await todo("add", "a");
    await todo("add", "b");
    expect(await todo("rm", "1")).toBe(0);
    expect(io.out).toEqual(["Removed #1: a"]);
    await todo("list");
    expect(io.out).toEqual(["  2. b", "1 todo"]);
  });

  it("refuses to clear without --yes", async () => {
    await todo("add", "a");
    expect(await todo("clear")).toBe(2);
    expect(io.err).toEqual(["todo: clear deletes every todo; run it with --yes"]);
    expect(await todo("clear", "--yes")).toBe(0);
    expect(io.out).toEqual(["Removed 1 todo."]);
  });

  it("rejects bad ids, priorities and dates with exit code 2", async () => {
    expect(await todo("rm", "abc")).toBe(2);
    expect(io.err).toEqual(['todo: Expected a todo id, got "abc"']);
    expect(await todo("add", "x", "--priority", "urgent")).toBe(2);
    expect(io.err).toEqual(["todo: Priority must be one of low, normal, high"]);
    expect(await todo("add", "x", "--due", "tomorrow")).toBe(2);
    expect(io.err).toEqual(['todo: Due date must look like 2024-05-31, got "tomorrow"']);
  });

  it("exports Markdown to a file", async () => {
    await todo("add", "desk", "--tag", "work");
    const target = join(io.env.TODO_FILE ?? "", "..", "todos.md");
    expect(await todo("export", "--format", "md", "--output", target)).toBe(0);
    expect(io.out).toEqual([`Exported 1 todo to ${target}`]);
    expect(await readFile(target, "utf8")).toContain("- [ ] desk");
  });

  it("rejects unknown export formats", async () => {
    expect(await todo("export", "--format", "xml")).toBe(2);
    expect(io.err).toEqual(["todo: Export format must be one of csv, md"]);
  });

  it("prints stats", async () => {
    await todo("add", "a", "--priority", "high", "--tag", "work");
    await todo("add", "b", "--tag", "work");
    expect(await todo("stats")).toBe(0);
    expect(io.out).toEqual(["2 todos: 1 high, 1 normal, 0 low", "Top tags: #work (2)"]);
  });

  it("reports unknown commands", async () => {
    expect(await todo("frobnicate")).toBe(2);
    expect(io.err).toEqual(['todo: Unknown command "frobnicate". Run "todo --help" for usage.']);
  });
});
