// One-step setup of the pi extension, the way pi documents loading a local
// extension: its path in the "extensions" array of pi's global settings
// (<agent-dir>/settings.json) or of a project's (<cwd>/.pi/settings.json).
// Install adds it (replacing an older path of ours), uninstall removes every
// path of ours, status says where it is listed and whether the file is there.
// The settings file is edited under pi's own lock (proper-lockfile's
// "<file>.lock" folder), every other key kept; a file that is not a JSON object
// is refused, never overwritten.

import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { withFileLock } from "../summarize/file-lock.js";

export type SetupScope = "global" | "project";

/** The file name pi loads (the stub); the bundle beside it is pi-extension-main.js. */
export const PI_EXTENSION_FILE = "pi-extension.js";

export interface SetupLocation {
  /** pi's agent dir. */
  agentDir: string;
  /** The project folder (for the project scope). */
  cwd: string;
}

export interface ScopeStatus {
  scope: SetupScope;
  settingsFile: string;
  /** Our entries in its "extensions" (absolute paths as pi resolves them). */
  entries: string[];
  /** Entries whose file is missing (e.g. an uninstalled VS Code extension version). */
  missing: string[];
  /** The settings file cannot be read as a JSON object (the reason); nothing is changed in it. */
  error?: string;
}

export interface ExtensionStatus {
  /** The extension file this install would add. */
  extensionPath: string;
  global: ScopeStatus;
  project: ScopeStatus;
  /** Listed in some scope with its file present: pi loads it at its next start. */
  active: boolean;
}

export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SetupError";
  }
}

export function piSettingsFile(scope: SetupScope, where: SetupLocation): string {
  return scope === "global" ? join(where.agentDir, "settings.json") : join(where.cwd, ".pi", "settings.json");
}

/** pi resolves a relative "extensions" path against the settings file's base (agent dir, or the project's .pi folder). */
function absoluteEntry(entry: string, settingsFile: string): string {
  if (entry.startsWith("~/")) return join(process.env.HOME ?? "", entry.slice(2));
  return isAbsolute(entry) ? entry : resolve(dirname(settingsFile), entry);
}

/** Ours: this very file, or any `…/pi-extension.js` with our bundle beside it. */
function isOurs(path: string, extensionPath: string): boolean {
  if (resolve(path) === resolve(extensionPath)) return true;
  return basename(path) === PI_EXTENSION_FILE && (existsSync(join(dirname(path), "pi-extension-main.js")) || /pi-sessions/i.test(path));
}

interface SettingsRead {
  settings: Record<string, unknown>;
  exists: boolean;
  error?: string;
}

function readSettings(file: string): SettingsRead {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return { settings: {}, exists: false };
    return { settings: {}, exists: true, error: `${file} cannot be read (${(error as Error).message})` };
  }
  if (text.trim() === "") return { settings: {}, exists: true };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { settings: {}, exists: true, error: `${file} does not hold a JSON object` };
    return { settings: parsed as Record<string, unknown>, exists: true };
  } catch (error) {
    return { settings: {}, exists: true, error: `${file} is not valid JSON (${(error as Error).message})` };
  }
}

function extensionsOf(settings: Record<string, unknown>): string[] {
  const list = settings.extensions;
  return Array.isArray(list) ? list.filter((e): e is string => typeof e === "string") : [];
}

function scopeStatus(scope: SetupScope, where: SetupLocation, extensionPath: string): ScopeStatus {
  const settingsFile = piSettingsFile(scope, where);
  const read = readSettings(settingsFile);
  const entries = extensionsOf(read.settings)
    .map((e) => absoluteEntry(e, settingsFile))
    .filter((e) => isOurs(e, extensionPath));
  return { scope, settingsFile, entries, missing: entries.filter((e) => !existsSync(e)), ...(read.error ? { error: read.error } : {}) };
}

export function extensionStatus(where: SetupLocation, extensionPath: string): ExtensionStatus {
  const global = scopeStatus("global", where, extensionPath);
  const project = scopeStatus("project", where, extensionPath);
  const active = [global, project].some((s) => s.entries.some((e) => existsSync(e)));
  return { extensionPath, global, project, active };
}

async function editExtensions(file: string, edit: (entries: unknown[]) => unknown[]): Promise<boolean> {
  await mkdir(dirname(file), { recursive: true });
  return withFileLock(file, async () => {
    const read = readSettings(file);
    if (read.error) throw new SetupError(`${read.error}: fix it first (pi ignores it too); nothing was changed`);
    if (read.settings.extensions !== undefined && !Array.isArray(read.settings.extensions)) {
      throw new SetupError(`${file}: "extensions" is not a list; nothing was changed`);
    }
    const before = (read.settings.extensions as unknown[] | undefined) ?? [];
    const after = edit(before);
    if (JSON.stringify(after) === JSON.stringify(before)) return false;
    const next: Record<string, unknown> = { ...read.settings };
    if (after.length > 0) next.extensions = after;
    else delete next.extensions;
    await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, 0o644);
    return true;
  });
}

export interface SetupChange {
  settingsFile: string;
  changed: boolean;
}

/** Lists the extension in the scope's settings (an older path of ours is replaced). */
export async function installExtension(scope: SetupScope, where: SetupLocation, extensionPath: string): Promise<SetupChange> {
  if (!existsSync(extensionPath)) throw new SetupError(`${extensionPath} does not exist: build pi-sessions first (npm run build)`);
  const settingsFile = piSettingsFile(scope, where);
  const wanted = resolve(extensionPath);
  const changed = await editExtensions(settingsFile, (entries) => {
    const kept = entries.filter((e) => typeof e !== "string" || !isOurs(absoluteEntry(e, settingsFile), wanted));
    return [...kept, wanted];
  });
  return { settingsFile, changed };
}

/** Removes every path of ours from the scope's settings (both scopes when none is given). */
export async function uninstallExtension(scope: SetupScope | undefined, where: SetupLocation, extensionPath: string): Promise<SetupChange[]> {
  const scopes: SetupScope[] = scope ? [scope] : ["global", "project"];
  const changes: SetupChange[] = [];
  for (const s of scopes) {
    const settingsFile = piSettingsFile(s, where);
    if (!existsSync(settingsFile)) {
      changes.push({ settingsFile, changed: false });
      continue;
    }
    const changed = await editExtensions(settingsFile, (entries) => entries.filter((e) => typeof e !== "string" || !isOurs(absoluteEntry(e, settingsFile), extensionPath)));
    changes.push({ settingsFile, changed });
  }
  return changes;
}
