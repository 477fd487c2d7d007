// Set API Key… (into SecretStorage; provider quick pick; the key is never
// logged) and Select Compaction Preset… (writes piSessions.defaultPreset).
import * as vscode from "vscode";
import { existsSync } from "node:fs";
import { ompAgentDbFile } from "../../core/agent";
import { nodeSqlite } from "../../core/fs";
import { loadModelRegistry } from "../../core/summarize/model-registry";
import { readOmpCredentials } from "../../core/summarize/omp-agent-db";
import { commandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import { reportError } from "../error-actions";
import type { Services } from "../services";
import { SETTINGS_SECTION } from "../settings";
import { DIGEST_CHOICE, pickPreset } from "./summary-choices";

export const SET_API_KEY_COMMAND_ID = "piSessions.setApiKey";
export const SELECT_PRESET_COMMAND_ID = "piSessions.selectPreset";

async function knownProviders(services: Services): Promise<string[]> {
  try {
    const settings = services.settings();
    // omp's models.yml providers too, when omp's sessions are read.
    const registry = await loadModelRegistry({ agentDir: settings.agentDir, ...(settings.omp.enabled ? { ompAgentDir: settings.omp.agentDir } : {}) });
    return [...new Set(registry.models.map((m) => m.provider))].sort();
  } catch (error) {
    services.log.warn(`cannot list providers: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

/** Providers omp has a login for (its agent.db), when omp's sessions are read. */
function ompLoggedIn(services: Services): (provider: string) => boolean {
  const settings = services.settings();
  if (!settings.omp.enabled) return () => false;
  const logins = readOmpCredentials(ompAgentDbFile(settings.omp.agentDir), { sqlite: nodeSqlite(), exists: existsSync });
  return (provider) => logins.of(provider).length > 0;
}

export async function setApiKey(services: Services, raw: unknown): Promise<CommandResult<{ provider: string; stored: boolean }>> {
  const args = commandArgs(raw);
  try {
    let provider = args.provider;
    if (!provider) {
      const stored = new Set(services.apiKeys.providers());
      const omp = ompLoggedIn(services);
      const items = (await knownProviders(services)).map((name) => ({
        label: name,
        description: [stored.has(name) ? "key stored" : "", omp(name) ? "omp login" : ""].filter(Boolean).join(" · "),
      }));
      provider = (await vscode.window.showQuickPick(items, { title: "Pi Sessions: Set API Key", placeHolder: "Provider" }))?.label;
    }
    if (!provider) return notDone("cancelled", "No provider chosen.");
    const key =
      args.key ??
      (await vscode.window.showInputBox({
        title: `Pi Sessions: API key for ${provider}`,
        prompt: "Stored in VS Code's secret storage and used for summaries before pi's auth.json and environment variables. Leave empty to remove a stored key.",
        password: true,
        ignoreFocusOut: true,
      }));
    if (key === undefined) return notDone("cancelled", "No key entered.");
    if (key.trim() === "") {
      await services.apiKeys.delete(provider);
      services.log.info(`API key for ${provider} removed`);
      void vscode.window.showInformationMessage(`The stored key for ${provider} was removed.`);
      return ok({ provider, stored: false });
    }
    await services.apiKeys.set(provider, key.trim());
    services.log.info(`API key for ${provider} stored`);
    void vscode.window.showInformationMessage(`Key for ${provider} stored in VS Code's secret storage.`);
    return ok({ provider, stored: true });
  } catch (error) {
    return reportError(error, "Set API Key", { log: services.log });
  }
}

export async function selectPreset(services: Services, raw: unknown): Promise<CommandResult<{ preset: string }>> {
  const args = commandArgs(raw);
  try {
    const session = services.active.path ? services.store.peek(services.active.path) : undefined;
    const preset = args.preset ?? (await pickPreset(services.settings(), session, "Pi Sessions: Default Compaction Preset"));
    if (!preset) return notDone("cancelled", "No preset chosen.");
    if (preset === DIGEST_CHOICE) {
      void vscode.window.showInformationMessage("The digest is chosen per run (Compact Session → Digest (no model)); the default stays a model.");
      return notDone("not-applicable", "The digest cannot be the default preset.");
    }
    await vscode.workspace.getConfiguration(SETTINGS_SECTION).update("defaultPreset", preset, vscode.ConfigurationTarget.Global);
    services.log.info(`default preset: ${preset}`);
    return ok({ preset });
  } catch (error) {
    return reportError(error, "Select Compaction Preset", { log: services.log });
  }
}
