// Pi Sessions: Migrate Session File… — rewrites a version 1/2 session file as
// version 3 (as pi does when it opens one), after a modal confirmation that
// names the backup kept beside it.
import * as vscode from "vscode";
import { migrateSessionFile, type MigrateFileResult } from "../../core/session/append/migrate-file";
import { commandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import { reportError } from "../error-actions";
import type { Services } from "../services";
import { refuseUntrusted } from "../trust";
import { pickSessionPath } from "./session-target";

export const MIGRATE_COMMAND_ID = "piSessions.migrateSession";

export async function migrateSession(services: Services, raw: unknown): Promise<CommandResult<Omit<MigrateFileResult, "text">>> {
  const refused = refuseUntrusted("Migrate Session File", services.log);
  if (refused) return refused;
  const args = commandArgs(raw);
  const path = args.sessionPath ?? services.active.path ?? (await pickSessionPath(services, "Pick the session file to migrate"));
  if (!path) return notDone("no-session", "No session chosen.");
  try {
    const planned = migrateSessionFile(path, { dryRun: true });
    if (planned.fromVersion >= planned.toVersion) {
      void vscode.window.showInformationMessage(`This session file is already version ${planned.fromVersion}: nothing to migrate.`);
      return notDone("not-applicable", "Already current.");
    }
    if (args.confirm !== false) {
      const answer = await vscode.window.showWarningMessage(
        `Migrate this session file from version ${planned.fromVersion} to ${planned.toVersion}?`,
        {
          modal: true,
          detail: `The file is rewritten the way pi rewrites it when it opens an old session. The original is kept as ${planned.plannedBackup}.${planned.droppedLines > 0 ? ` ${planned.droppedLines} line(s) pi cannot parse will only be in the backup.` : ""}`,
        },
        "Migrate",
      );
      if (answer !== "Migrate") return notDone("cancelled", "Not migrated.");
    }
    const result = migrateSessionFile(path);
    await services.store.reload(path);
    services.log.info(`migrated ${path} v${result.fromVersion} → v${result.toVersion}; backup ${result.backup}`);
    void vscode.window.showInformationMessage(`Migrated to version ${result.toVersion}. Backup: ${result.backup}`);
    const { text: _text, ...rest } = result;
    return ok(rest);
  } catch (error) {
    return reportError(error, "Migrate Session File", { log: services.log, sessionPath: path });
  }
}
