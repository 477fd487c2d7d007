// The part of VS Code's webview API the panel uses. `acquireVsCodeApi` is
// injected by VS Code into the webview and may be called only once.
import type { WebviewMessage } from "./protocol";

export interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}
