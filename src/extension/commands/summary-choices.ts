// The questions before a summary: which model (a preset, "current" = the
// session's own model, or the digest without a model) and the focus text.
import * as vscode from "vscode";
import type { LoadedSession } from "../../core/session/open/open-session";
import { readPiSessionsConfig } from "../../core/summarize/pi-sessions-config";
import { mergePresets } from "../../core/summarize/presets";
import { sessionModel } from "../../core/context/session-model";
import type { SummarizerChoice } from "../../core/write";
import type { CommandArgs } from "../command-args";
import type { ExtensionSettings } from "../settings";

export const DIGEST_CHOICE = "digest";

interface PresetItem extends vscode.QuickPickItem {
  choice: string;
}

/** Presets from pi-sessions.json with piSessions.presets over them, and the default preset's name. */
export async function presetTable(settings: ExtensionSettings): Promise<{ presets: Record<string, { model: string; thinkingLevel?: string }>; defaultPreset: string }> {
  const config = await readPiSessionsConfig(settings.agentDir);
  return { presets: mergePresets(config.presets, settings.presets), defaultPreset: settings.defaultPreset ?? config.defaultPreset ?? "current" };
}

export async function pickPreset(settings: ExtensionSettings, session: LoadedSession | undefined, title: string): Promise<string | undefined> {
  const { presets, defaultPreset } = await presetTable(settings);
  const model = session ? sessionModel(session.pathTo()).model : null;
  const items: PresetItem[] = [
    { label: "current", description: model ? `the session's model: ${model.provider}/${model.modelId}` : "the session's model", choice: "current" },
    ...Object.entries(presets).map(([name, preset]) => ({
      label: name,
      description: preset.model,
      ...(preset.thinkingLevel ? { detail: `thinking ${preset.thinkingLevel}` } : {}),
      choice: name,
    })),
    { label: "Digest (no model)", description: "built from the session itself, no model call", choice: DIGEST_CHOICE },
  ];
  const first = items.find((item) => item.choice.toLowerCase() === defaultPreset.toLowerCase());
  if (first) {
    first.description = `${first.description ?? ""} (default)`.trim();
    items.splice(items.indexOf(first), 1);
    items.unshift(first);
  }
  return (await vscode.window.showQuickPick(items, { title, placeHolder: "Which model writes the summary?", matchOnDescription: true }))?.choice;
}

/** undefined = the user cancelled; "" = no focus text. */
export async function askFocus(title: string): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: "Focus for the summary (optional): what it should keep in detail. Enter to go on without one.",
    placeHolder: "e.g. the decisions about the parser",
  });
}

export function summarizerChoice(choice: string, args: CommandArgs, settings: ExtensionSettings, runtimeApiKeys: Record<string, string>, trusted: boolean): SummarizerChoice {
  const base: SummarizerChoice = { presets: settings.presets, defaultPreset: settings.defaultPreset, runtimeApiKeys, allowCommands: trusted };
  if (args.model) return { ...base, model: args.model };
  if (args.digest || choice === DIGEST_CHOICE) return { ...base, digest: true };
  return { ...base, preset: choice };
}
