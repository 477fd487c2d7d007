// Reads the counts a test index wrote to PI_SESSIONS_VSCODE_RESULT_FILE.
import { readFile } from "node:fs/promises";
import { parseCounts, type MochaCounts } from "../../test/vscode/mocha-run";

export async function readCounts(path: string): Promise<MochaCounts | undefined> {
  try {
    return parseCounts(await readFile(path, "utf8"));
  } catch {
    return undefined;
  }
}
