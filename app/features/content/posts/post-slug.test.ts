import { describe, expect, it } from "vitest";
import { isValidSlug, slugCandidate, suggestSlug } from "./post-slug.ts";

describe("suggested addresses", () => {
  it("are lower-case ASCII words joined by hyphens", () => {
    expect(suggestSlug("The Hidden Costs of Poor Contract Management in Construction")).toBe(
      "the-hidden-costs-of-poor-contract-management-in-construction",
    );
    expect(suggestSlug("NEC4 & JCT: what’s changed in 2026?")).toBe("nec4-and-jct-whats-changed-in-2026");
    expect(suggestSlug("Crème brûlée für Straße")).toBe("creme-brulee-fur-strasse");
    expect(suggestSlug("  --  ")).toBe("post");
    expect(suggestSlug("日本語")).toBe("post");
  });

  it("stop at a word within 80 characters, and stay valid with a suffix", () => {
    const slug = suggestSlug(`${"contract ".repeat(20)}end`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith("contract")).toBe(true);
    expect(suggestSlug("x".repeat(120))).toHaveLength(80);
    expect(slugCandidate("hidden-costs", 1)).toBe("hidden-costs");
    expect(slugCandidate("hidden-costs", 3)).toBe("hidden-costs-3");
    const long = "a".repeat(99);
    expect(isValidSlug(slugCandidate(long, 12))).toBe(true);
    expect(slugCandidate(long, 12)).toHaveLength(100);
  });
});
