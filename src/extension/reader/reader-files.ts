// The file of a tool call the reader's page asks to open. Pure (no vscode):
// the page names an entry and a tool call; the path is read from the session
// (never taken from the page), resolved against the session's cwd, and
// marked `outside` when it is neither in the workspace nor the session's cwd.
import { toolCallView } from "../../core/reader";
import type { LoadedSession } from "../../core/session/open/open-session";
import { recordedCwd } from "../../core/session/open/session-info";
import { isWithin, resolveManifestPath } from "../summary-panel/panel-files";
import type { ToolCallFile } from "./reader-router";

type Rec = Record<string, unknown>;

export function toolCallFile(
  session: LoadedSession,
  entryId: string,
  toolCallId: string,
  env: { workspaceRoots: readonly string[]; homeDir: string },
): ToolCallFile | undefined {
  const entry = session.entry(entryId) as unknown as Rec | undefined;
  const message = entry?.type === "message" ? (entry.message as Rec | undefined) : undefined;
  if (!message || message.role !== "assistant" || !Array.isArray(message.content)) return undefined;
  const part = message.content.find((p): p is Rec => typeof p === "object" && p !== null && (p as Rec).type === "toolCall" && (p as Rec).id === toolCallId);
  const given = part ? toolCallView(part).path : undefined;
  if (given === undefined) return undefined;
  const cwd = recordedCwd(session);
  const path = resolveManifestPath(given, { sessionCwd: cwd, homeDir: env.homeDir });
  const inside = [cwd, ...env.workspaceRoots].filter((dir): dir is string => !!dir);
  return { path, given, outside: path === undefined || !inside.some((dir) => isWithin(path, dir)) };
}
