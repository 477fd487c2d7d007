// The bash parser: tree-sitter-bash (grammar 0.25.1, compiled to WebAssembly)
// run by web-tree-sitter. Loading WebAssembly is asynchronous, so callers
// `await initFilesTouched()` once; after that parsing is synchronous.
//
// The parse tree is copied into plain objects (`ShNode`) straight away, so the
// rest of the collector never touches the wasm heap and trees are freed at once.
//
// Where the .wasm files come from at run time: the bundles in dist/ have them
// next to them (esbuild.mjs copies them), so `__dirname` of the bundle is the
// default. Unbundled (tests, tsx) the source folder and node_modules are tried.
// `initFilesTouched({ wasmDir })` or `{ runtimeWasm, bashWasm }` overrides both.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { directCursorOf, type DirectCursor } from "./direct-cursor";
import type { ShNode, ShParseResult } from "./sh-node";
import { parseSimpleBash } from "./simple-bash";

export type { ShNode, ShParseResult } from "./sh-node";

export const TREE_SITTER_RUNTIME_WASM = "web-tree-sitter.wasm";
export const TREE_SITTER_BASH_WASM = "tree-sitter-bash.wasm";

export interface InitFilesTouchedOptions {
  /** Folder holding both web-tree-sitter.wasm and tree-sitter-bash.wasm. */
  wasmDir?: string;
  /** Path or bytes of web-tree-sitter.wasm (wins over wasmDir). */
  runtimeWasm?: string | Uint8Array;
  /** Path or bytes of tree-sitter-bash.wasm (wins over wasmDir). */
  bashWasm?: string | Uint8Array;
}

interface TsPoint {
  row: number;
  column: number;
}

// The few members of web-tree-sitter's TreeCursor/Tree/Parser we use, typed
// locally so the module is only loaded by initFilesTouched().
interface TsCursor {
  nodeTypeId: number;
  nodeIsNamed: boolean;
  nodeIsMissing: boolean;
  currentFieldId: number;
  startIndex: number;
  endIndex: number;
  startPosition: TsPoint;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}
interface TsTree {
  /** The tree's address in the wasm heap (web-tree-sitter keeps it at index 0). */
  0?: unknown;
  rootNode: { hasError: boolean };
  walk(): TsCursor;
  delete(): void;
}
interface TsParser {
  parse(text: string): TsTree | null;
}

let parser: TsParser | null = null;
let direct: DirectCursor | undefined;
// Type and field names by id: one wasm call per node instead of one per name.
let typeNames: readonly string[] = [];
let fieldNames: readonly (string | null)[] = [];
let initPromise: Promise<void> | null = null;

function moduleDir(): string | undefined {
  return typeof __dirname === "string" ? __dirname : undefined;
}

function candidateDirs(file: string): string[] {
  const dirs: string[] = [];
  const here = moduleDir();
  if (here) {
    dirs.push(here);
    dirs.push(join(here, "..", "src", "core", "files-touched"));
  }
  dirs.push(join(process.cwd(), "dist"), join(process.cwd(), "src", "core", "files-touched"));
  if (file === TREE_SITTER_RUNTIME_WASM) {
    try {
      const req = createRequire(here ? join(here, "noop.js") : join(process.cwd(), "noop.js"));
      dirs.push(dirname(req.resolve("web-tree-sitter/web-tree-sitter.wasm")));
    } catch {
      // not installed: fine when running from dist/
    }
  }
  return dirs;
}

function loadWasm(file: string, explicit: string | Uint8Array | undefined, wasmDir: string | undefined): Uint8Array {
  if (explicit instanceof Uint8Array) return explicit;
  if (typeof explicit === "string") return readFileSync(explicit);
  const dirs = wasmDir ? [wasmDir] : candidateDirs(file);
  for (const dir of dirs) {
    const path = join(dir, file);
    if (existsSync(path)) return readFileSync(path);
  }
  throw new Error(`files-touched: ${file} not found (looked in ${dirs.join(", ")})`);
}

type WebTreeSitter = typeof import("web-tree-sitter");

// Bundled into CJS (dist/cli.js, dist/extension.js) `require` picks
// web-tree-sitter's CommonJS build; its ES build needs `import.meta.url`,
// which a CJS bundle does not have. Plain ES module hosts import it by name.
async function loadWebTreeSitter(): Promise<WebTreeSitter> {
  if (typeof require === "function") return require("web-tree-sitter") as WebTreeSitter;
  const specifier = "web-tree-sitter";
  return (await import(specifier)) as WebTreeSitter;
}

