import { parseArgs } from "./args";
import type { CliIo, Command } from "./command";
import { COMMANDS } from "./commands";
import { CliError, EXIT_BAD_INPUT, EXIT_OK } from "./errors";
import { helpText } from "./help";

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const byName = new Map<string, Command>(COMMANDS.map((c) => [c.name, c]));
    const args = parseArgs(argv, (name) => byName.get(name)?.flags);
    if (args.command === undefined || args.command === "help" || (args.flags.has("help") && !byName.has(args.command))) {
      io.stdout(helpText(COMMANDS));
      return args.command === undefined && !args.flags.has("help") ? EXIT_BAD_INPUT : EXIT_OK;
    }
    const command = byName.get(args.command);
    if (!command) throw new CliError(`unknown command '${args.command}' (try: ${COMMANDS.map((c) => c.name).join(", ")})`, EXIT_BAD_INPUT);
    if (args.flags.has("help")) {
      io.stdout(`usage: pi-sessions ${command.usage}\n\n${command.summary}\n`);
      return EXIT_OK;
    }
    return await command.run({ args, io, json: args.flags.get("json") === true });
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`error: ${error.message}\n`);
      for (const line of error.details) io.stderr(`${line}\n`);
      return error.exitCode;
    }
    // Anything else is our bug; still one line, never a stack trace (PI_SESSIONS_DEBUG=1 shows it).
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`error: ${message}\n`);
    if (io.env.PI_SESSIONS_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return EXIT_BAD_INPUT;
  }
}

if (require.main === module) {
  // `pi-sessions tree FILE | head`: a closed pipe ends the output, not the process with a trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stdoutBytes: (bytes) => process.stdout.write(bytes),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    processCwd: process.cwd(),
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = EXIT_BAD_INPUT;
    },
  );
}
