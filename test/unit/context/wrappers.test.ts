// The exact wrapper strings and bash text, against pi's messages.js.

import { beforeAll, describe, expect, it } from "vitest";
import * as wrappers from "../../../src/core/context/message-wrappers.js";
import { bashExecutionToText } from "../../../src/core/context/bash-execution-text.js";
import type { BashExecutionMessage } from "../../../src/core/session/format/types.js";
import { piFileUrl } from "../../support/pi-oracle.js";

let piMessages: Record<string, unknown> & { bashExecutionToText(m: unknown): string };
beforeAll(async () => {
  piMessages = (await import(piFileUrl("messages.js"))) as typeof piMessages;
});

describe("wrapper strings equal pi's", () => {
  it.each(["COMPACTION_SUMMARY_PREFIX", "COMPACTION_SUMMARY_SUFFIX", "BRANCH_SUMMARY_PREFIX", "BRANCH_SUMMARY_SUFFIX"] as const)(
    "%s",
    (name) => {
      expect(wrappers[name]).toBe(piMessages[name]);
    },
  );

  it("bashExecutionToText for every combination of output, exit, cancel and truncation", () => {
    let n = 0;
    for (const output of ["", "out\nput"])
      for (const exitCode of [0, 1, null, undefined])
        for (const cancelled of [false, true])
          for (const truncated of [false, true])
            for (const fullOutputPath of [undefined, "/tmp/full.txt"]) {
              const m = { role: "bashExecution", command: "make", output, exitCode, cancelled, truncated, fullOutputPath, timestamp: 1 } as BashExecutionMessage;
              expect(bashExecutionToText(m)).toBe(piMessages.bashExecutionToText(m));
              n++;
            }
    expect(n).toBe(64);
  });
});
