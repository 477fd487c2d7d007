// Installs code-server (VS Code in a browser with a real Node extension host) and the
// Node 24 it needs into a cache folder outside the repository, once. A marker file
// written last makes the cached case a single stat, and an interrupted install is
// thrown away and redone.
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { ensureDebianPackages } from "./debian-packages";
import { runChecked } from "./run-command";
import { withInstallLock, withoutNpmRunEnv as withoutAnyNpmEnv } from "../tool-cache";
import { CODE_SERVER_VERSION, NODE_FOR_CODE_SERVER_VERSION, cacheRoot } from "./versions";

export interface CodeServerInstall {
  /** code-server's entry script, run with `nodeBin`. */
  codeServerEntry: string;
  /** Node 24's `node`. */
  nodeBin: string;
  /** Folder holding Node 24's `node`; goes first on PATH for code-server only. */
  nodeBinDir: string;
  /** Environment for running code-server: the parent's, with Node 24 first on PATH. */
  env: NodeJS.ProcessEnv;
}

const MARKER = ".pi-sessions-installed.json";

function nodeDir(root: string): string {
  return join(root, `node-${NODE_FOR_CODE_SERVER_VERSION}`);
}

function codeServerDir(root: string): string {
  return join(root, `code-server-${CODE_SERVER_VERSION}`);
}

export function describeInstall(root = cacheRoot()): CodeServerInstall {
  const nodePackage = join(nodeDir(root), "node_modules", "node");
  const nodeBinDir = join(nodePackage, "bin");
  return {
    codeServerEntry: join(codeServerDir(root), "node_modules", "code-server", "out", "node", "entry.js"),
    nodeBin: join(nodeBinDir, "node"),
    nodeBinDir,
    env: withNodeFirst(process.env, nodeBinDir),
  };
}

/** code-server's postinstall reads its Node version from npm_config_user_agent ("node/v20"): every npm_* variable goes. */
export const withoutNpmRunEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => withoutAnyNpmEnv(env, false);

/** The environment for Node 24 tools (code-server's install and run): Node 24 first on PATH. */
export function withNodeFirst(env: NodeJS.ProcessEnv, nodeBinDir: string): NodeJS.ProcessEnv {
  const clean = withoutNpmRunEnv(env);
  return { ...clean, PATH: [nodeBinDir, clean.PATH ?? ""].join(delimiter) };
}

async function isMarked(dir: string, expected: string): Promise<boolean> {
  try {
    return (await readFile(join(dir, MARKER), "utf8")) === expected;
  } catch {
    return false;
  }
}

/** npm install into `dir`, which is first emptied; the marker is written only on success. */
async function installPackages(dir: string, specs: string[], env: NodeJS.ProcessEnv, marker: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "pi-sessions-tool-cache", private: true }) + "\n");
  await runChecked("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", ...specs], { cwd: dir, env });
  await writeFile(join(dir, MARKER), marker);
}

const NODE_MARKER = JSON.stringify({ node: NODE_FOR_CODE_SERVER_VERSION });
const CODE_SERVER_MARKER = JSON.stringify({ codeServer: CODE_SERVER_VERSION, node: NODE_FOR_CODE_SERVER_VERSION });

async function isInstalled(root: string, install: CodeServerInstall): Promise<boolean> {
  return (
    (await isMarked(nodeDir(root), NODE_MARKER)) &&
    (await isMarked(codeServerDir(root), CODE_SERVER_MARKER)) &&
    existsSync(install.codeServerEntry) &&
    existsSync(install.nodeBin)
  );
}

const withLock = <T>(root: string, work: () => Promise<T>): Promise<T> =>
  withInstallLock(root, ".install-lock", { staleAfterMs: 20 * 60_000, pollMs: 2000 }, work);

export async function ensureCodeServer(log: (line: string) => void = (line) => console.log(line)): Promise<CodeServerInstall> {
  const root = cacheRoot();
  const install = describeInstall(root);
  await ensureDebianPackages(log);
  if (await isInstalled(root, install)) return install;
  return withLock(root, async () => {
    if (!(await isInstalled(root, install))) await installInto(root, install, log);
    return install;
  });
}

/** Node 24 alone (what code-server runs on; also the runtime with node:sqlite the tests need), installed once. */
export async function ensureNode24(log: (line: string) => void = (line) => console.log(line)): Promise<string> {
  const root = cacheRoot();
  const { nodeBin } = describeInstall(root);
  const ready = async (): Promise<boolean> => (await isMarked(nodeDir(root), NODE_MARKER)) && existsSync(nodeBin);
  if (await ready()) return nodeBin;
  return withLock(root, async () => {
    if (!(await ready())) {
      log(`installing node@${NODE_FOR_CODE_SERVER_VERSION} into ${nodeDir(root)}`);
      await installPackages(nodeDir(root), [`node@${NODE_FOR_CODE_SERVER_VERSION}`], withoutNpmRunEnv(process.env), NODE_MARKER);
    }
    return nodeBin;
  });
}

async function installInto(root: string, install: CodeServerInstall, log: (line: string) => void): Promise<void> {
  const nodeReady = await isMarked(nodeDir(root), NODE_MARKER);
  const started = Date.now();
  if (!nodeReady) {
    log(`installing node@${NODE_FOR_CODE_SERVER_VERSION} into ${nodeDir(root)}`);
    await installPackages(nodeDir(root), [`node@${NODE_FOR_CODE_SERVER_VERSION}`], withoutNpmRunEnv(process.env), NODE_MARKER);
  }
  log(`installing code-server@${CODE_SERVER_VERSION} into ${codeServerDir(root)} (about 1.5 minutes, 620 MB)`);
  const nodeHeaders = join(nodeDir(root), "node_modules", "node", "node_modules", `node-${process.platform}-${process.arch}`);
  // The machine's ~/.npmrc may say nodedir=/usr (Node 20's headers): native modules must
  // build against Node 24, and npm's lifecycle scripts must run Node 24 from PATH.
  const env = { ...install.env, npm_config_nodedir: nodeHeaders };
  await installPackages(codeServerDir(root), [`code-server@${CODE_SERVER_VERSION}`], env, CODE_SERVER_MARKER);
  log(`code-server installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
