// Makes sure the Debian packages the suite needs are there. CI runs as root on a
// fresh machine, so missing packages are installed; anyone else gets told what to run.
import { runCommand, runChecked } from "./run-command";
import { DEBIAN_PACKAGES } from "./versions";

async function isInstalled(name: string): Promise<boolean> {
  const result = await runCommand("dpkg-query", ["-W", "-f=${Status}", name]);
  return result.code === 0 && result.output.includes("install ok installed");
}

export async function missingDebianPackages(names: readonly string[] = DEBIAN_PACKAGES): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) if (!(await isInstalled(name))) missing.push(name);
  return missing;
}

export async function ensureDebianPackages(log: (line: string) => void): Promise<void> {
  const missing = await missingDebianPackages();
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`missing Debian packages: ${missing.join(", ")}; run: sudo apt-get update && sudo apt-get install -y ${missing.join(" ")}`);
  }
  log(`installing Debian packages: ${missing.join(", ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await runChecked("apt-get", ["update"], { env });
  await runChecked("apt-get", ["install", "-y", ...missing], { env });
}
