// Running pi itself: its executable, resume and fork invocations.

export { findPiExecutable, PI_INSTALL_COMMAND, type PiAction, piArgs, piCommandLine, shellQuote } from "./pi-invocation.js";
