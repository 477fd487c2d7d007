// omp's folder for a cwd under its sessions root (session-paths.ts
// getDefaultSessionDirName): the canonical (realpath) cwd is compared with the
// canonical home and temp root; `-<rel>` under home, `-tmp-<rel>` under the
// temp root (home wins), else pi's `--<abs>--`; `/ \ :` become `-`. omp renames
// older folders to that name when it next runs in the cwd, so until then a
// cwd's sessions may also be in pi-style `--<abs>--` folders under omp's root.

import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";

export interface OmpFolderOptions {
  home?: string;
  /** `os.tmpdir()` of omp's process (it honours `$TMPDIR`). */
  tmpdir?: string;
  /** Canonical path (tests); default `fs.realpathSync`, the resolved path when that fails. */
  realpath?: (path: string) => string;
}

export type OmpFolderScope = "home" | "tmp" | "abs";

function canonicalOf(options: OmpFolderOptions): (path: string) => string {
  const real = options.realpath ?? realpathSync;
  return (path) => {
    const resolved = resolve(path);
    try {
      return real(resolved);
    } catch {
      return resolved;
    }
  };
}

function inside(rel: string): boolean {
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function encodeRelative(prefix: string, rel: string): string {
  const encoded = rel.replace(/[/\\:]/g, "-");
  return encoded ? (prefix.endsWith("-") ? `${prefix}${encoded}` : `${prefix}-${encoded}`) : prefix;
}

/** pi's folder name (`--<abs>--`), which omp also uses outside home and the temp root. */
export function legacyAbsoluteFolderName(cwd: string): string {
  return `--${resolve(cwd).replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** omp's folder name for `cwd` and which rule made it. */
export function ompFolderName(cwd: string, options: OmpFolderOptions = {}): { name: string; scope: OmpFolderScope } {
  const canonical = canonicalOf(options);
  const cwdPath = canonical(cwd);
  const homeRel = relative(canonical(options.home ?? homedir()), cwdPath);
  if (inside(homeRel)) return { name: encodeRelative("-", homeRel), scope: "home" };
  const tmpRel = relative(canonical(options.tmpdir ?? tmpdir()), cwdPath);
  if (inside(tmpRel)) return { name: encodeRelative("-tmp", tmpRel), scope: "tmp" };
  return { name: legacyAbsoluteFolderName(cwdPath), scope: "abs" };
}

/** `<sessionsRoot>/<omp's folder name>`: where omp writes the cwd's new sessions. */
export function ompSessionDirForCwd(cwd: string, sessionsRoot: string, options: OmpFolderOptions = {}): string {
  return join(sessionsRoot, ompFolderName(cwd, options).name);
}

/**
 * Every folder under omp's root that holds the cwd's sessions, omp's own name
 * first: the folder omp writes to, pi's `--<abs>--` of the resolved cwd (omp's
 * migrateLegacyAbsoluteSessionDir) and of the canonical one, and for a cwd
 * under home the `--<home>-<rel>--` name omp's migrateHomeSessionDirs renames.
 */
export function ompSessionDirsForCwd(cwd: string, sessionsRoot: string, options: OmpFolderOptions = {}): string[] {
  const own = ompFolderName(cwd, options);
  const names = [own.name, legacyAbsoluteFolderName(cwd), legacyAbsoluteFolderName(canonicalOf(options)(cwd))];
  if (own.scope === "home") {
    const home = (options.home ?? homedir()).replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");
    names.push(`--${home}${own.name === "-" ? "" : own.name}--`);
  }
  return [...new Set(names)].map((name) => join(sessionsRoot, name));
}
