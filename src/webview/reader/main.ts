// Reader webview entry point (bundled to dist/reader.js, loaded by the CSP
// shell from src/extension/webview-html.ts).
import "../vscode-api";
import { ReaderApp, type ReaderApi } from "./reader-app";

const root = document.getElementById("app") ?? document.body.appendChild(document.createElement("main"));
const app = new ReaderApp(root, acquireVsCodeApi() as unknown as ReaderApi);
window.addEventListener("message", (event: MessageEvent<unknown>) => app.handleMessage(event.data));
app.start();
