// Which pi the user has: the `pi` command on PATH, resolved through its
// symlinks to the package it belongs to, read from that package.json
// (`@earendil-works/pi-coding-agent` → 1.5, `@mariozechner/pi-coding-agent` →
// 0.73). Never executes anything.

import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { parsePiVersion, type PiVersion } from "../session/format/pi-version.js";

export interface InstalledPi {
  version: PiVersion;
  /** The package's own version string, e.g. "1.5.2". */
  packageVersion: string;
  packageName: string;
  /** The `pi` found on PATH. */
  command: string;
}

const PACKAGES: Readonly<Record<string, PiVersion>> = {
  "@earendil-works/pi-coding-agent": "1.5",
  "@mariozechner/pi-coding-agent": "0.73",
};

const MAX_PACKAGE_DEPTH = 6;

function readPackage(dir: string): { name?: unknown; version?: unknown } | undefined {
  const file = join(dir, "package.json");
  if (!existsSync(file)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as { name?: unknown; version?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/** The pi package a resolved command file belongs to, looking up from its folder. */
export function piPackageOf(commandFile: string): Omit<InstalledPi, "command"> | undefined {
  let dir = dirname(commandFile);
  for (let depth = 0; depth < MAX_PACKAGE_DEPTH; depth++) {
    const pkg = readPackage(dir);
    if (pkg && typeof pkg.name === "string" && pkg.name in PACKAGES) {
      const packageVersion = typeof pkg.version === "string" ? pkg.version : "";
      const version = parsePiVersion(packageVersion) ?? PACKAGES[pkg.name]!;
      return { version, packageVersion, packageName: pkg.name };
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

function shimPackage(binDir: string): Omit<InstalledPi, "command"> | undefined {
  for (const name of Object.keys(PACKAGES)) {
    const found = piPackageOf(join(binDir, "node_modules", name, "package.json"));
    if (found) return found;
  }
  return undefined;
}

const COMMAND_NAMES = process.platform === "win32" ? ["pi.cmd", "pi.exe", "pi"] : ["pi"];

/** The first `pi` on `PATH` that belongs to a pi package; undefined when none does. */
export function findInstalledPi(env: Readonly<Record<string, string | undefined>> = process.env): InstalledPi | undefined {
  const path = env.PATH ?? env.Path ?? "";
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    for (const name of COMMAND_NAMES) {
      const command = join(dir, name);
      let resolved: string;
      try {
        if (!statSync(command).isFile()) continue;
        resolved = realpathSync(command);
      } catch {
        continue;
      }
      // A symlink into the package (npm on Unix), else a shim beside `node_modules` (npm on Windows).
      const found = piPackageOf(resolved) ?? shimPackage(dir);
      if (found) return { ...found, command };
      // The first `pi` on PATH is the one the user runs; an unknown one decides nothing.
      return undefined;
    }
  }
  return undefined;
}
