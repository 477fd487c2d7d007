// Everything a run started is registered here, so an interrupted or timed-out run still
// stops code-server and the browser and removes its scratch folders.
type Cleanup = () => Promise<void>;

const pending = new Set<Cleanup>();

export function onCleanup(cleanup: Cleanup): () => void {
  pending.add(cleanup);
  return () => pending.delete(cleanup);
}

export async function cleanupAll(): Promise<void> {
  const all = [...pending].reverse();
  pending.clear();
  for (const cleanup of all) {
    try {
      await cleanup();
    } catch (error) {
      console.error(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

let installed = false;

/** On SIGINT/SIGTERM: clean up, then exit with the conventional 128+n code. */
export function cleanupOnSignals(): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping code-server and the browser`);
      void cleanupAll().finally(() => process.exit(code));
    });
  }
}
