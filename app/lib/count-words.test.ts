import { describe, expect, test } from "vitest";
import { countOf } from "./count-words.ts";

describe("countOf", () => {
  test("uses the singular for one only", () => {
    expect(countOf(1, "lead")).toBe("1 lead");
    expect(countOf(0, "lead")).toBe("0 leads");
    expect(countOf(3, "lead")).toBe("3 leads");
  });

  test("groups thousands and takes an irregular plural", () => {
    expect(countOf(1204, "lead")).toBe("1,204 leads");
    expect(countOf(2, "entry", "entries")).toBe("2 entries");
  });
});
