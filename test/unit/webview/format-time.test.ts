import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "../../../src/webview/format-time";

const NOW = new Date("2026-03-10T12:00:00.000Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

describe("formatRelativeTime", () => {
  it("picks the largest whole unit", () => {
    expect(formatRelativeTime(ago(0), NOW, "en")).toBe("now");
    expect(formatRelativeTime(ago(45), NOW, "en")).toBe("45 seconds ago");
    expect(formatRelativeTime(ago(60), NOW, "en")).toBe("1 minute ago");
    expect(formatRelativeTime(ago(3 * 3600 + 59), NOW, "en")).toBe("3 hours ago");
    expect(formatRelativeTime(ago(24 * 3600), NOW, "en")).toBe("yesterday");
    expect(formatRelativeTime(ago(13 * 24 * 3600), NOW, "en")).toBe("last week");
    expect(formatRelativeTime(ago(400 * 24 * 3600), NOW, "en")).toBe("last year");
  });

  it("handles times in the future (clock skew between machines)", () => {
    expect(formatRelativeTime(ago(-2 * 3600), NOW, "en")).toBe("in 2 hours");
  });
});
