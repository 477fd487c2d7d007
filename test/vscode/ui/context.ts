// The Workbench of the current UI run. Each test file is its own bundle, so the
// runner hands the Workbench over through a global rather than a shared module.
import type { Workbench } from "./workbench";

const KEY = "__piSessionsWorkbench";

export function setWorkbench(workbench: Workbench | undefined): void {
  (globalThis as Record<string, unknown>)[KEY] = workbench;
}

export function workbench(): Workbench {
  const current = (globalThis as Record<string, unknown>)[KEY];
  if (!current) throw new Error("no VS Code page: UI tests run through `npm run test:vscode`");
  return current as Workbench;
}
