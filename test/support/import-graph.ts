// The import graph of src/: every static import, re-export, import() and
// require() of a relative module, read with TypeScript's own pre-processor (so
// import-shaped text in comments and strings is not taken for an import), each
// resolved to the .ts file it names.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export interface ImportEdge {
  /** Importing file, relative to the root, with `/`. */
  from: string;
  /** Imported file, relative to the root, with `/`. */
  to: string;
  /** The specifier as written. */
  specifier: string;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
  /** Relative specifiers that name no file. */
  unresolved: ImportEdge[];
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|cts)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.mjs$/, ".mts"),
    base.replace(/\.cjs$/, ".cts"),
    `${base}.ts`,
    join(base, "index.ts"),
    base,
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

const slash = (path: string): string => path.split(sep).join("/");

/** The graph of every .ts file under `root/dir` (paths relative to `root`). */
export function importGraph(root: string, dir = "src"): ImportGraph {
  const files = sourceFiles(join(root, dir)).sort();
  const edges: ImportEdge[] = [];
  const unresolved: ImportEdge[] = [];
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const imported of info.importedFiles) {
      const specifier = imported.fileName;
      if (!specifier.startsWith(".")) continue;
      const target = resolveSpecifier(file, specifier);
      const edge = { from: slash(relative(root, file)), to: target ? slash(relative(root, target)) : specifier, specifier };
      (target ? edges : unresolved).push(edge);
    }
  }
  return { files: files.map((f) => slash(relative(root, f))), edges, unresolved };
}

/** Strongly connected components with more than one file, and files importing themselves (Tarjan). */
export function importCircles(graph: ImportGraph): string[][] {
  const next = new Map<string, string[]>();
  for (const f of graph.files) next.set(f, []);
  const selfLoops: string[][] = [];
  for (const e of graph.edges) {
    if (e.from === e.to) selfLoops.push([e.from]);
    next.get(e.from)?.push(e.to);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const f of graph.files) if (!index.has(f)) visit(f);
  return [...circles, ...selfLoops];
}
