#!/usr/bin/env node
import { run } from "./cli.js";

const code = await run(process.argv.slice(2), {
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
  env: process.env,
  now: () => new Date(),
  isTty: process.stdout.isTTY === true,
});
process.exitCode = code;
