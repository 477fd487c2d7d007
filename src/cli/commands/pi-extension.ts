import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { extensionStatus, installExtension, PI_EXTENSION_FILE, SetupError, uninstallExtension, type ExtensionStatus, type ScopeStatus } from "../../core/pi-extension-setup/index.js";
import { boolFlag, stringFlag } from "../args";
import type { Command, CommandContext } from "../command";
import { CliError, EXIT_BAD_INPUT, EXIT_REFUSED, UsageError } from "../errors";
import { printJson, printLines } from "../output";
import { resolveAgentDir } from "../session-input";

/** The extension beside this CLI bundle (dist/), or the checkout's dist/ when run from the sources. */
function defaultExtensionPath(): string {
  const beside = join(__dirname, PI_EXTENSION_FILE);
  if (existsSync(beside)) return beside;
  return resolve(__dirname, "..", "..", "..", "dist", PI_EXTENSION_FILE);
}

function where(ctx: CommandContext): { agentDir: string; cwd: string } {
  const cwd = stringFlag(ctx.args, "cwd");
  return { agentDir: resolveAgentDir(ctx), cwd: cwd ? resolve(ctx.io.processCwd, cwd) : ctx.io.processCwd };
}

function scopeLine(s: ScopeStatus): string {
  if (s.error) return `${s.scope}: ${s.error}`;
  if (s.entries.length === 0) return `${s.scope}: not listed in ${s.settingsFile}`;
  const missing = s.missing.length > 0 ? ` (missing: ${s.missing.join(", ")})` : "";
  return `${s.scope}: listed in ${s.settingsFile}: ${s.entries.join(", ")}${missing}`;
}

function statusLines(status: ExtensionStatus): string[] {
  return [
    status.active ? "active: pi loads the pi-sessions extension at its next start" : "not active: pi does not load the pi-sessions extension",
    scopeLine(status.global),
    scopeLine(status.project),
  ];
}

export const piExtensionCommand: Command = {
  name: "pi-extension",
  usage: "pi-extension install|uninstall|status [--project|--global] [--path FILE] [--json]",
  summary: "Add the pi extension (pi's own /compact, auto-compaction and /tree summaries through pi-sessions) to pi's settings, remove it, or say whether it is active.",
  flags: { project: { value: false }, global: { value: false }, path: { value: true } },
  async run(ctx) {
    const [action, extra] = ctx.args.positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    if (action !== "install" && action !== "uninstall" && action !== "status") throw new UsageError("'pi-extension' needs install, uninstall or status");
    const project = boolFlag(ctx.args, "project");
    const global = boolFlag(ctx.args, "global");
    if (project && global) throw new UsageError("--project and --global exclude each other");
    const pathFlag = stringFlag(ctx.args, "path");
    const extensionPath = pathFlag ? resolve(ctx.io.processCwd, pathFlag) : defaultExtensionPath();
    const location = where(ctx);
    try {
      if (action === "install") {
        if (!existsSync(extensionPath)) throw new CliError(`${extensionPath}: no such file (build pi-sessions first: npm run build, or give --path FILE)`, EXIT_BAD_INPUT);
        const change = await installExtension(project ? "project" : "global", location, extensionPath);
        const status = extensionStatus(location, extensionPath);
        if (ctx.json) printJson(ctx, { changed: change.changed, settingsFile: change.settingsFile, extensionPath, status });
        else printLines(ctx, [change.changed ? `listed ${extensionPath} in ${change.settingsFile}` : `already listed in ${change.settingsFile}`, "pi loads it at its next start (/reload in a running pi)."]);
        return 0;
      }
      if (action === "uninstall") {
        const changes = await uninstallExtension(project ? "project" : global ? "global" : undefined, location, extensionPath);
        const status = extensionStatus(location, extensionPath);
        if (ctx.json) printJson(ctx, { changed: changes.some((c) => c.changed), changes, status });
        else printLines(ctx, changes.map((c) => (c.changed ? `removed from ${c.settingsFile}` : `not listed in ${c.settingsFile}`)));
        return 0;
      }
      const status = extensionStatus(location, extensionPath);
      if (ctx.json) printJson(ctx, status);
      else printLines(ctx, statusLines(status));
      return 0;
    } catch (error) {
      if (error instanceof SetupError) throw new CliError(error.message, EXIT_REFUSED);
      throw error;
    }
  },
};
