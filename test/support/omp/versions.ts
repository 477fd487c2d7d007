// Pinned versions of everything the omp 18.3.4 oracle installs (all from the npm
// registry), in one place. omp is never a dependency of the product: the test
// tooling installs these into a cache outside the repository.

/** oh-my-pi, the coding agent whose session semantics the oracle answers for. */
export const OMP_PACKAGE = "@oh-my-pi/pi-coding-agent";
export const OMP_VERSION = "18.3.4";

/** omp's CLI is a Bun bundle; Bun comes from npm as a plain binary package. */
export const BUN_PACKAGE = "@oven/bun-linux-x64";
export const BUN_VERSION = "1.4.5";

/**
 * omp's native addon. 18.3.x natives are not on the registry; 18.2.3 loads, and
 * the 9 names 18.3.4 imports beyond it (none called by session code) are stubbed.
 */
export const NATIVES_PACKAGE = "@oh-my-pi/pi-natives";
export const NATIVES_PLATFORM_PACKAGE = "@oh-my-pi/pi-natives-linux-x64";
export const NATIVES_VERSION = "18.2.3";
export const NATIVES_STUBS = [
  "ShellFsFileType",
  "ShellFsMissing",
  "ShellFsOp",
  "ShellFsResolve",
  "TextPredictor",
  "appleFmAvailability",
  "appleFmCancel",
  "appleFmGenerate",
  "renderMermaidAscii",
] as const;

/** The one package the bundle imports statically beside the natives (its runtime has no dependencies). */
export const BABEL_PARSER_PACKAGE = "@babel/parser";
export const BABEL_PARSER_VERSION = "7.29.15";

/**
 * The bundle keeps a registry of its bundled modules (the one omp hands to its
 * extensions): `<registry>={"@oh-my-pi/pi-agent-core":…` filled by `<init>()`.
 * A copy of the bundle exports both so the oracle reaches omp's internals.
 * Found by content (minified names), checked by the installer.
 */
export const BUNDLE_REGISTRY_PATTERN = /var ([$\w]+)=[$\w]+\(\(\)=>\{([$\w]+)=\{"@oh-my-pi\/pi-agent-core":/;
