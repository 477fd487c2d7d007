// Every project's session folder under `<agent-dir>/sessions/`, and the
// session files in folders, found the way pi 1.5.2's SessionManager.listAll
// finds them: the folder's directories (or symlinks to them), then the
// `*.jsonl` files directly inside each (pi's folders are flat; whether a file
// is a session is decided when it is read).
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

export async function allSessionFolders(agentDir: string): Promise<string[]> {
  const root = join(agentDir, "sessions");
  let items;
  try {
    items = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const folders: string[] = [];
  for (const item of items) {
    const path = join(root, item.name);
    if (item.isDirectory()) folders.push(path);
    else if (item.isSymbolicLink()) {
      try {
        if ((await stat(path)).isDirectory()) folders.push(path);
      } catch {
        // A dangling link: nothing to list.
      }
    }
  }
  return folders.sort();
}

/** `*.jsonl` files directly inside the folders (missing folders give none), sorted, each once. */
export async function jsonlFilesIn(folders: readonly string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const folder of folders) {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      continue;
    }
    for (const name of names) if (name.endsWith(".jsonl")) files.add(join(folder, name));
  }
  return [...files].sort();
}
