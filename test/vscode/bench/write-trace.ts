// What one pi write sets off inside the host, for the benchmark's report: the
// watchers' events (and when each arrived after the write), the refreshes they
// caused, the changes the views fired and what VS Code asked for after them,
// the status bar's updates, and the garbage collections in the same window,
// with the host CPU spent in each stage's synchronous part. The extension's
// objects are wrapped for the benchmark only (instance properties replaced, so
// calls made through `this.x()` and by VS Code go through the wrapper).
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import type { Internals } from "../../../src/extension/internals";

interface Stage {
  calls: number;
  /** Host CPU inside the calls (synchronous ones only: an async call's time overlaps whatever ran meanwhile). */
  cpu: number | undefined;
}

export interface WriteTrace {
  /** Watcher events by source, with the ms after the write each arrived. */
  events: { source: string; at: number }[];
  stages: Record<string, Stage>;
  fired: { sessions: number; sessionsRows: number; entries: number; entriesNodes: number; entriesFull: number };
  /** Main-thread GC pauses (a major GC's concurrent marking runs on helper threads: in the CPU, not here). */
  gc: { count: number; ms: number; major: number };
  /** V8 heap used before and after, MB. */
  heap: [number, number];
  /** How the store and the catalogue read the files: appended bytes only, or whole (must stay 0). */
  reads: { appended: number; whole: number };
}

interface ReadCounters {
  store: { opened: number; appended: number; rewritten: number; fromSnapshot: number };
  catalogue?: { appended: number; read: number };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

type AnyFn = (...args: unknown[]) => unknown;

export class WriteTracer {
  private current: WriteTrace | undefined;
  private start = 0;
  private readonly restore: (() => void)[] = [];
  private readonly observer: PerformanceObserver;
  private readsBefore = { appended: 0, whole: 0 };

  constructor(
    internals: Internals,
    private readonly counters: ReadCounters,
  ) {
    const s = internals.services;
    this.wrap("watcher event", internals.watcher as unknown as Record<string, AnyFn>, "schedule", (args) => {
      this.current?.events.push({ source: String(args[1]), at: Math.round(performance.now() - this.start) });
    });
    this.wrap("fileChanged", s.sessions as unknown as Record<string, AnyFn>, "fileChanged");
    this.wrap("store.refresh", s.store as unknown as Record<string, AnyFn>, "refresh");
    this.wrap("Sessions getChildren", s.sessionsTree as unknown as Record<string, AnyFn>, "getChildren");
    this.wrap("Sessions getTreeItem", s.sessionsTree as unknown as Record<string, AnyFn>, "getTreeItem");
    this.wrap("Entries getChildren", s.entriesTree as unknown as Record<string, AnyFn>, "getChildren");
    this.wrap("Entries getTreeItem", s.entriesTree as unknown as Record<string, AnyFn>, "getTreeItem");
    this.wrap("Entries resolveTreeItem", s.entriesTree as unknown as Record<string, AnyFn>, "resolveTreeItem");
    this.wrap("status bar update", internals.statusBar as unknown as Record<string, AnyFn>, "update");
    const sessionsFired = s.sessionsTree.onDidChangeTreeData((change) => {
      if (!this.current) return;
      this.current.fired.sessions++;
      this.current.fired.sessionsRows += Array.isArray(change) ? change.length : change ? 1 : 0;
    });
    const entriesFired = s.entriesTree.onDidChangeTreeData((change) => {
      if (!this.current) return;
      this.current.fired.entries++;
      if (Array.isArray(change)) this.current.fired.entriesNodes += change.length;
      else if (change) this.current.fired.entriesNodes++;
      else this.current.fired.entriesFull++;
    });
    this.restore.push(() => sessionsFired.dispose(), () => entriesFired.dispose());
    this.observer = new PerformanceObserver((list) => {
      if (!this.current) return;
      for (const entry of list.getEntries() as PerformanceEntry[]) {
        if (entry.startTime < this.start) continue;
        this.current.gc.count++;
        this.current.gc.ms += entry.duration;
        if (((entry as { detail?: { kind?: number } }).detail?.kind ?? 0) & constants.NODE_PERFORMANCE_GC_MAJOR) this.current.gc.major++;
      }
    });
    this.observer.observe({ entryTypes: ["gc"] });
  }

  private wrap(stage: string, target: Record<string, AnyFn>, name: string, onCall?: (args: unknown[]) => void): void {
    const original = target[name]!;
    const tracer = this;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      onCall?.(args);
      const trace = tracer.current;
      const cpu = process.cpuUsage();
      const result = original.apply(this, args);
      if (trace) {
        const s = (trace.stages[stage] ??= { calls: 0, cpu: 0 });
        s.calls++;
        s.cpu = result instanceof Promise || s.cpu === undefined ? undefined : s.cpu + cpuMs(cpu);
      }
      return result;
    };
    target[name] = wrapped;
    this.restore.push(() => {
      target[name] = original;
    });
  }

  begin(): void {
    this.start = performance.now();
    const heap = process.memoryUsage().heapUsed / 1048576;
    this.readsBefore = this.reads();
    this.current = { events: [], stages: {}, fired: { sessions: 0, sessionsRows: 0, entries: 0, entriesNodes: 0, entriesFull: 0 }, gc: { count: 0, ms: 0, major: 0 }, heap: [heap, heap], reads: { appended: 0, whole: 0 } };
  }

  end(): WriteTrace {
    const trace = this.current!;
    this.current = undefined;
    trace.heap[1] = process.memoryUsage().heapUsed / 1048576;
    const reads = this.reads();
    trace.reads = { appended: reads.appended - this.readsBefore.appended, whole: reads.whole - this.readsBefore.whole };
    return trace;
  }

  private reads(): { appended: number; whole: number } {
    const { store, catalogue } = this.counters;
    return { appended: store.appended + (catalogue?.appended ?? 0), whole: store.opened + store.rewritten - store.fromSnapshot + (catalogue?.read ?? 0) };
  }

  dispose(): void {
    this.observer.disconnect();
    for (const undo of this.restore) undo();
  }
}

/** One line: the CPU, then each stage's calls and CPU. */
export function traceLine(cpu: number, trace: WriteTrace): string {
  const events = trace.events.map((e) => `${e.source}@${e.at}`).join(",") || "none";
  const stages = Object.entries(trace.stages)
    .map(([name, s]) => `${name} ${s.calls}×${s.cpu === undefined ? "" : ` ${s.cpu.toFixed(1)}`}`)
    .join("; ");
  const f = trace.fired;
  return `${cpu.toFixed(1)} ms | events ${events} | read appended ${trace.reads.appended}, whole ${trace.reads.whole} | fired Sessions ${f.sessions} (${f.sessionsRows} rows), Entries ${f.entries} (${f.entriesNodes} nodes${f.entriesFull ? `, ${f.entriesFull} whole tree` : ""}) | ${stages} | gc ${trace.gc.count}${trace.gc.major ? `, ${trace.gc.major} major` : ""} (${trace.gc.ms.toFixed(1)} ms paused) | heap ${trace.heap[0].toFixed(0)} → ${trace.heap[1].toFixed(0)} MB`;
}
