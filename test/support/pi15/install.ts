// Installs pi 1.5.2 (`@earendil-works/pi-coding-agent`) and the Node 22 it needs
// into a cache folder outside the repository, once, for the tests only: pi 1.5.2
// is the second oracle, never a dependency of the product. `npm i` of the package
// fails from the registry (some 1.5.2 dependencies are not published there), but
// its tarball ships a self-contained bundle (`dist/bundle`, `node:` imports only):
// `npm pack` + extract is all it needs. The bundle does not load on Node 20, so
// Node 22 comes from npm's `node` package.
//
// The internals the oracle calls (prepareCompaction, estimateProjectedContextTokens,
// findProjectedCutPoint, computeFileLists, getCurrentSystemMessage, …) are not
// exported from the bundle's entry; in the extracted copy only, one `export {…}`
// statement is appended to the chunk that defines them (found by content: its
// file name is a hash).
//
// Layout: <cache>/pi-1.5.2/{package/, node/, .pi-sessions-installed.json}. The
// install is built in a staging folder and renamed into place, the marker names
// what was verified; a concurrent installer waits on a lock folder.

import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { npm, npmPack, toolCacheRoot, withInstallLock, withoutNpmRunEnv } from "../../../scripts/tool-cache.js";

const run = promisify(execFile);

export const PI15_PACKAGE = "@earendil-works/pi-coding-agent";
export const PI15_VERSION = "1.5.2";
/** The newest Node 22 on npm when this was written; the 1.5.2 bundle needs Node ≥ 22 (e.g. fs.globSync). */
export const PI15_NODE_VERSION = "22.23.3";

/**
 * The bundle internals the oracle needs beyond what the chunk already exports.
 * Names the chunk exports already are skipped (a second export of a name is a syntax error).
 */
export const PI15_INTERNALS = [
  "prepareCompaction",
  "estimateContextTokens",
  "estimateProjectedContextTokens",
  "findProjectedCutPoint",
  "computeFileLists",
  "createFileOps",
  "extractFileOpsFromMessage",
  "getCurrentSystemMessage",
  "getSessionContextSettings",
  "getLastAssistantUsage",
  "loadEntriesFromFile",
  "projectContextEntry",
  "buildSessionProjection",
  "buildContextEntries",
  "sessionEntryToContextMessages",
  "collectEntriesForBranchSummary",
  "prepareBranchEntries",
  "serializeConversation",
  "convertToLlm",
  "estimateTokens",
  "buildSessionContext",
  "parseSessionEntries",
  "migrateSessionEntries",
  "SessionManager",
  "SettingsManager",
] as const;

/** Every chunk that defines all of these is the compaction/session chunk. */
const CHUNK_SIGNATURE = ["function prepareCompaction(", "function estimateProjectedContextTokens(", "var SessionManager="];

export interface Pi15Install {
  /** <cache>/pi-1.5.2 */
  dir: string;
  /** Node 22's `node`. */
  node: string;
  /** pi 1.5.2's CLI (`pi`), run with `node`: `node cli.js -p …`. */
  cliJs: string;
  /** The bundle chunk with the appended export statement: import it for the internals. */
  chunk: string;
}

interface Marker {
  pi: string;
  node: string;
  chunk: string;
  exported: string[];
}

const MARKER = ".pi-sessions-installed.json";

/** The tool cache (scripts/tool-cache.ts). */
export const pi15CacheRoot = toolCacheRoot;

function installDir(root: string): string {
  return join(root, `pi-${PI15_VERSION}`);
}

function describe(dir: string, chunkFile: string): Pi15Install {
  return {
    dir,
    node: join(dir, "node", "node_modules", "node", "bin", "node"),
    cliJs: join(dir, "package", "dist", "bundle", "cli.js"),
    chunk: join(dir, "package", "dist", "bundle", "chunks", chunkFile),
  };
}

function readMarker(dir: string): Marker | undefined {
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER), "utf8")) as Marker;
    if (marker.pi !== PI15_VERSION || marker.node !== PI15_NODE_VERSION) return undefined;
    // An install made when fewer internals were needed is redone.
    if (!PI15_INTERNALS.every((name) => marker.exported.includes(name))) return undefined;
    return marker;
  } catch {
    return undefined;
  }
}

/** The install if it is complete and verified (a stat and a small read), else undefined. */
export function findPi15Install(root = pi15CacheRoot()): Pi15Install | undefined {
  const dir = installDir(root);
  const marker = readMarker(dir);
  if (!marker) return undefined;
  const install = describe(dir, marker.chunk);
  return existsSync(install.node) && existsSync(install.chunk) && existsSync(install.cliJs) ? install : undefined;
}

const cleanEnv = (): NodeJS.ProcessEnv => withoutNpmRunEnv(process.env, true);

async function findChunk(chunksDir: string): Promise<string> {
  const found: string[] = [];
  for (const name of await readdir(chunksDir)) {
    if (!name.endsWith(".js")) continue;
    const text = await readFile(join(chunksDir, name), "utf8");
    if (CHUNK_SIGNATURE.every((s) => text.includes(s))) found.push(name);
  }
  if (found.length !== 1) {
    throw new Error(`expected one bundle chunk defining ${CHUNK_SIGNATURE.join(", ")}; found ${found.length} (${found.join(", ")})`);
  }
  return found[0]!;
}

