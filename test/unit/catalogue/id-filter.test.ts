// The catalogue's id filter on a session the size of a 100 MB pi session: it
// keeps room for appends (else every append to a listed session would read the
// whole file again), never forgets an id, and rarely claims an id it never saw.
import { describe, expect, it } from "vitest";
import { IdFilter } from "../../../src/core/catalogue/id-filter";

describe("IdFilter", () => {
  it("a filter sized for 106,000 entries keeps room after them and a few thousand appends", () => {
    const filter = IdFilter.sizedFor(106_000 + 64);
    for (let i = 0; i < 106_000; i++) filter.add(`e${i.toString(16).padStart(7, "0")}`);
    expect(filter.hasRoom).toBe(true);
    for (let i = 0; i < 5_000; i++) filter.add(`n${i.toString(16).padStart(7, "0")}`);
    expect(filter.hasRoom).toBe(true);
  });

  it("every added id may be there; unseen ids are rarely reported (false positives < 1 %)", () => {
    const filter = IdFilter.sizedFor(50_000);
    for (let i = 0; i < 50_000; i++) filter.add(`a${i}`);
    for (let i = 0; i < 50_000; i++) expect(filter.mayHave(`a${i}`)).toBe(true);
    let falsePositives = 0;
    for (let i = 0; i < 20_000; i++) if (filter.mayHave(`b${i}`)) falsePositives++;
    expect(falsePositives / 20_000).toBeLessThan(0.01);
  });

  it("round-trips through JSON", () => {
    const filter = IdFilter.sizedFor(10);
    filter.add("x1");
    const again = IdFilter.fromJSON(JSON.parse(JSON.stringify(filter.toJSON())))!;
    expect(again.mayHave("x1")).toBe(true);
    expect(again.hasRoom).toBe(true);
  });
});
