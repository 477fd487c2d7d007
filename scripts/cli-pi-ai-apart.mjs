// The CLI bundle without pi-ai: pi-ai (≈ 6 MB bundled, with its providers' SDKs)
// goes to dist/cli-parts/pi-ai.js and is required only when a command calls a
// model (its import is already lazy: src/core/summarize/pi-ai-loader.ts).
// Every CLI run then compiles ≈ 1 MB instead of ≈ 7 MB (≈ 120 ms less CPU per
// run). The folder keeps it out of the .vsix (the CLI is npm's, not the extension's).

/** Where the pi-ai bundle sits, relative to the CLI bundle. */
export const CLI_PI_AI = "./cli-parts/pi-ai.js";

/** esbuild plugin: `@mariozechner/pi-ai` and `/oauth` become requires of the separate bundle. */
export const cliPiAiApart = {
  name: "cli-pi-ai-apart",
  setup(build) {
    build.onResolve({ filter: /^@mariozechner\/pi-ai(\/oauth)?$/ }, (args) => ({ path: args.path, namespace: "cli-pi-ai-apart" }));
    build.onLoad({ filter: /.*/, namespace: "cli-pi-ai-apart" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(CLI_PI_AI)}).${args.path.endsWith("/oauth") ? "oauth" : "piAi"};`,
      loader: "js",
    }));
    build.onResolve({ filter: /^\.\/cli-parts\/pi-ai\.js$/, namespace: "cli-pi-ai-apart" }, (args) => ({ path: args.path, external: true }));
  },
};

/** esbuild options (with `common`) that write the pi-ai bundle beside the CLI bundle `cliOutfile`. */
export function cliPiAiBundle(common, cliOutfile) {
  return {
    ...common,
    stdin: {
      contents: 'export * as piAi from "@mariozechner/pi-ai";\nexport * as oauth from "@mariozechner/pi-ai/oauth";\n',
      resolveDir: process.cwd(),
      loader: "ts",
    },
    outfile: cliOutfile.replace(/[^/\\]+$/, CLI_PI_AI.slice(2)),
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["@opentelemetry/api"],
  };
}