/** Names exported by the chunk's own `export{…}` statements (`a as b` exports b). */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of match[1]!.split(",")) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** Appends `export{…}` for the internals the chunk does not export yet; returns the names now exported. */
async function exposeInternals(chunkPath: string): Promise<string[]> {
  const text = await readFile(chunkPath, "utf8");
  const already = exportedNames(text);
  const missing = PI15_INTERNALS.filter((name) => !already.has(name));
  if (missing.length > 0) await appendFile(chunkPath, `\nexport{${missing.join(",")}};\n`);
  return [...PI15_INTERNALS];
}

async function verify(install: Pi15Install, names: readonly string[]): Promise<void> {
  const { stdout } = await run(install.node, [install.cliJs, "--version"], { env: { ...cleanEnv(), PI_OFFLINE: "1" } });
  if (!stdout.includes(PI15_VERSION)) throw new Error(`pi --version printed ${JSON.stringify(stdout.trim())}, not ${PI15_VERSION}`);
  const probe = `const m = await import(${JSON.stringify(install.chunk)});
const missing = ${JSON.stringify(names)}.filter((n) => m[n] === undefined);
if (missing.length) { console.error("missing: " + missing.join(", ")); process.exit(1); }`;
  try {
    await run(install.node, ["--input-type=module", "-e", probe], { env: cleanEnv() });
  } catch (error) {
    throw new Error(`the patched chunk ${install.chunk} does not load or lacks internals: ${(error as { stderr?: string }).stderr ?? error}`);
  }
}

async function installInto(root: string, log: (line: string) => void): Promise<Pi15Install> {
  const started = Date.now();
  const dir = installDir(root);
  const staging = await mkdtemp(join(root, `.pi-${PI15_VERSION}-staging-`));
  try {
    log(`pi15 oracle: npm pack ${PI15_PACKAGE}@${PI15_VERSION} and node@${PI15_NODE_VERSION} into ${dir}`);
    const nodeDir = join(staging, "node");
    await mkdir(nodeDir);
    await writeFile(join(nodeDir, "package.json"), JSON.stringify({ name: "pi-sessions-pi15-node", private: true }) + "\n");
    const [tarball] = await Promise.all([
      npmPack(`${PI15_PACKAGE}@${PI15_VERSION}`, staging),
      npm(["install", "--no-package-lock", `node@${PI15_NODE_VERSION}`], nodeDir),
    ]);
    await run("tar", ["xzf", tarball, "-C", staging]);
    await rm(tarball);
    const chunk = await findChunk(join(staging, "package", "dist", "bundle", "chunks"));
    const exported = await exposeInternals(join(staging, "package", "dist", "bundle", "chunks", chunk));
    await verify(describe(staging, chunk), exported);
    const marker: Marker = { pi: PI15_VERSION, node: PI15_NODE_VERSION, chunk, exported };
    await writeFile(join(staging, MARKER), JSON.stringify(marker, null, 2) + "\n");
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    log(`pi15 oracle: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return describe(dir, chunk);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`could not install pi ${PI15_VERSION} (the pi 1.5 test oracle) into ${dir}: ${(error as Error).message}`);
  }
}

const withLock = <T>(root: string, work: () => Promise<T>): Promise<T> =>
  withInstallLock(root, `.pi-${PI15_VERSION}-install-lock`, { staleAfterMs: 10 * 60_000, pollMs: 500 }, work);

/** pi 1.5.2 and Node 22 in the cache: a no-op (one stat and a small read) when installed. */
export async function ensurePi15(log: (line: string) => void = (line) => console.log(line)): Promise<Pi15Install> {
  const root = pi15CacheRoot();
  const found = findPi15Install(root);
  if (found) return found;
  return withLock(root, async () => findPi15Install(root) ?? (await installInto(root, log)));
}

/** The jiti version pi 1.5.2's package.json asks for (it loads extensions with it). */
export const PI15_JITI_VERSION = "2.7.0";

/**
 * pi 1.5.2 unpacked from its tarball loads no extension until `jiti` is
 * installed beside it (a normal `npm i` brings it): `npm pack jiti` and extract
 * it into `package/node_modules/jiti` (jiti has no dependencies), staged and
 * renamed into place under the install lock. A no-op once there.
 */
export async function ensurePi15Jiti(install: Pi15Install, log: (line: string) => void = (line) => console.log(line)): Promise<void> {
  const target = join(install.dir, "package", "node_modules", "jiti");
  if (existsSync(join(target, "package.json"))) return;
  const root = pi15CacheRoot();
  await withLock(root, async () => {
    if (existsSync(join(target, "package.json"))) return;
    log(`pi15 oracle: npm pack jiti@${PI15_JITI_VERSION} into ${target}`);
    const staging = await mkdtemp(join(root, ".jiti-staging-"));
    try {
      const tarball = await npmPack(`jiti@${PI15_JITI_VERSION}`, staging);
      await run("tar", ["xzf", tarball, "-C", staging]);
      await mkdir(join(install.dir, "package", "node_modules"), { recursive: true });
      await rename(join(staging, "package"), target);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  });
}
