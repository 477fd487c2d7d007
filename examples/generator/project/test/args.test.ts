import { describe, expect, it } from "vitest";
import { flagBool, flagString, parseArgs } from "../src/args.js";

describe("parseArgs", () => {
  it("splits the command from its positional arguments", () => {
    const args = parseArgs(["add", "buy", "milk"]);
    expect(args.command).toBe("add");
    expect(args.positional).toEqual(["buy", "milk"]);
  });

  it("returns no command for an empty argv", () => {
    expect(parseArgs([]).command).toBeUndefined();
  });

  it("reads --flag=value", () => {
    expect(parseArgs(["list", "--tag=work"]).flags).toEqual({ tag: "work" });
  });

  it("reads a value flag followed by its value", () => {
    expect(parseArgs(["add", "x", "--priority", "high"]).flags).toEqual({ priority: "high" });
  });

  it("treats unknown flags as booleans", () => {
    const args = parseArgs(["list", "--verbose", "extra"]);
    expect(args.flags).toEqual({ verbose: true });
    expect(args.positional).toEqual(["extra"]);
  });

  it("does not swallow the next flag as a value", () => {
    expect(parseArgs(["add", "x", "--tag", "--due", "2024-06-01"]).flags).toEqual({
      tag: true,
      due: "2024-06-01",
    });
  });

  it("expands short flags", () => {
    expect(parseArgs(["add", "x", "-p", "low", "-t", "home"]).flags).toEqual({ priority: "low", tag: "home" });
    expect(parseArgs(["-h"]).flags).toEqual({ help: true });
  });

  it("stops parsing flags after --", () => {
    const args = parseArgs(["add", "--", "--not-a-flag", "-x"]);
    expect(args.positional).toEqual(["--not-a-flag", "-x"]);
    expect(args.flags).toEqual({});
  });
});

describe("flag helpers", () => {
  it("flagString only returns strings", () => {
    expect(flagString({ tag: "work", yes: true }, "tag")).toBe("work");
    expect(flagString({ tag: "work", yes: true }, "yes")).toBeUndefined();
  });

  it("flagBool accepts true, 'true' and '1'", () => {
    expect(flagBool({ a: true, b: "true", c: "1", d: "no" }, "a")).toBe(true);
    expect(flagBool({ a: true, b: "true", c: "1", d: "no" }, "b")).toBe(true);
    expect(flagBool({ a: true, b: "true", c: "1", d: "no" }, "c")).toBe(true);
    expect(flagBool({ a: true, b: "true", c: "1", d: "no" }, "d")).toBe(false);
  });
});
