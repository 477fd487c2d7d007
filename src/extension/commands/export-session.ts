// Export Session…: the branch of a session (a session row: its current
// branch; an entry row: root → that entry) as Markdown, offline HTML or a
// standalone session JSONL. Secrets the branch holds are flagged first, with
// the choice to redact them. Scripts and tests can pass every answer:
// { sessionPath, entryId?, format, redact, target }.
import { basename, dirname, join } from "node:path";
import * as vscode from "vscode";
import { describeSecrets, EXPORT_FORMATS, exportFileName, exportSession, type ExportFormat } from "../../core/export";
import { openSession } from "../../core/session/open/open-session";
import { commandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";

export const EXPORT_COMMAND_ID = "piSessions.exportSession";

export interface ExportDeps {
  log: vscode.LogOutputChannel;
  activePath(): string | undefined;
  isTrusted(): boolean;
}

const FORMAT_ITEMS: { label: string; detail: string; format: ExportFormat }[] = [
  { label: "Markdown", detail: "Readable text; tool output folded in <details>", format: "md" },
  { label: "HTML page", detail: "One self-contained page that works offline (no scripts, nothing loaded)", format: "html" },
  { label: "Session JSONL", detail: "The branch as a standalone pi session (a clone pi can open)", format: "jsonl" },
];

interface ExportAnswers {
  format?: ExportFormat;
  redact?: boolean;
  target?: string;
}

function answers(raw: unknown): ExportAnswers {
  if (typeof raw !== "object" || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const out: ExportAnswers = {};
  if (typeof r.format === "string" && (EXPORT_FORMATS as readonly string[]).includes(r.format)) out.format = r.format as ExportFormat;
  if (typeof r.redact === "boolean") out.redact = r.redact;
  if (typeof r.target === "string") out.target = r.target;
  return out;
}

export async function exportSessionCommand(deps: ExportDeps, raw: unknown): Promise<CommandResult<{ file: string; format: ExportFormat; secrets: number; redacted: boolean }>> {
  const args = commandArgs(raw);
  const given = answers(raw);
  const sessionPath = args.sessionPath ?? deps.activePath();
  if (!sessionPath) return notDone("no-session", "No session given.");
  const format = given.format ?? (await vscode.window.showQuickPick(FORMAT_ITEMS, { title: "Pi Sessions: Export Session" }))?.format;
  if (!format) return notDone("cancelled", "No format chosen.");
  const session = await openSession(sessionPath);
  const leafId = args.entryId && session.index.get(args.entryId) ? args.entryId : session.index.leafId;
  const scan = exportSession(session, { leafId, format, redact: false });
  let redact = given.redact ?? false;
  if (scan.secrets.count > 0 && given.redact === undefined) {
    const answer = await vscode.window.showWarningMessage(
      `This branch holds ${scan.secrets.count} likely secret(s): ${describeSecrets(scan.secrets)}.`,
      { modal: true, detail: "They are in the session as the tools printed them (API keys, .env values). Redact replaces each with [redacted: kind]." },
      "Redact and Export",
      "Export As Is",
    );
    if (!answer) return notDone("cancelled", "Export cancelled.");
    redact = answer === "Redact and Export";
  }
  const result = redact ? exportSession(session, { leafId, format, redact: true }) : scan;
  let target = given.target;
  if (!target) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? dirname(sessionPath);
    const uri = await vscode.window.showSaveDialog({
      title: "Export Session",
      defaultUri: vscode.Uri.file(join(folder, exportFileName(sessionPath, leafId, format))),
      filters: format === "md" ? { Markdown: ["md"] } : format === "html" ? { HTML: ["html"] } : { "Session JSONL": ["jsonl"] },
    });
    if (!uri) return notDone("cancelled", "No file chosen.");
    target = uri.fsPath;
  }
  if (target === sessionPath) return notDone("not-applicable", "An export never replaces its session file.");
  await vscode.workspace.fs.writeFile(vscode.Uri.file(target), Buffer.from(result.text, "utf8"));
  deps.log.info(`exported ${sessionPath} (${leafId ?? "empty"}) as ${format} to ${target}${redact ? ", secrets redacted" : ""}`);
  void vscode.window.showInformationMessage(`Pi Sessions: exported to ${basename(target)}.`, "Open").then((choice) => {
    if (choice === "Open") void vscode.commands.executeCommand("vscode.open", vscode.Uri.file(target));
  });
  return ok({ file: target, format, secrets: result.secrets.count, redacted: redact });
}

export function registerExport(context: vscode.ExtensionContext, deps: ExportDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(EXPORT_COMMAND_ID, async (raw: unknown) => {
      try {
        return await exportSessionCommand(deps, raw);
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        deps.log.error(`export: ${text}`);
        void vscode.window.showErrorMessage(`Pi Sessions: ${text}`);
        return notDone("error", text);
      }
    }),
  );
}
