// omp's `<files>` block at the end of a compaction or branch summary (omp 18.3.4
// agent-core formatFileOperations / upsertFileOperations): the files as a
// prefix-folded tree (`# dir/` headings, base names), each marked `(Read)`,
// `(Write)` (modified, never read) or `(RW)`; sorted; at most 20, then
// `[…N files elided…]`. An older `<files>` / `<read-files>` / `<modified-files>`
// block is removed first.

const MAX_FILES = 20;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

interface Dir {
  files: { name: string; key: string }[];
  fileNames: Set<string>;
  subdirs: { name: string; node: Dir }[];
  dirIndex: Map<string, Dir>;
}

const newDir = (): Dir => ({ files: [], fileNames: new Set(), subdirs: [], dirIndex: new Map() });

function addFile(dir: Dir, name: string, key: string): void {
  if (dir.fileNames.has(name)) return;
  dir.fileNames.add(name);
  dir.files.push({ name, key });
}

function tree(paths: readonly string[]): Dir {
  const root = newDir();
  for (const path of paths) {
    const p = path.replace(/\\/g, "/");
    if (URL_SCHEME.test(p)) {
      addFile(root, p, path);
      continue;
    }
    const isDir = path.endsWith("/");
    const trimmed = p.endsWith("/") ? p.slice(0, -1) : p;
    if (trimmed.length === 0) continue;
    const parts = trimmed.split("/");
    const depth = isDir ? parts.length : parts.length - 1;
    let node = root;
    for (let i = 0; i < depth; i++) {
      let next = node.dirIndex.get(parts[i]!);
      if (!next) {
        next = newDir();
        node.dirIndex.set(parts[i]!, next);
        node.subdirs.push({ name: parts[i]!, node: next });
      }
      node = next;
    }
    if (!isDir) addFile(node, parts[parts.length - 1]!, path);
  }
  return root;
}

function* walk(dir: Dir, depth = 0): Generator<{ kind: "file" | "dir"; depth: number; name: string; key: string }> {
  for (const f of dir.files) yield { kind: "file", depth, name: f.name, key: f.key };
  for (const s of dir.subdirs) {
    let node = s.node;
    const names = [s.name];
    while (node.files.length === 0 && node.subdirs.length === 1) {
      const only = node.subdirs[0]!;
      names.push(only.name);
      node = only.node;
    }
    yield { kind: "dir", depth, name: names.join("/"), key: "" };
    yield* walk(node, depth + 1);
  }
}

/** omp's `<files>` block for these lists ("" when both are empty); `readSet`: every file read (a modified one in it is `(RW)`). */
export function formatOmpFileOperations(readFiles: readonly string[], modifiedFiles: readonly string[], readSet?: ReadonlySet<string>): string {
  if (readFiles.length === 0 && modifiedFiles.length === 0) return "";
  const marks = new Map<string, string>();
  for (const f of readFiles) marks.set(f, "Read");
  for (const f of modifiedFiles) marks.set(f, readSet?.has(f) ? "RW" : "Write");
  const sorted = [...marks.keys()].sort();
  const lines: string[] = [];
  for (const item of walk(tree(sorted.slice(0, MAX_FILES)))) {
    lines.push(item.kind === "dir" ? `${"#".repeat(item.depth + 1)} ${item.name}/` : `${item.name} (${marks.get(item.key)})`);
  }
  let files = lines.join("\n");
  if (sorted.length > MAX_FILES) files += `\n[\u2026${sorted.length - MAX_FILES} files elided\u2026]`; // omp's own words
  return `<files>\n${files}\n</files>`;
}

/** The summary without any file block, then omp's `<files>` block for these lists. */
export function upsertOmpFileOperations(summary: string, readFiles: readonly string[], modifiedFiles: readonly string[], readSet?: ReadonlySet<string>): string {
  const text = summary
    .replace(/<files>[\s\S]*?<\/files>\s*/g, "")
    .replace(/<read-files>[\s\S]*?<\/read-files>\s*/g, "")
    .replace(/<modified-files>[\s\S]*?<\/modified-files>\s*/g, "")
    .trimEnd();
  const block = formatOmpFileOperations(readFiles, modifiedFiles, readSet);
  if (!block) return text;
  if (!text) return block;
  return `${text}\n\n${block}`;
}
