// API keys kept in VS Code's SecretStorage (never in settings, never logged),
// handed to the runners as pi's runtime key overrides. The list of providers
// with a stored key (names only) is kept in globalState.
import * as vscode from "vscode";

const PROVIDERS_KEY = "piSessions.apiKeyProviders";
const secretName = (provider: string): string => `piSessions.apiKey.${provider}`;

export class ApiKeys {
  constructor(private readonly context: vscode.ExtensionContext) {}

  providers(): string[] {
    const value = this.context.globalState.get<unknown>(PROVIDERS_KEY);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  }

  async set(provider: string, key: string): Promise<void> {
    await this.context.secrets.store(secretName(provider), key);
    const providers = new Set(this.providers());
    providers.add(provider);
    await this.context.globalState.update(PROVIDERS_KEY, [...providers].sort());
  }

  async delete(provider: string): Promise<void> {
    await this.context.secrets.delete(secretName(provider));
    await this.context.globalState.update(
      PROVIDERS_KEY,
      this.providers().filter((p) => p !== provider),
    );
  }

  /** provider → key, for the runners (runtimeApiKeys). */
  async runtimeKeys(): Promise<Record<string, string>> {
    const keys: Record<string, string> = {};
    for (const provider of this.providers()) {
      const key = await this.context.secrets.get(secretName(provider));
      if (key) keys[provider] = key;
    }
    return keys;
  }
}
