// Running pi itself: finding its executable (a configured command or `pi` on
// PATH), the argument lists for resuming and forking a session (`pi --session
// <path>`, `pi --fork <path>`, as `pi --help` of 1.5.2 and 0.73.1 name them),
// and the same invocation as a line to paste into a shell.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

export const PI_INSTALL_COMMAND = "npm i -g @earendil-works/pi-coding-agent";

export type PiAction = "resume" | "fork";

export function piArgs(action: PiAction, sessionPath: string): string[] {
  return [action === "resume" ? "--session" : "--fork", sessionPath];
}

function isExecutableFile(path: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (platform !== "win32") accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The executable for `command` (default `pi`): an absolute path as it is, when
 * it is an executable file; a bare name looked up on PATH (with PATHEXT on
 * Windows). undefined when there is none.
 */
export function findPiExecutable(
  command: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const name = command?.trim() || "pi";
  if (isAbsolute(name)) return isExecutableFile(name, platform) ? name : undefined;
  if (name.includes("/") || name.includes("\\")) return undefined;
  const path = env.PATH ?? env.Path ?? "";
  const extensions = platform === "win32" ? ["", ...(env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)] : [""];
  for (const dir of path.split(platform === "win32" ? ";" : delimiter)) {
    if (!dir) continue;
    for (const ext of extensions) {
      const candidate = join(dir, name + ext);
      if (isExecutableFile(candidate, platform)) return candidate;
    }
  }
  return undefined;
}

/** One word for a POSIX shell (single quotes) or cmd/PowerShell (double quotes). */
export function shellQuote(word: string, platform: NodeJS.Platform = process.platform): string {
  if (/^[A-Za-z0-9_\-./:@%+=,]+$/.test(word)) return word;
  if (platform === "win32") return `"${word.replace(/"/g, '""')}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `pi --session '<path>'` as a line to paste into a terminal. */
export function piCommandLine(command: string, args: readonly string[], platform: NodeJS.Platform = process.platform): string {
  return [command, ...args].map((w) => shellQuote(w, platform)).join(" ");
}
