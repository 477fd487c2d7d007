// Installs oh-my-pi 18.3.4 and the Bun it runs on into a cache folder outside the
// repository, once, for the tests only: omp is the third oracle, never a
// dependency of the product. Everything comes from the npm registry as tarballs
// (`npm pack`, then extracted: no install scripts run):
//
//   bun/bin/bun                                     Bun (npm @oven/bun-linux-x64)
//   rt/node_modules/@oh-my-pi/pi-coding-agent/      omp's package (dist/cli.js is the whole CLI as one bundle)
//   rt/node_modules/@oh-my-pi/pi-natives{,-linux-x64}/  its native addon, 18.2.3 + stubs for 9 newer names
//   rt/node_modules/@babel/parser/                  a static import of the bundle
//   rt/node_modules/@oh-my-pi/pi-coding-agent/dist/cli-oracle.js
//                                                   a copy of the bundle that also exports its module registry
//
// Layout: <cache>/omp-18.3.4/{bun/, rt/, .pi-sessions-installed.json}. Built in a
// staging folder and renamed into place; the marker is written last and names
// what was verified; a concurrent installer waits on a lock folder.

import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { npmPack, toolCacheRoot, withInstallLock, withoutNpmRunEnv } from "../../../scripts/tool-cache.js";
import {
  BABEL_PARSER_PACKAGE,
  BABEL_PARSER_VERSION,
  BUN_PACKAGE,
  BUN_VERSION,
  BUNDLE_REGISTRY_PATTERN,
  NATIVES_PACKAGE,
  NATIVES_PLATFORM_PACKAGE,
  NATIVES_STUBS,
  NATIVES_VERSION,
  OMP_PACKAGE,
  OMP_VERSION,
} from "./versions.js";

const run = promisify(execFile);

export interface OmpInstall {
  /** <cache>/omp-18.3.4 */
  dir: string;
  /** Bun's binary. */
  bun: string;
  /** omp's CLI bundle: `bun --no-install cli.js …` runs the real `omp`. */
  cliJs: string;
  /** The bundle copy exporting `__OMP_MODULES` / `__OMP_MODULES_INIT` (import it for omp's internals). */
  oracleJs: string;
}

interface Marker {
  omp: string;
  bun: string;
  natives: string;
  babelParser: string;
  stubs: string[];
  /** What `omp --version` printed. */
  version: string;
}

const MARKER = ".pi-sessions-installed.json";

/** The tool cache (scripts/tool-cache.ts). */
export const ompCacheRoot = toolCacheRoot;

function installDir(root: string): string {
  return join(root, `omp-${OMP_VERSION}`);
}

function describeAt(dir: string): OmpInstall {
  const dist = join(dir, "rt", "node_modules", "@oh-my-pi", "pi-coding-agent", "dist");
  return { dir, bun: join(dir, "bun", "bin", "bun"), cliJs: join(dist, "cli.js"), oracleJs: join(dist, "cli-oracle.js") };
}

function readMarker(dir: string): Marker | undefined {
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER), "utf8")) as Marker;
    const current =
      marker.omp === OMP_VERSION &&
      marker.bun === BUN_VERSION &&
      marker.natives === NATIVES_VERSION &&
      marker.babelParser === BABEL_PARSER_VERSION &&
      NATIVES_STUBS.every((name) => marker.stubs.includes(name));
    return current ? marker : undefined;
  } catch {
    return undefined;
  }
}

/** The install if it is complete and verified (a small read and three stats), else undefined. */
export function findOmpInstall(root = ompCacheRoot()): OmpInstall | undefined {
  const dir = installDir(root);
  if (!readMarker(dir)) return undefined;
  const install = describeAt(dir);
  return existsSync(install.bun) && existsSync(install.cliJs) && existsSync(install.oracleJs) ? install : undefined;
}

const cleanEnv = (): NodeJS.ProcessEnv => withoutNpmRunEnv(process.env, true);

/** Extracts an npm tarball's `package/` into `into`. */
async function extract(tarball: string, into: string): Promise<void> {
  await mkdir(into, { recursive: true });
  await run("tar", ["xzf", tarball, "-C", into, "--strip-components=1"]);
  await rm(tarball);
}

/** The 9 names the 18.3.4 bundle imports from natives 18.2.3 that it lacks; session code never calls them. */
function nativesStubSource(): string {
  const lines = [
    "",
    "// pi-sessions test oracle: names omp 18.3.4 imports that natives 18.2.3 lacks (never called by session code).",
    "const __ompStub = (name) => () => { throw new Error(`pi-natives stub: ${name} is not available in 18.2.3`); };",
  ];
  for (const name of NATIVES_STUBS) {
    if (name === "TextPredictor") lines.push(`export const ${name} = class { constructor() { throw new Error("pi-natives stub: ${name}"); } };`);
    else if (name === "appleFmAvailability") lines.push(`export const ${name} = () => ({ available: false, reason: "stub" });`);
    else if (name.startsWith("ShellFs")) lines.push(`export const ${name} = {};`);
    else lines.push(`export const ${name} = __ompStub(${JSON.stringify(name)});`);
  }
  return lines.join("\n") + "\n";
}

