// One normal form per file. Paths are compared as absolute POSIX paths after
// lexical normalisation (no file system access: the session may come from
// another machine). `~` and `~/…` stay home-relative (`~/x`), since the
// home directory of the session's machine is not known.

export interface PathContext {
  /** The session's working directory (absolute). */
  sessionCwd: string;
}

// An empty, `.` or `..` segment, or a trailing slash: what normalizing changes.
const NOT_NORMAL = /\/\.{0,2}(?:\/|$)/;

/** Collapses `.`, `..` and repeated slashes of an absolute or `~`-rooted path. */
export function normalizeAbsolute(path: string): string {
  if (path.charCodeAt(0) === 47 && !NOT_NORMAL.test(path)) return path;
  let root = "/";
  let rest = path;
  if (path === "~" || path.startsWith("~/")) {
    root = "~/";
    rest = path.slice(1);
  }
  const out: string[] = [];
  for (const segment of rest.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      out.pop();
      continue;
    }
    out.push(segment);
  }
  if (root === "~/") return out.length ? `~/${out.join("/")}` : "~";
  return `/${out.join("/")}`;
}

export function isRooted(path: string): boolean {
  return path.startsWith("/") || path === "~" || path.startsWith("~/");
}

function basenameOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const i = trimmed.lastIndexOf("/");
  return i < 0 ? trimmed : trimmed.slice(i + 1);
}

export function joinPath(base: string, rel: string): string {
  return normalizeAbsolute(`${base}/${rel}`);
}

/**
 * Resolves a path as written (in a tool argument or a shell word) against `base`
 * (the directory it is relative to; undefined when unknown, e.g. after `cd $X`).
 * Returns undefined when the path cannot be known.
 *
 * When `base` is the session cwd, a leading `<cwd basename>/` is dropped: agents
 * often write `repo/src/x.ts` while working in `/work/repo`.
 */
export function resolvePath(raw: string, base: string | undefined, ctx: PathContext): string | undefined {
  if (raw === "" || raw.includes("\0")) return undefined;
  if (isRooted(raw)) return normalizeAbsolute(raw);
  if (base === undefined) return undefined;
  const cwd = sessionCwdOf(ctx);
  if (cwd.path !== "/" && (base === cwd.path || normalizeAbsolute(base) === cwd.path)) {
    let rel = raw;
    while (rel.startsWith("./")) rel = rel.slice(2);
    if (rel.length > cwd.namePrefix.length && rel.startsWith(cwd.namePrefix)) return joinPath(cwd.path, rel.slice(cwd.namePrefix.length));
  }
  return joinPath(base, raw);
}

// The session cwd normalised, and `<its basename>/`, for the last context seen (resolvePath runs per path).
let lastCwd: { raw: string; path: string; namePrefix: string } | undefined;
function sessionCwdOf(ctx: PathContext): { path: string; namePrefix: string } {
  if (lastCwd?.raw !== ctx.sessionCwd) {
    const path = normalizeAbsolute(ctx.sessionCwd);
    lastCwd = { raw: ctx.sessionCwd, path, namePrefix: `${basenameOf(path)}/` };
  }
  return lastCwd;
}

/** The path relative to the session cwd when inside it, else the absolute path. */
export function displayPathOf(path: string, ctx: PathContext): string {
  const cwd = normalizeAbsolute(ctx.sessionCwd);
  if (path === cwd) return ".";
  const prefix = cwd === "/" ? "/" : `${cwd}/`;
  if (path.startsWith(prefix)) return path.slice(prefix.length);
  return path;
}

/** True when `child` lies strictly inside directory `dir`. */
export function isInside(child: string, dir: string): boolean {
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  return child.startsWith(prefix) && child.length > prefix.length;
}

export function basename(path: string): string {
  return basenameOf(path);
}

/**
 * Whether an operand of a recursive command (`rm -r`, `cp -r`, `grep -r`)
 * names a file rather than a directory, judged from its spelling: a trailing
 * slash, `.`/`..`, or a last segment without an extension means a directory.
 */
export function looksLikeFile(raw: string): boolean {
  if (raw.endsWith("/")) return false;
  const name = basenameOf(raw);
  if (name === "" || name === "." || name === ".." || name === "~") return false;
  return name.lastIndexOf(".") > 0;
}
