// Long work in a cancellable progress notification. Cancel (or the caller's
// token) aborts the AbortSignal the runners pass to the model call, so the HTTP
// request stops and nothing is written.
import * as vscode from "vscode";
import type { RunProgress } from "../core/write";

export interface ProgressWork<T> {
  (signal: AbortSignal, report: (progress: RunProgress) => void): Promise<T>;
}

export function withCancellableProgress<T>(title: string, token: vscode.CancellationToken | undefined, work: ProgressWork<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, progressToken) => {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    const subscriptions = [progressToken.onCancellationRequested(abort), ...(token ? [token.onCancellationRequested(abort)] : [])];
    if (token?.isCancellationRequested) abort();
    try {
      return await work(controller.signal, (step) => progress.report({ message: step.message }));
    } finally {
      for (const subscription of subscriptions) subscription.dispose();
    }
  });
}
