// Usage webview entry point (bundled to dist/usage.js, loaded by the CSP shell
// from src/extension/webview-html.ts).
import "../vscode-api";
import { UsageApp, type UsageApi } from "./usage-app";

const root = document.getElementById("app") ?? document.body.appendChild(document.createElement("main"));
const app = new UsageApp(root, acquireVsCodeApi() as unknown as UsageApi);
window.addEventListener("message", (event: MessageEvent<unknown>) => app.handleMessage(event.data));
app.start();
