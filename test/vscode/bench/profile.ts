// Where the host's CPU and memory go, for the benchmark's report: a V8 CPU
// profile of one step (self time per function, heaviest first) and the
// sampling heap profiler's live bytes per allocating function (what is still
// resident when sampling stops). Both through node:inspector inside the host;
// only when PI_SESSIONS_BENCH_PROFILE is set (profiling slows the step down).
import { Session } from "node:inspector";
import { basename } from "node:path";

export const PROFILING = !!process.env.PI_SESSIONS_BENCH_PROFILE;

let session: Session | undefined;
function inspector(): Session {
  if (!session) {
    session = new Session();
    session.connect();
  }
  return session;
}

function post<T>(method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => inspector().post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

function where(frame: CallFrame): string {
  const file = frame.url ? basename(frame.url.split("?")[0]!) : "(native)";
  return `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
}

function top(weights: Map<string, number>, count: number, unit: (value: number) => string): string[] {
  return [...weights.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, value]) => `${unit(value).padStart(9)}  ${name}`);
}

/** Self time per function of `work` (top `count` lines), when profiling; `work`'s result either way. */
export async function cpuProfile<T>(work: () => Promise<T>, count = 15): Promise<{ result: T; lines: string[] }> {
  if (!PROFILING) return { result: await work(), lines: [] };
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 200 });
  await post("Profiler.start");
  type CpuProfile = { nodes: { id: number; callFrame: CallFrame }[]; samples: number[]; timeDeltas: number[] };
  let result: T;
  let profile: CpuProfile;
  try {
    result = await work();
  } finally {
    profile = (await post<{ profile: CpuProfile }>("Profiler.stop")).profile;
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const name = where(byId.get(id)!.callFrame);
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return { result, lines: top(self, count, (ms) => `${ms.toFixed(1)} ms`) };
}

export async function startHeapSampling(): Promise<void> {
  if (!PROFILING) return;
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", { samplingInterval: 64 * 1024 });
}

interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

/** Live bytes per allocating function since startHeapSampling (top `count` lines, with the calling function). */
export async function stopHeapSampling(count = 20): Promise<string[]> {
  if (!PROFILING) return [];
  const { profile } = await post<{ profile: { head: HeapNode } }>("HeapProfiler.stopSampling");
  const sizes = new Map<string, number>();
  const visit = (node: HeapNode, parent: string): void => {
    const name = where(node.callFrame);
    if (node.selfSize > 0) {
      const key = `${name}  ← ${parent}`;
      sizes.set(key, (sizes.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) visit(child, name);
  };
  visit(profile.head, "");
  return top(sizes, count, (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`);
}
