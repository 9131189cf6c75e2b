import { expect, it } from "vitest";
import { formatAge, formatDay } from "./lead-age.ts";

const NOW = new Date("2026-11-27T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

it("says a lead's age in the largest whole unit", () => {
  expect(formatAge(ago(20_000), NOW)).toBe("just now");
  expect(formatAge(ago(5 * 60_000), NOW)).toBe("5 min ago");
  expect(formatAge(ago(2 * 3_600_000 + 59 * 60_000), NOW)).toBe("2 h ago");
  expect(formatAge(ago(26 * 3_600_000), NOW)).toBe("1 day ago");
  expect(formatAge(ago(20 * 86_400_000), NOW)).toBe("2 weeks ago");
  expect(formatAge(ago(800 * 86_400_000), NOW)).toBe("2 years ago");
});

it("writes a due day as the back office writes dates", () => {
  expect(formatDay("2026-11-27")).toBe("Nov 27, 2026");
  expect(formatDay("not a day")).toBe("not a day");
});
