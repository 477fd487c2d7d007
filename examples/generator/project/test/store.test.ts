import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TodoStore } from "../src/store.js";
import { NOW, tempDir } from "./helpers.js";

describe("TodoStore", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let file: string;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    file = join(dir, "todos.json");
  });

  afterEach(async () => {
    await cleanup();
  });

  it("starts empty when the file does not exist", async () => {
    const store = await TodoStore.open(file);
    expect(store.list()).toEqual([]);
  });

  it("assigns increasing ids", async () => {
    const store = await TodoStore.open(file);
    expect(store.add("one", {}, NOW).id).toBe(1);
    expect(store.add("two", {}, NOW).id).toBe(2);
  });

  it("never reuses the id of a removed todo", async () => {
    const store = await TodoStore.open(file);
    store.add("one", {}, NOW);
    store.add("two", {}, NOW);
    store.remove(2);
    expect(store.add("three", {}, NOW).id).toBe(3);
  });

  it("round-trips through the file", async () => {
    const store = await TodoStore.open(file);
    store.add("water the plants", { priority: "high", tags: ["home"], due: "2024-05-21" }, NOW);
    await store.save();
    const reopened = await TodoStore.open(file);
    expect(reopened.list()).toEqual([
      {
        id: 1,
        text: "water the plants",
        priority: "high",
        tags: ["home"],
        createdAt: "2024-05-20T09:30:00.000Z",
        due: "2024-05-21",
      },
    ]);
  });

  it("writes pretty JSON with a trailing newline", async () => {
    const store = await TodoStore.open(file);
    store.add("one", {}, NOW);
    await store.save();
    const raw = await readFile(file, "utf8");
    expect(raw.endsWith("}\n")).toBe(true);
    expect(raw).toContain('\n  "nextId": 2,');
  });

  it("rejects files that are not todo files", async () => {
    await writeFile(file, JSON.stringify({ hello: "world" }));
    await expect(TodoStore.open(file)).rejects.toThrow("is not a todo file");
  });

  it("recovers nextId from the todos when it is missing", async () => {
    await writeFile(file, JSON.stringify({ version: 1, todos: [{ id: 7, text: "x", priority: "normal", tags: [], createdAt: NOW.toISOString() }] }));
    const store = await TodoStore.open(file);
    expect(store.add("next", {}, NOW).id).toBe(8);
  });

  it("updates text and priority", async () => {
    const store = await TodoStore.open(file);
    store.add("draft", {}, NOW);
    const updated = store.update(1, { text: "final", priority: "low" });
    expect(updated).toMatchObject({ id: 1, text: "final", priority: "low" });
    expect(store.update(99, { text: "nope" })).toBeUndefined();
  });

  it("filters by tag and priority", async () => {
    const store = await TodoStore.open(file);
    store.add("a", { tags: ["work"], priority: "high" }, NOW);
    store.add("b", { tags: ["home"] }, NOW);
    store.add("c", { tags: ["work"] }, NOW);
    expect(store.list({ tag: "work" }).map((t) => t.text)).toEqual(["a", "c"]);
    expect(store.list({ tag: "work", priority: "high" }).map((t) => t.text)).toEqual(["a"]);
  });

  it("sorts by priority, then id", async () => {
    const store = await TodoStore.open(file);
    store.add("low", { priority: "low" }, NOW);
    store.add("high", { priority: "high" }, NOW);
    store.add("normal", {}, NOW);
    store.add("high again", { priority: "high" }, NOW);
    expect(store.list({ sort: "priority" }).map((t) => t.text)).toEqual(["high", "high again", "normal", "low"]);
  });

  it("sorts by due date with undated todos last", async () => {
    const store = await TodoStore.open(file);
    store.add("no date", {}, NOW);
    store.add("later", { due: "2024-06-10" }, NOW);
    store.add("sooner", { due: "2024-05-22" }, NOW);
    expect(store.list({ sort: "due" }).map((t) => t.text)).toEqual(["sooner", "later", "no date"]);
  });

  it("clear removes everything and reports the count", async () => {
    const store = await TodoStore.open(file);
    store.add("a", {}, NOW);
    store.add("b", {}, NOW);
    expect(store.clear()).toBe(2);
    expect(store.list()).toEqual([]);
  });
});