/** Copies the bundle with one appended line exporting its module registry and the registry's initialiser. */
async function writeOracleBundle(install: OmpInstall): Promise<void> {
  const text = await readFile(install.cliJs, "utf8");
  const found = BUNDLE_REGISTRY_PATTERN.exec(text);
  if (!found) throw new Error(`omp's bundle layout changed: its module registry was not found in ${install.cliJs}`);
  const [, init, registry] = found;
  await copyFile(install.cliJs, install.oracleJs);
  await appendFile(install.oracleJs, `\nexport { ${registry} as __OMP_MODULES, ${init} as __OMP_MODULES_INIT };\n`);
}

/** `omp --version`, and the oracle copy imported with the session modules the oracle uses. */
async function verify(install: OmpInstall, home: string): Promise<string> {
  const env = { ...cleanEnv(), HOME: home, PI_CODING_AGENT_DIR: join(home, ".omp", "agent") };
  const { stdout } = await run(install.bun, ["--no-install", install.cliJs, "--version"], { env });
  if (!stdout.includes(OMP_VERSION)) throw new Error(`omp --version printed ${JSON.stringify(stdout.trim())}, not ${OMP_VERSION}`);
  const probe = `const b = await import(${JSON.stringify(install.oracleJs)}); b.__OMP_MODULES_INIT();
const { SessionManager } = await b.__OMP_MODULES["@oh-my-pi/pi-coding-agent/session/session-manager"]();
const comp = await b.__OMP_MODULES["@oh-my-pi/pi-agent-core/compaction"]();
if (typeof SessionManager.open !== "function" || typeof comp.prepareCompaction !== "function") process.exit(3);`;
  try {
    await run(install.bun, ["--no-install", "-e", probe], { env });
  } catch (error) {
    throw new Error(`the oracle bundle ${install.oracleJs} does not load omp's session modules: ${(error as { stderr?: string }).stderr ?? error}`);
  }
  return stdout.trim();
}

async function installInto(root: string, log: (line: string) => void): Promise<OmpInstall> {
  const started = Date.now();
  const dir = installDir(root);
  const staging = await mkdtemp(join(root, `.omp-${OMP_VERSION}-staging-`));
  try {
    log(`omp oracle: npm pack ${OMP_PACKAGE}@${OMP_VERSION}, ${BUN_PACKAGE}@${BUN_VERSION}, natives ${NATIVES_VERSION} into ${dir}`);
    const packs = join(staging, "packs");
    await mkdir(packs);
    const specs = [
      `${BUN_PACKAGE}@${BUN_VERSION}`,
      `${OMP_PACKAGE}@${OMP_VERSION}`,
      `${NATIVES_PACKAGE}@${NATIVES_VERSION}`,
      `${NATIVES_PLATFORM_PACKAGE}@${NATIVES_VERSION}`,
      `${BABEL_PARSER_PACKAGE}@${BABEL_PARSER_VERSION}`,
    ];
    const [bun, omp, natives, nativesPlatform, babel] = await Promise.all(specs.map((spec) => npmPack(spec, packs)));
    const modules = join(staging, "rt", "node_modules");
    await extract(bun!, join(staging, "bun"));
    await extract(omp!, join(modules, OMP_PACKAGE));
    await extract(natives!, join(modules, NATIVES_PACKAGE));
    await extract(nativesPlatform!, join(modules, NATIVES_PLATFORM_PACKAGE));
    await extract(babel!, join(modules, BABEL_PARSER_PACKAGE));
    await rm(packs, { recursive: true, force: true });
    await writeFile(join(staging, "rt", "package.json"), JSON.stringify({ name: "pi-sessions-omp-oracle", private: true, type: "module" }) + "\n");
    await appendFile(join(modules, NATIVES_PACKAGE, "native", "index.js"), nativesStubSource());
    const install = describeAt(staging);
    await writeOracleBundle(install);
    const home = await mkdtemp(join(staging, "verify-home-"));
    const version = await verify(install, home);
    await rm(home, { recursive: true, force: true });
    const marker: Marker = {
      omp: OMP_VERSION,
      bun: BUN_VERSION,
      natives: NATIVES_VERSION,
      babelParser: BABEL_PARSER_VERSION,
      stubs: [...NATIVES_STUBS],
      version,
    };
    await writeFile(join(staging, MARKER), JSON.stringify(marker, null, 2) + "\n");
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    log(`omp oracle: installed ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return describeAt(dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`could not install omp ${OMP_VERSION} (the omp test oracle) into ${dir}: ${(error as Error).message}`);
  }
}

const withLock = <T>(root: string, work: () => Promise<T>): Promise<T> =>
  withInstallLock(root, `.omp-${OMP_VERSION}-install-lock`, { staleAfterMs: 10 * 60_000, pollMs: 500 }, work);

/** omp 18.3.4 and Bun in the cache: a no-op (a small read and three stats) when installed. */
export async function ensureOmp(log: (line: string) => void = (line) => console.log(line)): Promise<OmpInstall> {
  const root = ompCacheRoot();
  const found = findOmpInstall(root);
  if (found) return found;
  return withLock(root, async () => findOmpInstall(root) ?? (await installInto(root, log)));
}
