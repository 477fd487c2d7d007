import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import { contextUsage } from "../../../src/core/tokens";

const usage = (total: number) => ({ input: total, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: total, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
const assistant = (text: string, total: number, stopReason = "stop") =>
  ({ role: "assistant", content: [{ type: "text", text }], api: "anthropic-messages", provider: "anthropic", model: "m", usage: usage(total), stopReason, timestamp: 1 }) as never;
const user = (text: string) => ({ role: "user", content: text, timestamp: 1 }) as never;

function written(build: (sm: SessionManager) => void) {
  const sm = SessionManager.create("/tmp/p", mkdtempSync(join(tmpdir(), "usage-")));
  build(sm);
  return openSessionSync(sm.getSessionFile()!).pathTo();
}

describe("contextUsage", () => {
  it("uses the last valid usage plus estimates of later messages (pi's estimateContextTokens)", () => {
    const path = written((sm) => {
      sm.appendMessage(user("hi"));
      sm.appendMessage(assistant("hello", 5000));
      sm.appendMessage(user("x".repeat(400)));
    });
    expect(contextUsage(path)).toEqual({ tokens: 5000 + 100, source: "usage", messageCount: 3 });
  });

  it("skips aborted and error answers when looking for usage", () => {
    const path = written((sm) => {
      sm.appendMessage(user("hi"));
      sm.appendMessage(assistant("ok", 700));
      sm.appendMessage(assistant("", 99999, "aborted"));
    });
    expect(contextUsage(path).tokens).toBe(700);
  });

  it("after a compaction with no answer since, estimates instead of trusting the pre-compaction usage (pi says unknown)", () => {
    const path = written((sm) => {
      sm.appendMessage(user("a".repeat(4000)));
      sm.appendMessage(assistant("b".repeat(40), 90000));
      const kept = sm.appendMessage(user("c".repeat(80)));
      sm.appendMessage(assistant("d".repeat(40), 95000));
      sm.appendCompaction("S".repeat(400), kept, 95000);
    });
    const result = contextUsage(path);
    expect(result.source).toBe("estimate-after-compaction");
    // summary 400 chars + kept user 80 + kept assistant 40, each ceil(chars/4)
    expect(result.tokens).toBe(100 + 20 + 10);
    expect(result.messageCount).toBe(3);
  });

  it("trusts usage again once the model answered after the compaction", () => {
    const path = written((sm) => {
      sm.appendMessage(user("a"));
      const kept = sm.appendMessage(assistant("b", 90000));
      sm.appendCompaction("summary", kept, 90000);
      sm.appendMessage(user("go on"));
      sm.appendMessage(assistant("done", 1234));
    });
    expect(contextUsage(path)).toMatchObject({ tokens: 1234, source: "usage" });
  });
});
