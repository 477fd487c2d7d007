// The scratch folder of one VS Code launch: a copy of the workspace fixture (runs never
// touch committed files), a pi agent folder holding the fixture sessions, user data with
// settings.json, an empty extensions folder, HOME and TMPDIR.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RunFolder {
  readonly dir: string;
  readonly workspaceDir: string;
  /** What PI_CODING_AGENT_DIR points at in the extension host. */
  readonly agentDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** Where a test index writes its counts (PI_SESSIONS_VSCODE_RESULT_FILE). */
  readonly resultFile: string;
  /** Where a test index in the extension host writes its reporter's lines (PI_SESSIONS_VSCODE_OUTPUT_FILE). */
  readonly outputFile: string;
  remove(): Promise<void>;
}

export interface RunFolderOptions {
  /** Folder copied to be the workspace; default test/vscode/workspace/project. */
  workspaceFixture: string;
  /** Folder of *.jsonl sessions placed where pi keeps the workspace's sessions, or null for none. */
  sessionsFixture: string | null;
  /** User settings; merged over the quiet defaults below. */
  settings: Record<string, unknown>;
}

/** Keeps the workbench quiet and deterministic for tests and screenshots. */
export const DEFAULT_USER_SETTINGS: Record<string, unknown> = {
  "workbench.colorTheme": "Default Dark Modern",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.banner": "never",
  "window.restoreWindows": "none",
  // code-server's extension host looks for new listening ports every 2 s or more (reading /proc,
  // spawning processes): 40–50 ms of the host's CPU that landed in whichever write the benchmark was
  // measuring. "output" stops that scan (code-server has a tunnel provider, so the first alone does not).
  "remote.autoForwardPorts": false,
  "remote.autoForwardPortsSource": "output",
};

/** pi's folder name for a cwd's sessions (session-manager.js getDefaultSessionDir). */
export function piSessionFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

export function userSettingsPath(userDataDir: string): string {
  return join(userDataDir, "User", "settings.json");
}

export async function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): Promise<void> {
  await mkdir(join(userDataDir, "User"), { recursive: true });
  await writeFile(userSettingsPath(userDataDir), JSON.stringify(settings, null, 2) + "\n");
}

/** Copies the fixture sessions, pointing each header's cwd at the copied workspace as pi would have written it. */
async function placeSessions(fixture: string, sessionDir: string, workspaceDir: string): Promise<void> {
  await mkdir(sessionDir, { recursive: true });
  for (const name of await readdir(fixture)) {
    if (!name.endsWith(".jsonl")) continue;
    const text = await readFile(join(fixture, name), "utf8");
    const newline = text.indexOf("\n");
    const firstLine = newline === -1 ? text : text.slice(0, newline);
    let header: unknown;
    try {
      header = JSON.parse(firstLine);
    } catch {
      header = undefined;
    }
    const isHeader = typeof header === "object" && header !== null && (header as { type?: unknown }).type === "session";
    const rewritten = isHeader ? JSON.stringify({ ...(header as object), cwd: workspaceDir }) + text.slice(firstLine.length) : text;
    const path = join(sessionDir, name);
    await writeFile(path, rewritten);
    // Last written when pi wrote its newest entry, as a session pi left behind (a copy made now would
    // look active: a session's last activity counts the file's mtime).
    const newest = newestTimestamp(rewritten);
    if (newest !== undefined) await utimes(path, new Date(newest), new Date(newest));
  }
}

/** Session files copied with the workspace: last written when pi wrote their newest entry (see placeSessions). */
async function ageSessionFiles(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await ageSessionFiles(path);
    else if (entry.name.endsWith(".jsonl")) {
      const newest = newestTimestamp(await readFile(path, "utf8"));
      if (newest !== undefined) await utimes(path, new Date(newest), new Date(newest));
    }
  }
}

/** The newest entry timestamp (ms) among the lines that parse, or undefined. */
function newestTimestamp(text: string): number | undefined {
  let newest: number | undefined;
  for (const line of text.split("\n")) {
    try {
      const ms = Date.parse((JSON.parse(line) as { timestamp?: unknown }).timestamp as string);
      if (!Number.isNaN(ms) && (newest === undefined || ms > newest)) newest = ms;
    } catch {
      // not a line of JSON: fixtures include damaged files on purpose
    }
  }
  return newest;
}

export async function createRunFolder(options: RunFolderOptions): Promise<RunFolder> {
  const dir = await mkdtemp(join(tmpdir(), "pi-sessions-vscode-"));
  const workspaceDir = join(dir, "workspace");
  const agentDir = join(dir, "agent");
  const userDataDir = join(dir, "user-data");
  const extensionsDir = join(dir, "extensions");
  try {
    await cp(options.workspaceFixture, workspaceDir, { recursive: true });
    await ageSessionFiles(workspaceDir);
    for (const sub of [agentDir, extensionsDir, join(dir, "home"), join(dir, "tmp")]) await mkdir(sub, { recursive: true });
    if (options.sessionsFixture) await placeSessions(options.sessionsFixture, join(agentDir, "sessions", piSessionFolderName(workspaceDir)), workspaceDir);
    await writeUserSettings(userDataDir, { ...DEFAULT_USER_SETTINGS, ...options.settings });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    workspaceDir,
    agentDir,
    userDataDir,
    extensionsDir,
    resultFile: join(dir, "result.json"),
    outputFile: join(dir, "output.log"),
    remove: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
  };
}
