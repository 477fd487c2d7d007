// The hook runner, with pi's rules (ExtensionRunner.emit): handlers run one
// after another in registration order; for the before_* hooks the last
// non-empty result wins and a cancel stops at once; a handler that throws is
// reported and skipped. Reports are data (Diagnostics) and, when given, an
// onError callback. Handlers registered or disposed during a run take effect
// from the next run.

import type { Diagnostic } from "../diagnostics.js";
import type {
  AfterBranchSummaryEvent,
  AfterCompactEvent,
  BeforeBranchSummaryEvent,
  BeforeBranchSummaryResult,
  BeforeCompactEvent,
  BeforeCompactResult,
  HookHandler,
  HookName,
} from "./hook-events.js";
import { checkBeforeBranchSummaryResult, checkBeforeCompactResult } from "./hook-result-check.js";
import type { ResultCheck } from "./hook-result-check.js";

export interface HookDisposer {
  dispose(): void;
}

export interface HookFailure {
  hook: HookName;
  /** The handler's label, or "#<n>" (1-based registration position at the time of the run). */
  handler: string;
  kind: "threw" | "invalid-result";
  message: string;
  error?: unknown;
}

export interface HookRunOptions {
  onError?: (failure: HookFailure) => void;
}

export interface HookRunReport<R> {
  /** The winning result; undefined when no handler returned one. */
  result: R | undefined;
  /** A handler returned {cancel: true}; later handlers did not run. */
  cancelled: boolean;
  diagnostics: Diagnostic[];
}

interface Registration {
  handler: (event: never) => unknown;
  label: string | undefined;
}

export class SummaryHooks {
  private readonly handlers = new Map<HookName, Registration[]>();

  /** Registers a handler; dispose() removes exactly this registration. */
  on<N extends HookName>(hook: N, handler: HookHandler<N>, label?: string): HookDisposer {
    const registration: Registration = { handler: handler as (event: never) => unknown, label };
    const list = this.handlers.get(hook) ?? [];
    list.push(registration);
    this.handlers.set(hook, list);
    return {
      dispose: () => {
        const current = this.handlers.get(hook);
        const at = current?.indexOf(registration) ?? -1;
        if (current && at >= 0) current.splice(at, 1);
      },
    };
  }

  has(hook: HookName): boolean {
    return (this.handlers.get(hook)?.length ?? 0) > 0;
  }

  runBeforeCompact(event: BeforeCompactEvent, options?: HookRunOptions): Promise<HookRunReport<BeforeCompactResult>> {
    return this.run("before_compact", event, checkBeforeCompactResult, options);
  }

  runBeforeBranchSummary(event: BeforeBranchSummaryEvent, options?: HookRunOptions): Promise<HookRunReport<BeforeBranchSummaryResult>> {
    return this.run("before_branch_summary", event, checkBeforeBranchSummaryResult, options);
  }

  async emitAfterCompact(event: AfterCompactEvent, options?: HookRunOptions): Promise<Diagnostic[]> {
    return (await this.run("after_compact", event, undefined, options)).diagnostics;
  }

  async emitAfterBranchSummary(event: AfterBranchSummaryEvent, options?: HookRunOptions): Promise<Diagnostic[]> {
    return (await this.run("after_branch_summary", event, undefined, options)).diagnostics;
  }

  private async run<R extends { cancel?: boolean }>(
    hook: HookName,
    event: unknown,
    check: ((value: unknown) => ResultCheck<R>) | undefined,
    options: HookRunOptions | undefined,
  ): Promise<HookRunReport<R>> {
    const snapshot = [...(this.handlers.get(hook) ?? [])];
    const report: HookRunReport<R> = { result: undefined, cancelled: false, diagnostics: [] };
    const fail = (failure: HookFailure): void => {
      report.diagnostics.push({
        severity: "warning",
        code: failure.kind === "threw" ? "hook-error" : "invalid-hook-result",
        message: `${hook} hook ${failure.handler} ${failure.kind === "threw" ? "threw" : "returned an invalid result"}: ${failure.message}; skipped`,
      });
      options?.onError?.(failure);
    };
    for (const [i, registration] of snapshot.entries()) {
      const name = registration.label ?? `#${i + 1}`;
      let value: unknown;
      try {
        value = await registration.handler(event as never);
      } catch (error) {
        fail({ hook, handler: name, kind: "threw", message: error instanceof Error ? error.message : String(error), error });
        continue;
      }
      // pi ignores falsy answers (undefined, null, false, …): "no opinion".
      if (!check || !value) continue;
      const checked = check(value);
      if (!checked.ok) {
        fail({ hook, handler: name, kind: "invalid-result", message: checked.problem });
        continue;
      }
      report.result = checked.result;
      if (checked.result.cancel) {
        report.cancelled = true;
        break;
      }
    }
    return report;
  }
}
