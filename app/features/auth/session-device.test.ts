import { expect, it } from "vitest";
import { describeBrowser } from "./session-device.ts";

it("names the browser and system, never more of the User-Agent", () => {
  expect(
    describeBrowser(
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    ),
  ).toBe("Chrome on macOS");
  expect(describeBrowser("curl/8.5.0")).toBe("Unknown browser");
  expect(describeBrowser("")).toBe("Unknown browser");
  expect(describeBrowser(null)).toBe("Unknown browser");
  expect(describeBrowser(`Mozilla/5.0 ${"x".repeat(10_000)}`).length).toBeLessThanOrEqual(100);
});
