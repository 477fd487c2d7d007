// The HTML shell of the summary webview. Pure (no vscode import): the host
// passes `webview.cspSource`, a fresh nonce, and `webview.asWebviewUri(...)`
// strings for dist/webview.js and media/webview.css.
import { randomBytes } from "node:crypto";
import { escapeHtml } from "../core/text/escape-html";

export { escapeHtml };

export interface WebviewHtmlOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** Stylesheets after the shared one (the reader's own). */
  extraStyleUris?: readonly string[];
  title: string;
}

/** 128 random bits, base64 (the characters a CSP nonce allows). */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

// A value spliced into the CSP must not be able to add or end a directive.
// `cspSource` may be a list of sources (code-server adds 'self'): each must be
// 'self' or a plain host/scheme source (never 'unsafe-inline' and the like).
const SOURCE_EXPRESSION = /^(?:'self'|[^\s;,'"<>\\]+)$/;

function cspSources(value: string): string {
  const sources = value.trim().split(/\s+/);
  if (value.trim() === "" || !sources.every((source) => SOURCE_EXPRESSION.test(source))) {
    throw new Error(`invalid cspSource for the webview CSP: ${JSON.stringify(value)}`);
  }
  return sources.join(" ");
}

function cspNonce(value: string): string {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) throw new Error(`invalid nonce for the webview CSP: ${JSON.stringify(value)}`);
  return value;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  const source = cspSources(cspSource);
  const scriptNonce = cspNonce(nonce);
  return [
    "default-src 'none'",
    `img-src ${source} data:`,
    `style-src ${source}`,
    `script-src 'nonce-${scriptNonce}'`,
    `font-src ${source}`,
  ].join("; ");
}

export function renderWebviewHtml(options: WebviewHtmlOptions): string {
  const csp = escapeHtml(contentSecurityPolicy(options.cspSource, options.nonce));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(options.styleUri)}">${(options.extraStyleUris ?? []).map((uri) => `\n<link rel="stylesheet" href="${escapeHtml(uri)}">`).join("")}
<title>${escapeHtml(options.title)}</title>
</head>
<body>
<main id="app"></main>
<script type="module" nonce="${escapeHtml(options.nonce)}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>
`;
}
