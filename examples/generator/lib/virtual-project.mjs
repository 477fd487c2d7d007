// The fictional repository the session works on, held in memory: pi's real
// read/edit/write tools run against it (through their pluggable operations),
// and scripted bash commands change it the way the real command would, so every
// later read, edit and diff in the session sees a consistent tree.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative } from "node:path";

export class VirtualProject {
  /** @param {string} cwd absolute path the session claims to run in */
  constructor(cwd, diffLib) {
    this.cwd = cwd;
    this.diffLib = diffLib;
    /** @type {Map<string, string>} path relative to cwd → content */
    this.files = new Map();
    /** What `git` has committed (HEAD), for status/diff/checkout. */
    this.head = new Map();
  }

  static fromDirectory(dir, cwd, diffLib) {
    const project = new VirtualProject(cwd, diffLib);
    const walk = (current) => {
      for (const name of readdirSync(current).sort()) {
        const full = join(current, name);
        if (statSync(full).isDirectory()) walk(full);
        else project.files.set(relative(dir, full).split("\\").join("/"), readFileSync(full, "utf8"));
      }
    };
    walk(dir);
    project.commit();
    return project;
  }

  toRelative(absolutePath) {
    const rel = posix.relative(this.cwd, absolutePath);
    if (rel.startsWith("..")) throw Object.assign(new Error(`EACCES: outside the project: ${absolutePath}`), { code: "EACCES" });
    return rel;
  }

  has(path) {
    return this.files.has(path);
  }

  read(path) {
    const content = this.files.get(path);
    if (content === undefined) throw new Error(`scenario bug: ${path} does not exist`);
    return content;
  }

  write(path, content) {
    this.files.set(path, content);
  }

  remove(path) {
    this.files.delete(path);
  }

  rename(from, to) {
    this.write(to, this.read(from));
    this.remove(from);
  }

  /** Replace text the way a one-shot `sed -i 's/a/b/'` does (first match per line). */
  sedFirstPerLine(path, pattern, replacement) {
    const content = this.read(path);
    const updated = content
      .split("\n")
      .map((line) => line.replace(pattern, replacement))
      .join("\n");
    this.write(path, updated);
    return updated !== content;
  }

  commit() {
    this.head = new Map(this.files);
  }

  checkout(path) {
    const committed = this.head.get(path);
    if (committed === undefined) throw new Error(`scenario bug: ${path} is not in HEAD`);
    this.write(path, committed);
  }

  /** pi's tool operations (ReadOperations, EditOperations, WriteOperations). */
  operations() {
    const notFound = (path) => Object.assign(new Error(`ENOENT: no such file or directory, access '${path}'`), { code: "ENOENT" });
    return {
      readFile: async (abs) => {
        const rel = this.toRelative(abs);
        if (!this.files.has(rel)) throw notFound(abs);
        return Buffer.from(this.files.get(rel), "utf8");
      },
      access: async (abs) => {
        if (!this.files.has(this.toRelative(abs))) throw notFound(abs);
      },
      writeFile: async (abs, content) => {
        this.files.set(this.toRelative(abs), content);
      },
      mkdir: async () => {},
      detectImageMimeType: async () => null,
    };
  }

  // ---- outputs of read-only commands, computed from the current tree ----

  /** `grep -n PATTERN file` lines. */
  grepLines(path, regex, { withFile = false } = {}) {
    return this.read(path)
      .split("\n")
      .map((line, i) => ({ line, n: i + 1 }))
      .filter(({ line }) => regex.test(line))
      .map(({ line, n }) => (withFile ? `${path}:${n}:${line}` : `${n}:${line}`));
  }

  /** `grep -rn PATTERN dir...` over files under the given directories. */
  grepRecursive(dirs, regex) {
    return this.list(dirs).flatMap((path) => this.grepLines(path, regex, { withFile: true }));
  }

  /** Files under the given directories, sorted as `ls -R`/`grep -r` would visit them. */
  list(dirs) {
    return [...this.files.keys()].filter((p) => dirs.some((d) => p.startsWith(`${d}/`))).sort();
  }

  lineCount(path) {
    const content = this.read(path);
    return content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
  }

