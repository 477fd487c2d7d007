// Webview entry point (bundled to dist/webview.js, loaded by the CSP shell
// from src/extension/webview-html.ts).
import { SummaryPanelApp } from "./app";
import "./vscode-api";

const root = document.getElementById("app") ?? document.body.appendChild(document.createElement("main"));
const app = new SummaryPanelApp(root, acquireVsCodeApi());
window.addEventListener("message", (event: MessageEvent<unknown>) => app.handleMessage(event.data));
app.start();
