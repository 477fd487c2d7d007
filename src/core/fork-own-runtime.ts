// A child process of ours (a bundled script in dist/), run with this process's
// own runtime: plain Node for the CLI, Electron as Node in VS Code's extension
// host (ELECTRON_RUN_AS_NODE). No inherited flags (the host's inspector or
// memory flags are not the child's), stderr kept for the failure message, and
// JSON over IPC (data crossing the boundary is validated by the receiver).
import { fork, type ChildProcess } from "node:child_process";

export function forkOwnRuntime(script: string): ChildProcess {
  return fork(script, [], {
    execPath: process.execPath,
    execArgv: [],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "json",
  });
}
