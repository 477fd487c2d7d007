// Where the host's CPU and memory go, for the benchmark's report: a V8 CPU
// profile of one step (self time per function, heaviest first) and the
// sampling heap profiler's live bytes per allocating function (what is still
// resident when sampling stops). Both through node:inspector inside the host;
// only when PI_SESSIONS_BENCH_PROFILE is set (profiling slows the step down).
import { Session } from "node:inspector";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";

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

const CALLERS = 3;

/** Self time per function of `work` (top `count` lines), when profiling; `work`'s result either way. */
export async function cpuProfile<T>(work: () => Promise<T>, count = 15): Promise<{ result: T; lines: string[] }> {
  if (!PROFILING) return { result: await work(), lines: [] };
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 200 });
  await post("Profiler.start");
  type CpuProfile = { nodes: { id: number; callFrame: CallFrame; children?: number[] }[]; samples: number[]; timeDeltas: number[] };
  let result: T;
  let profile: CpuProfile;
  try {
    result = await work();
  } finally {
    profile = (await post<{ profile: CpuProfile }>("Profiler.stop")).profile;
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  // Self time per function with its callers (CALLERS frames up): who asked for a native stat or a parse.
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frames = [where(byId.get(id)!.callFrame)];
    for (let up = parentOf.get(id); up !== undefined && frames.length <= CALLERS; up = parentOf.get(up)) frames.push(where(byId.get(up)!.callFrame));
    const name = frames.join(" ← ");
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return { result, lines: top(self, count, (ms) => `${ms.toFixed(1)} ms`) };
}

/** PI_SESSIONS_BENCH_PROFILE=alloc: every allocation of a step counts, also what was collected since (the churn that grows the heap). */
export const COUNT_COLLECTED = process.env.PI_SESSIONS_BENCH_PROFILE === "alloc";

export async function startHeapSampling(): Promise<void> {
  if (!PROFILING) return;
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: COUNT_COLLECTED, includeObjectsCollectedByMinorGC: COUNT_COLLECTED });
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

/** Where the resident memory is: /proc's anonymous vs file-backed RSS, V8's spaces, and the largest anonymous mappings. */
export function memoryDetail(): string[] {
  const lines: string[] = [];
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const field = (name: string): string => status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? "?";
    // LazyFree: pages given back with MADV_FREE, still counted in RSS until the kernel needs them.
    const rollup = readFileSync("/proc/self/smaps_rollup", "utf8");
    const lazyFree = Math.round(Number(rollup.match(/^LazyFree:\s+(\d+) kB/m)?.[1] ?? NaN) / 1024);
    lines.push(`RssAnon ${Math.round(Number(field("RssAnon")) / 1024)} MB (LazyFree ${lazyFree} MB), RssFile ${Math.round(Number(field("RssFile")) / 1024)} MB, threads ${status.match(/^Threads:\s+(\d+)/m)?.[1]}`);
  } catch {
    // not Linux
  }
  const spaces = getHeapSpaceStatistics()
    .filter((s) => s.space_size > 4 * 1024 * 1024)
    .map((s) => `${s.space_name} ${(s.space_used_size / 1048576).toFixed(0)}/${(s.space_size / 1048576).toFixed(0)}`);
  lines.push(`V8 spaces (used/size MB): ${spaces.join(", ")}`);
  // What V8 holds resident (committed pages, its pooled free pages included) and what it malloc'd itself.
  const heap = getHeapStatistics();
  const physical = getHeapSpaceStatistics()
    .filter((s) => s.physical_space_size > 4 * 1024 * 1024)
    .map((s) => `${s.space_name} ${(s.physical_space_size / 1048576).toFixed(0)}`);
  lines.push(`V8 physical ${(heap.total_physical_size / 1048576).toFixed(0)} MB (${physical.join(", ")}), malloced ${(heap.malloced_memory / 1048576).toFixed(0)} (peak ${(heap.peak_malloced_memory / 1048576).toFixed(0)})`);
  try {
    // Anonymous mappings by resident size: V8's heap, malloc arenas, thread stacks.
    const smaps = readFileSync("/proc/self/smaps", "utf8").split("\n");
    const maps: { name: string; rss: number }[] = [];
    let current: { name: string; rss: number } | undefined;
    for (const line of smaps) {
      const header = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/);
      if (header) {
        current = { name: header[1] || "[anon]", rss: 0 };
        maps.push(current);
      } else if (current && line.startsWith("Rss:")) current.rss = Number(line.split(/\s+/)[1]) * 1024;
    }
    const byName = new Map<string, { rss: number; count: number }>();
    for (const m of maps) {
      const name = m.name.startsWith("/") ? basename(m.name) : m.name;
      const e = byName.get(name) ?? { rss: 0, count: 0 };
      e.rss += m.rss;
      e.count++;
      byName.set(name, e);
    }
    const top = [...byName.entries()].sort((a, b) => b[1].rss - a[1].rss).slice(0, 6);
    lines.push(`mappings by RSS: ${top.map(([n, e]) => `${n} ${(e.rss / 1048576).toFixed(0)} MB (${e.count})`).join(", ")}`);
    const anon = maps.filter((m) => m.name === "[anon]").sort((a, b) => b.rss - a.rss).slice(0, 8);
    lines.push(`largest anonymous mappings (MB): ${anon.map((m) => (m.rss / 1048576).toFixed(1)).join(", ")}`);
  } catch {
    // not Linux
  }
  return lines;
}
