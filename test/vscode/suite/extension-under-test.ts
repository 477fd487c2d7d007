// How host-side tests reach the extension: by id, activated, with its exported API.
import * as vscode from "vscode";
import type { PiSessionsApi } from "../../../src/extension/extension";

export const EXTENSION_ID = "pi-sessions.pi-sessions";

export async function activateExtension(): Promise<PiSessionsApi> {
  const extension = vscode.extensions.getExtension<PiSessionsApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  return extension.activate();
}
