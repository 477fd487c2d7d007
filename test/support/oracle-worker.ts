// What the agent oracles (pi 1.5.2 under Node 22, omp 18.3.4 under Bun) share:
// their worker channel (oracle-channel.ts), and a describe block that starts
// one per test file and fails every test with one clear line when the agent
// could not be installed (skipped only with the explicit opt-out).

import { afterAll, beforeAll, describe } from "vitest";

export { OracleWorker } from "./oracle-channel.js";

/**
 * A describe block whose tests get a started oracle (`get()`): skipped when
 * `skipReason` says so, otherwise an oracle that did not start fails every test.
 */
export function describeWithOracle<O extends { close(): void }>(
  name: string,
  agent: string,
  skipReason: string | undefined,
  start: () => Promise<O>,
  body: (get: () => O) => void,
): void {
  if (skipReason) {
    describe.skip(`${name} (${agent} oracle skipped: ${skipReason})`, () => body(() => undefined as never));
    return;
  }
  describe(name, () => {
    let oracle: O | undefined;
    let failure: Error | undefined;
    beforeAll(async () => {
      try {
        oracle = await start();
      } catch (error) {
        failure = error as Error;
      }
    }, 300_000);
    afterAll(() => oracle?.close());
    body(() => {
      if (!oracle) throw failure ?? new Error(`${agent} oracle did not start`);
      return oracle;
    });
  });
}
