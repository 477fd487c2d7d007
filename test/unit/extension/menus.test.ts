// A session row's inline actions: the rightmost one sits where VS Code's views
// put a close ✕; it must never be one that writes (Compact), so a user reaching
// for "close" opens something instead.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}

const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { contributes: { menus: Record<string, MenuItem[]> } };
const WRITES = ["piSessions.compactSession", "piSessions.moveToTrash", "piSessions.navigateHere", "piSessions.undoCompaction", "piSessions.migrateSession"];

function inline(view: string): MenuItem[] {
  return manifest.contributes.menus["view/item/context"]!.filter((m) => m.group?.startsWith("inline") && m.when?.includes(`view == ${view}`)).sort((a, b) => Number(a.group!.split("@")[1]) - Number(b.group!.split("@")[1]));
}

describe("inline row actions", () => {
  it("the rightmost action of a session row reads, never writes; Compact comes first", () => {
    const actions = inline("piSessions.sessions");
    expect(actions.map((a) => a.command)).toEqual(["piSessions.compactSession", "piSessions.openReader", "piSessions.openInPi"]);
    expect(WRITES).not.toContain(actions.at(-1)!.command);
  });

  it("Compact's icon is not one that reads as a close ✕ (the fold codicon does, at row size)", () => {
    const commands = (manifest as unknown as { contributes: { commands: { command: string; icon?: string }[] } }).contributes.commands;
    for (const c of commands.filter((c) => c.command === "piSessions.compactSession" || c.command === "piSessions.compactUpToHere")) expect(c.icon, c.command).not.toBe("$(fold)");
  });
});
