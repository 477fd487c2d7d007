// A webview panel's page: the bundled script and styles from the extension's
// folder, a fresh nonce, the strict CSP (webview-html.ts).
import * as vscode from "vscode";
import { createNonce, renderWebviewHtml } from "./webview-html";

export function panelDocument(webview: vscode.Webview, extensionUri: vscode.Uri, page: { script: string; styles: string[]; title: string }): string {
  const asset = (...path: string[]): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  const [first, ...extra] = page.styles.map((style) => asset("media", style));
  return renderWebviewHtml({
    cspSource: webview.cspSource,
    nonce: createNonce(),
    scriptUri: asset("dist", page.script),
    styleUri: first!,
    ...(extra.length > 0 ? { extraStyleUris: extra } : {}),
    title: page.title,
  });
}
