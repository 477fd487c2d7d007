// The freedesktop.org trash (what Linux desktops show as the Trash), for hosts
// where VS Code's own trash is not available (a remote or code-server file
// system has no trash). Per the Trash specification: the home trash
// `$XDG_DATA_HOME/Trash` (default ~/.local/share/Trash), the name reserved by
// creating `info/<name>.trashinfo` exclusively, then the file renamed into
// `files/<name>`. A rename only: a file on another device than the home trash
// is refused, never copied and deleted.
import { closeSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";

export class TrashUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TrashUnavailableError";
  }
}

export function homeTrashDir(env: Readonly<Record<string, string | undefined>> = process.env, home = homedir()): string {
  const dataHome = env.XDG_DATA_HOME && resolve(env.XDG_DATA_HOME) === env.XDG_DATA_HOME ? env.XDG_DATA_HOME : join(home, ".local", "share");
  return join(dataHome, "Trash");
}

function deletionDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** Moves `path` into the home trash; returns where it went. Throws TrashUnavailableError (nothing moved) when it cannot. */
export function moveToFreedesktopTrash(path: string, options: { trashDir?: string; now?: Date } = {}): string {
  const absolute = resolve(path);
  const trash = options.trashDir ?? homeTrashDir();
  const files = join(trash, "files");
  const info = join(trash, "info");
  try {
    mkdirSync(files, { recursive: true, mode: 0o700 });
    mkdirSync(info, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new TrashUnavailableError(`cannot create the trash folder ${trash}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const base = basename(absolute);
  const dot = base.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ""];
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${stem}.${n}${ext}`;
    const infoPath = join(info, `${name}.trashinfo`);
    let fd: number;
    try {
      fd = openSync(infoPath, "wx", 0o600);
    } catch (error) {
      if ((error as { code?: unknown }).code === "EEXIST") continue;
      throw new TrashUnavailableError(`cannot write to the trash ${trash}: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      writeSync(fd, `[Trash Info]\nPath=${encodePath(absolute)}\nDeletionDate=${deletionDate(options.now ?? new Date())}\n`);
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(absolute, join(files, name));
      return join(files, name);
    } catch (error) {
      unlinkSync(infoPath);
      const code = (error as { code?: unknown }).code;
      if (code === "EEXIST" || code === "ENOTEMPTY") continue;
      if (code === "EXDEV") throw new TrashUnavailableError(`${absolute} is on another disk than the trash ${trash}; it was not moved`);
      throw new TrashUnavailableError(`cannot move ${absolute} to the trash: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new TrashUnavailableError(`too many files named ${base} in the trash ${trash}`);
}