/** Loads the bash parser. Safe to call many times; later calls reuse the first load. */
export function initFilesTouched(options: InitFilesTouchedOptions = {}): Promise<void> {
  if (initPromise) return initPromise;
  initPromise = (async () => {
    const runtime = loadWasm(TREE_SITTER_RUNTIME_WASM, options.runtimeWasm, options.wasmDir);
    const bash = loadWasm(TREE_SITTER_BASH_WASM, options.bashWasm, options.wasmDir);
    const ts = await loadWebTreeSitter();
    // Emscripten makes the options object the module itself: its exports land on it.
    const moduleObject: Record<string, unknown> = { wasmBinary: runtime };
    await ts.Parser.init(moduleObject as Parameters<typeof ts.Parser.init>[0]);
    direct = directCursorOf(moduleObject);
    const language = await ts.Language.load(bash);
    const p = new ts.Parser();
    p.setLanguage(language);
    typeNames = language.types;
    fieldNames = language.fields;
    parser = p as unknown as TsParser;
  })();
  initPromise.catch(() => {
    initPromise = null;
  });
  return initPromise;
}

export function isBashParserReady(): boolean {
  return parser !== null;
}

let simpleFirst = true;

/** Whether parseBash tries the hand parser for simple commands first (default on; off for differential tests and benchmarks). */
export function setSimpleBashFastPath(on: boolean): void {
  simpleFirst = on;
}

/**
 * Parses a command string; undefined when initFilesTouched() has not completed.
 * Simple commands are parsed by simple-bash.ts (the same tree, without the wasm
 * round trip), the rest by tree-sitter.
 */
export function parseBash(source: string): ShParseResult | undefined {
  if (!parser) return undefined;
  if (simpleFirst) {
    const root = parseSimpleBash(source);
    if (root) return { root, hasError: false };
  }
  return parseBashVia(direct ? "direct" : "cursor", source);
}

/**
 * `direct`: the tree copied by calling the runtime's cursor exports (see
 * direct-cursor.ts); `cursor`: through web-tree-sitter's TreeCursor class.
 * Both give the same tree (a differential test checks); `direct` is the
 * default when the runtime has the exports, `cursor` the fallback.
 */
export function parseBashVia(route: "direct" | "cursor", source: string): ShParseResult | undefined {
  if (!parser) return undefined;
  const tree = parser.parse(source);
  if (!tree) return undefined;
  if (route === "direct" && !tree.rootNode.hasError) {
    const address = tree[0];
    try {
      if (!direct || typeof address !== "number") throw new Error("files-touched: the direct tree route is not available");
      return { root: direct.copyTree(address, source, typeNames, fieldNames), hasError: false };
    } finally {
      tree.delete();
    }
  }
  const cursor = tree.walk();
  try {
    // Callers do nothing with a tree that has errors but report where the first one is.
    if (tree.rootNode.hasError) {
      return { root: { type: "program", named: true, field: null, text: source, start: 0, end: source.length, children: [] }, hasError: true, errorAt: firstError(cursor) };
    }
    const convert = (fieldId: number): ShNode => {
      const type = typeNames[cursor.nodeTypeId] ?? "ERROR";
      const node: ShNode = {
        type,
        named: cursor.nodeIsNamed,
        field: fieldId ? (fieldNames[fieldId] ?? null) : null,
        text: source.slice(cursor.startIndex, cursor.endIndex),
        start: cursor.startIndex,
        end: cursor.endIndex,
        children: [],
      };
      // Heredoc bodies and comments are data: their inner nodes are never looked at.
      if (type !== "heredoc_body" && type !== "comment" && cursor.gotoFirstChild()) {
        do {
          node.children.push(convert(cursor.currentFieldId));
        } while (cursor.gotoNextSibling());
        cursor.gotoParent();
      }
      return node;
    };
    return { root: convert(0), hasError: false };
  } finally {
    cursor.delete();
    tree.delete();
  }
}

function firstError(cursor: TsCursor): { line: number; column: number } | undefined {
  for (;;) {
    if (typeNames[cursor.nodeTypeId] === "ERROR" || cursor.nodeIsMissing) {
      return { line: cursor.startPosition.row + 1, column: cursor.startPosition.column + 1 };
    }
    if (cursor.gotoFirstChild() || cursor.gotoNextSibling()) continue;
    do {
      if (!cursor.gotoParent()) return undefined;
    } while (!cursor.gotoNextSibling());
  }
}
