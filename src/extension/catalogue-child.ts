// The cold catalogue fill in a child process (dist/catalogue-fill.js): reading
// ~1 GB of JSON for 5,000 sessions grows the extension host's young generation
// and malloc heap by ~200 MB that it keeps; in the child that churn ends with
// the child. Restricted Mode launches no process, not even our own bundled
// reader: there the fill stays in this process, as small fills always do.
import type * as vscode from "vscode";
import type { BulkReader } from "../core/catalogue/bulk-reader";
import { childBulkReader } from "../core/catalogue/child-bulk-reader";
import { isTrusted } from "./trust";

export function catalogueChild(extensionPath: string, log: vscode.LogOutputChannel): () => BulkReader | undefined {
  const reader = childBulkReader(`${extensionPath}/dist/catalogue-fill.js`, { warn: (m) => log.warn(m) });
  return () => (isTrusted() ? reader : undefined);
}