  /** `wc -l a b c` */
  wcLines(paths) {
    const counts = paths.map((p) => this.lineCount(p));
    const width = String(counts.reduce((a, b) => a + b, 0)).length + 1;
    const rows = paths.map((p, i) => `${String(counts[i]).padStart(width)} ${p}`);
    if (paths.length > 1) rows.push(`${String(counts.reduce((a, b) => a + b, 0)).padStart(width)} total`);
    return `${rows.join("\n")}\n`;
  }

  /** `git status --short` for unstaged changes: tracked changes first, then untracked (whole new directories collapsed). */
  gitStatusShort() {
    const tracked = [...new Set([...this.head.keys(), ...this.files.keys()])]
      .filter((p) => this.head.has(p))
      .sort()
      .flatMap((p) => (!this.files.has(p) ? [` D ${p}`] : this.files.get(p) !== this.head.get(p) ? [` M ${p}`] : []));
    const trackedDirs = new Set([...this.head.keys()].map((p) => p.split("/")[0]));
    const untracked = new Set(
      [...this.files.keys()].filter((p) => !this.head.has(p)).map((p) => (trackedDirs.has(p.split("/")[0]) ? p : `${p.split("/")[0]}/`)),
    );
    const lines = [...tracked, ...[...untracked].sort().map((p) => `?? ${p}`)];
    return lines.length > 0 ? `${lines.join("\n")}\n` : "";
  }

  /** `git diff [paths]` against HEAD, with real blob ids and 3 lines of context. */
  gitDiff(paths) {
    const changed = [...new Set([...this.head.keys(), ...this.files.keys()])]
      .filter((p) => !paths || paths.some((q) => p === q || p.startsWith(`${q}/`)))
      .filter((p) => this.head.has(p) && this.files.has(p) && this.head.get(p) !== this.files.get(p))
      .sort();
    return changed.map((p) => this.fileDiff(p, this.head.get(p), this.files.get(p))).join("");
  }

  fileDiff(path, before, after) {
    const patch = this.diffLib.structuredPatch(`a/${path}`, `b/${path}`, before, after, "", "", { context: 3 });
    const out = [`diff --git a/${path} b/${path}`, `index ${blobId(before)}..${blobId(after)} 100644`, `--- a/${path}`, `+++ b/${path}`];
    const beforeLines = before.split("\n");
    for (const hunk of patch.hunks) {
      // git's default hunk context: the nearest earlier line starting with a letter, `_` or `$`.
      const context = beforeLines
        .slice(0, hunk.oldStart - 1)
        .reverse()
        .find((line) => /^[A-Za-z_$]/.test(line));
      const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
      out.push(context ? `${header} ${context.slice(0, 80).trimEnd()}` : header);
      out.push(...hunk.lines);
    }
    return `${out.join("\n")}\n`;
  }

  /** `git diff --stat` lines for the changed tracked files. */
  gitDiffStat(paths) {
    const rows = [];
    let insertions = 0;
    let deletions = 0;
    for (const p of [...this.head.keys()].filter((q) => this.files.has(q)).sort()) {
      if (paths && !paths.includes(p)) continue;
      const before = this.head.get(p);
      const after = this.files.get(p);
      if (before === after) continue;
      const parts = this.diffLib.diffLines(before, after);
      const add = parts.filter((x) => x.added).reduce((n, x) => n + x.count, 0);
      const del = parts.filter((x) => x.removed).reduce((n, x) => n + x.count, 0);
      insertions += add;
      deletions += del;
      rows.push({ p, add, del });
    }
    const width = Math.max(...rows.map((r) => r.p.length));
    const lines = rows.map((r) => ` ${r.p.padEnd(width)} | ${String(r.add + r.del).padStart(3)} ${"+".repeat(Math.min(r.add, 40))}${"-".repeat(Math.min(r.del, 20))}`);
    lines.push(` ${rows.length} files changed, ${insertions} insertions(+), ${deletions} deletions(-)`);
    return `${lines.join("\n")}\n`;
  }
}

/** git's blob id (sha1 of "blob <size>\0<content>"), abbreviated like `git diff` does. */
export function blobId(content) {
  const body = Buffer.from(content, "utf8");
  return createHash("sha1").update(`blob ${body.length}\0`).update(body).digest("hex").slice(0, 7);
}
