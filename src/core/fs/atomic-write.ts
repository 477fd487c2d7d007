// Replace a file's content in one step: write a temporary file beside it,
// flush it, then rename it over the original, so a crash or a concurrent
// reader never sees half a file. A symlinked target is written through the link.

import { randomBytes } from "node:crypto";
import { chmod, open, realpath, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export async function writeFileAtomic(file: string, data: string, mode = 0o600): Promise<void> {
  let target = file;
  try {
    target = await realpath(file);
  } catch {
    // New file: write it where asked.
  }
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let renamed = false;
  try {
    const handle = await open(temp, "wx", mode);
    try {
      await handle.writeFile(data, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(temp, mode);
    await rename(temp, target);
    renamed = true;
  } finally {
    if (!renamed) await rm(temp, { force: true });
  }
}
