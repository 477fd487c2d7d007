// Shared by the extension-host suites: the extension's internals (through its
// hidden command), fixture paths, session copies, waiting for a condition, and
// the loopback model server wired into the agent dir the extension reads.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import { LOOPBACK_ANTHROPIC, LOOPBACK_OPENAI, TEST_KEY } from "../../support/model-server-agent-dir";
import { startModelServer, type ModelServer, type Responder } from "../../support/model-server";
import { activateExtension } from "./extension-under-test";

export const BRANCHED_ID = "7a1e5c3b-2d4f-4a6b-9c8d-1e2f3a4b5c6d";
export const LINEAR_ID = "5f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f";

export async function extensionInternals(): Promise<Internals> {
  await activateExtension();
  return (await vscode.commands.executeCommand(INTERNALS)) as Internals;
}
const INTERNALS = "_piSessions.internals";

export function agentDir(): string {
  const dir = process.env.PI_CODING_AGENT_DIR;
  if (!dir) throw new Error("PI_CODING_AGENT_DIR is not set");
  return dir;
}

export function workspaceDir(): string {
  const dir = process.env.PI_SESSIONS_TEST_WORKSPACE;
  if (!dir) throw new Error("PI_SESSIONS_TEST_WORKSPACE is not set");
  return dir;
}

/** pi's folder for the workspace (session-manager.js getDefaultSessionDir). */
export function piDir(): string {
  return join(agentDir(), "sessions", `--${workspaceDir().slice(1).replace(/[/\\:]/g, "-")}--`);
}

export function fixturePath(sessionId: string): string {
  const name = readdirSync(piDir()).find((file) => file.endsWith(`_${sessionId}.jsonl`));
  if (!name) throw new Error(`no fixture session ${sessionId} in ${piDir()}`);
  return join(piDir(), name);
}

let copies = 0;
/** A copy of a fixture session under a new name, in `dir` (default: a scratch folder outside pi's, so the list does not change). */
export function copySession(sessionId: string, dir = scratchDir()): string {
  copies++;
  const target = join(dir, `copy-${process.pid}-${copies}-${sessionId}.jsonl`);
  copyFileSync(fixturePath(sessionId), target);
  return target;
}

export function scratchDir(): string {
  const dir = join(agentDir(), "..", "host-test-scratch");
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function bytes(path: string): Buffer {
  return readFileSync(path);
}

/** Polls until `check` returns a value other than undefined/false (no timing is asserted; the deadline only bounds a hang). */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Loopback {
  server: ModelServer;
  close(): Promise<void>;
}

/**
 * Starts the loopback model server and points models.json/auth.json of the agent dir the
 * extension reads at it (two providers, one per wire protocol, with TEST_KEY).
 */
export async function startLoopback(respond: Responder, auth: Record<string, unknown> | false = defaultAuth()): Promise<Loopback> {
  const server = await startModelServer({ expectedKey: TEST_KEY, respond });
  const unpoint = pointAgentDirAt(server, auth);
  return {
    server,
    close: async () => {
      await server.close();
      unpoint();
    },
  };
}

/** Writes models.json/auth.json of the agent dir the extension reads for a loopback server at these URLs; the returned function removes them. */
export function pointAgentDirAt(urls: { openaiBaseUrl: string; anthropicBaseUrl: string }, auth: Record<string, unknown> | false = defaultAuth()): () => void {
  const server = urls;
  const models = [
    { id: "summarizer", name: "summarizer", input: ["text"], reasoning: false, contextWindow: 128000, maxTokens: 16384 },
  ];
  const modelsJson = {
    providers: {
      [LOOPBACK_OPENAI]: { baseUrl: server.openaiBaseUrl, api: "openai-completions", apiKey: "PI_SESSIONS_LOOPBACK_UNSET_KEY_VAR", models },
      [LOOPBACK_ANTHROPIC]: { baseUrl: server.anthropicBaseUrl, api: "anthropic-messages", apiKey: "PI_SESSIONS_LOOPBACK_UNSET_KEY_VAR", models },
    },
  };
  writeFileSync(join(agentDir(), "models.json"), JSON.stringify(modelsJson, null, 2));
  const authFile = join(agentDir(), "auth.json");
  if (auth) writeFileSync(authFile, JSON.stringify(auth, null, 2), { mode: 0o600 });
  else rmSync(authFile, { force: true });
  return () => {
    rmSync(join(agentDir(), "models.json"), { force: true });
    rmSync(authFile, { force: true });
  };
}

export function defaultAuth(): Record<string, unknown> {
  return { [LOOPBACK_OPENAI]: { type: "api_key", key: TEST_KEY }, [LOOPBACK_ANTHROPIC]: { type: "api_key", key: TEST_KEY } };
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration("piSessions").update(key, value, vscode.ConfigurationTarget.Global);
}

export interface CommandOutcome<T> {
  ok: boolean;
  reason?: string;
  message?: string;
  value?: T;
}

export async function run<T = Record<string, unknown>>(command: string, args?: unknown): Promise<CommandOutcome<T>> {
  return (await vscode.commands.executeCommand(command, args)) as CommandOutcome<T>;
}
