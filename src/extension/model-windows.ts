// Context windows of models, from the model registry (pi-ai's built-in models and
// models.json). Loading it loads pi-ai (large), so it never happens during
// activation: the Sessions view asks for it once it is visible, and until then
// rows show tokens without a window.
import * as vscode from "vscode";
import { loadModelRegistry, type ModelRegistry } from "../core/summarize/model-registry";

export class ModelWindows implements vscode.Disposable {
  private registry: ModelRegistry | undefined;
  private loading: Promise<void> | undefined;
  private generation = 0;
  private readonly loaded = new vscode.EventEmitter<void>();
  readonly onDidLoad = this.loaded.event;

  constructor(
    private agentDir: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get isLoaded(): boolean {
    return this.registry !== undefined;
  }

  /** The model's context window; undefined until the registry is loaded, or for an unknown model. */
  window(provider: string, modelId: string): number | undefined {
    const window = this.registry?.find(provider, modelId)?.contextWindow;
    return typeof window === "number" && window > 0 ? window : undefined;
  }

  /** Loads the registry in the background (once per agent dir). */
  load(): Promise<void> {
    if (this.loading) return this.loading;
    const generation = this.generation;
    this.loading = loadModelRegistry({ agentDir: this.agentDir }).then(
      (registry) => {
        if (generation !== this.generation) return;
        this.registry = registry;
        this.log.info(`model registry loaded: ${registry.models.length} models`);
        this.loaded.fire();
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        this.log.warn(`cannot load the model registry: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    return this.loading;
  }

  /** The agent dir changed (or models.json): forget and load again when asked. */
  reset(agentDir: string): void {
    const wasLoaded = this.registry !== undefined || this.loading !== undefined;
    this.agentDir = agentDir;
    this.generation++;
    this.registry = undefined;
    this.loading = undefined;
    if (wasLoaded) void this.load();
  }

  dispose(): void {
    this.loaded.dispose();
  }
}
