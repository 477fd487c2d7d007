// The freedesktop.org home trash on a real file system: the file moves (never
// copied and deleted), its .trashinfo says where it came from and when, names
// never collide, and a failure leaves the file where it was.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { homeTrashDir, moveToFreedesktopTrash, TrashUnavailableError } from "../../../src/core/trash/freedesktop-trash.js";
import { removeDir, tempDir } from "../write/support/sessions.js";

const dir = tempDir("pi-sessions-trash-");
afterAll(() => removeDir(dir));

describe("moveToFreedesktopTrash", () => {
  it("moves the file into files/ with an info/*.trashinfo (Path percent-encoded, local DeletionDate)", () => {
    const trash = join(dir, "Trash");
    const folder = join(dir, "my sessions");
    mkdirSync(folder, { recursive: true });
    const file = join(folder, "a%b.jsonl");
    writeFileSync(file, "content\n");
    const to = moveToFreedesktopTrash(file, { trashDir: trash, now: new Date(2026, 0, 2, 3, 4, 5) });
    expect(existsSync(file)).toBe(false);
    expect(to).toBe(join(trash, "files", "a%b.jsonl"));
    expect(readFileSync(to, "utf8")).toBe("content\n");
    expect(readFileSync(join(trash, "info", "a%b.jsonl.trashinfo"), "utf8")).toBe(
      `[Trash Info]\nPath=${dir.split("/").map(encodeURIComponent).join("/")}/my%20sessions/a%25b.jsonl\nDeletionDate=2026-01-02T03:04:05\n`,
    );
  });

  it("a second file of the same name gets name.2.ext", () => {
    const trash = join(dir, "Trash2");
    for (const sub of ["x", "y"]) {
      mkdirSync(join(dir, sub), { recursive: true });
      writeFileSync(join(dir, sub, "s.jsonl"), sub);
    }
    moveToFreedesktopTrash(join(dir, "x", "s.jsonl"), { trashDir: trash });
    const second = moveToFreedesktopTrash(join(dir, "y", "s.jsonl"), { trashDir: trash });
    expect(second).toBe(join(trash, "files", "s.2.jsonl"));
    expect(readFileSync(second, "utf8")).toBe("y");
    expect(existsSync(join(trash, "info", "s.2.jsonl.trashinfo"))).toBe(true);
  });

  it("a missing file: TrashUnavailableError and no .trashinfo left behind", () => {
    const trash = join(dir, "Trash3");
    expect(() => moveToFreedesktopTrash(join(dir, "nope.jsonl"), { trashDir: trash })).toThrow(TrashUnavailableError);
    expect(existsSync(join(trash, "info", "nope.jsonl.trashinfo"))).toBe(false);
  });

  it("the home trash: $XDG_DATA_HOME/Trash when absolute, else ~/.local/share/Trash", () => {
    expect(homeTrashDir({ XDG_DATA_HOME: "/data" }, "/home/u")).toBe("/data/Trash");
    expect(homeTrashDir({ XDG_DATA_HOME: "relative" }, "/home/u")).toBe("/home/u/.local/share/Trash");
    expect(homeTrashDir({}, "/home/u")).toBe("/home/u/.local/share/Trash");
  });
});
