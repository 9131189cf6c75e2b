import { expect, test } from "vitest";
import { buildRobotsTxt } from "./robots.ts";

test("allows the public site, keeps crawlers out of admin and the API, and names the sitemap", () => {
  const txt = buildRobotsTxt("https://www.example.co.uk/sitemap.xml");
  expect(txt.split("\n")).toEqual([
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /api",
    "",
    "Sitemap: https://www.example.co.uk/sitemap.xml",
    "",
  ]);
});
