import { describe, expect, it } from "vitest";
import { daysBefore, monthsBefore } from "./lead-retention.server.ts";

describe("retention cutoffs", () => {
  it("go back calendar months in UTC, the 31st falling back to the month's last day", () => {
    const at = (iso: string) => new Date(iso);
    expect(monthsBefore(at("2026-11-26T12:00:00.000Z"), 24).toISOString()).toBe("2024-11-26T12:00:00.000Z");
    expect(monthsBefore(at("2026-03-31T08:00:00.000Z"), 1).toISOString()).toBe("2026-02-28T08:00:00.000Z");
    expect(monthsBefore(at("2028-03-31T08:00:00.000Z"), 1).toISOString()).toBe("2028-02-29T08:00:00.000Z");
    expect(monthsBefore(at("2026-01-15T00:00:00.000Z"), 13).toISOString()).toBe("2024-12-15T00:00:00.000Z");
  });

  it("go back whole days", () => {
    expect(daysBefore(new Date("2026-11-26T12:00:00.000Z"), 30).toISOString()).toBe(
      "2026-10-27T12:00:00.000Z",
    );
  });
});
