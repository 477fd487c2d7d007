// Custom prompt files: a file whose text replaces pi's summary instructions
// (the compaction prompt or the branch-summary prompt) when it is not empty.
// One configured by the user (pi-sessions.json under the agent dir, or the
// caller's setting) is always read; one that comes from the project is read
// only when the workspace is trusted.

import { readFile } from "node:fs/promises";

export interface PromptFileRef {
  path: string;
  /** "project": from the workspace (ignored when it is not trusted). Default "user". */
  scope?: "user" | "project";
}

/** The file's text, or undefined (with a warning) when it is not to be used. */
export async function readPromptFile(
  ref: PromptFileRef | undefined,
  trustProject: boolean,
  warnings: string[],
): Promise<{ path: string; text: string } | undefined> {
  if (!ref) return undefined;
  if (ref.scope === "project" && !trustProject) {
    warnings.push(`The project's prompt file ${ref.path} is ignored: the workspace is not trusted. pi's own instructions are used.`);
    return undefined;
  }
  let text: string;
  try {
    text = await readFile(ref.path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    warnings.push(`The prompt file ${ref.path} cannot be read (${code === "ENOENT" ? "no such file" : String(code ?? error)}); pi's own instructions are used.`);
    return undefined;
  }
  if (text.trim() === "") {
    warnings.push(`The prompt file ${ref.path} is empty; pi's own instructions are used.`);
    return undefined;
  }
  return { path: ref.path, text: text.trim() };
}
