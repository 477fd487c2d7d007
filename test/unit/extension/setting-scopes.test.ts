// Settings scoped to the machine (machine, machine-overridable) do not show in
// the User tab of a remote window: each one's description says where it is.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface Setting {
  scope?: string;
  markdownDescription?: string;
  description?: string;
}

const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { contributes: { configuration: { properties: Record<string, Setting> } | { properties: Record<string, Setting> }[] } };
const groups = Array.isArray(manifest.contributes.configuration) ? manifest.contributes.configuration : [manifest.contributes.configuration];
const settings = groups.flatMap((g) => Object.entries(g.properties));

describe("machine-scoped settings", () => {
  it("say they live in the Remote tab of a remote window", () => {
    const machine = settings.filter(([, s]) => s.scope === "machine" || s.scope === "machine-overridable");
    expect(machine.map(([name]) => name).sort()).toEqual(["piSessions.agentDir", "piSessions.piCommand", "piSessions.sessionFolders"]);
    for (const [name, s] of machine) expect(s.markdownDescription ?? s.description, name).toMatch(/in a remote window .* \*\*Remote\*\* tab/);
  });
});
