import { describe, expect, it } from "vitest";
import {
  cleanValue,
  describePageView,
  MAX_HOST_LENGTH,
  MAX_PATH_LENGTH,
  MAX_UTM_LENGTH,
  type PageRequest,
  parseReferrer,
  shouldCount,
} from "./page-view.ts";
import { describeUserAgent } from "./user-agent.ts";

const DESKTOP_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const IPAD_SAFARI =
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const EDGE = `${DESKTOP_CHROME} Edg/131.0.0.0`;
const SAMSUNG =
  "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const HEADLESS =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36";

function request(url: string, headers: Record<string, string> = {}, method = "GET"): PageRequest {
  return { method, url, headers: { host: "www.example.co.uk", "user-agent": DESKTOP_CHROME, ...headers } };
}

describe("shouldCount", () => {
  it("counts a GET of a public page from a browser, with or without Sec-Fetch-* headers", () => {
    for (const path of ["/", "/problem", "/blog", "/blog/some-article", "/privacy-policy", "/nope?x=1"])
      expect(shouldCount(request(path)), path).toBe(true);
    expect(shouldCount(request("/", { "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }))).toBe(
      true,
    );
  });

  it("does not count HEAD or any other method", () => {
    expect(shouldCount(request("/", {}, "HEAD"))).toBe(false);
    expect(shouldCount(request("/demo", {}, "POST"))).toBe(false);
  });

  it("does not count bots, HeadlessChrome among them, nor a request without a User-Agent", () => {
    for (const ua of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      "curl/8.5.0",
      "python-requests/2.32.3",
      HEADLESS,
      "",
    ])
      expect(shouldCount(request("/", { "user-agent": ua })), ua).toBe(false);
    expect(shouldCount({ method: "GET", url: "/", headers: {} })).toBe(false);
  });

  it("does not count prefetch, prerender or link previews", () => {
    expect(shouldCount(request("/", { "sec-purpose": "prefetch" }))).toBe(false);
    expect(shouldCount(request("/", { "sec-purpose": "prefetch;prerender" }))).toBe(false);
    expect(shouldCount(request("/", { purpose: "prefetch" }))).toBe(false);
    expect(shouldCount(request("/", { "x-moz": "prefetch" }))).toBe(false);
  });

  it("does not count assets, feeds, the sitemap, robots.txt, the PDF, health checks or metrics", () => {
    for (const path of [
      "/assets/root-abc123.js",
      "/assets/app-abc.css",
      "/favicon.ico",
      "/logo.svg",
      "/rss.xml",
      "/sitemap.xml",
      "/robots.txt",
      "/investor-deck-pdf",
      "/clausebridge-investor-deck.pdf",
      "/health",
      "/healthz",
      "/readyz",
      "/metrics",
    ])
      expect(shouldCount(request(path)), path).toBe(false);
  });

  it("does not count the back office, the API or React Router's .data requests", () => {
    for (const path of [
      "/admin",
      "/admin/dashboard",
      "/admin/login?next=/x",
      "/api",
      "/api/user",
      "/blog.data",
      "/_root.data",
      "/demo.data?_routes=x",
    ])
      expect(shouldCount(request(path)), path).toBe(false);
    // Public paths that merely start with the same letters are pages.
    expect(shouldCount(request("/administration"))).toBe(true);
    expect(shouldCount(request("/apiary"))).toBe(true);
  });

  it("honours Global Privacy Control and Do Not Track", () => {
    expect(shouldCount(request("/", { "sec-gpc": "1" }))).toBe(false);
    expect(shouldCount(request("/", { dnt: "1" }))).toBe(false);
    expect(shouldCount(request("/", { dnt: "0" }))).toBe(true);
    expect(shouldCount(request("/", { "sec-gpc": "0" }))).toBe(true);
  });
});

describe("describeUserAgent", () => {
  it("gives a device class and a browser family from a short list", () => {
    expect(describeUserAgent(DESKTOP_CHROME)).toEqual({ bot: false, device: "desktop", browser: "Chrome" });
    expect(describeUserAgent(IPHONE_SAFARI)).toEqual({ bot: false, device: "mobile", browser: "Safari" });
    expect(describeUserAgent(IPAD_SAFARI)).toEqual({ bot: false, device: "tablet", browser: "Safari" });
    expect(describeUserAgent(EDGE)).toMatchObject({ browser: "Edge" });
    expect(describeUserAgent(SAMSUNG)).toMatchObject({ device: "mobile", browser: "Samsung Internet" });
    expect(describeUserAgent(FIREFOX)).toMatchObject({ device: "desktop", browser: "Firefox" });
    expect(describeUserAgent(HEADLESS).bot).toBe(true);
  });
});

describe("describePageView", () => {
  const now = new Date("2026-11-25T10:00:00.000Z");
  const view = (target: string, headers: Record<string, string> = {}, notFound = false) =>
    describePageView(request(target, headers), new URL(target, "https://www.example.co.uk"), {
      notFound,
      now,
    });

  it("keeps the path, the time, the device and the browser", () => {
    expect(view("/problem")).toEqual({
      occurredAt: "2026-11-25T10:00:00.000Z",
      path: "/problem",
      referrerHost: null,
      referrerPath: null,
      utmSource: null,
      utmMedium: null,
      utmCampaign: null,
      utmTerm: null,
      utmContent: null,
      paidClick: false,
      device: "desktop",
      browser: "Chrome",
      isNotFound: false,
    });
  });

  it("flags a 404", () => {
    expect(view("/old-link", {}, true)).toMatchObject({ path: "/old-link", isNotFound: true });
  });

  it("reads the five UTM parameters, trimmed, without control characters, capped at 100", () => {
    const long = "x".repeat(500);
    const result = view(
      `/?utm_source=%20Newsletter%20&utm_medium=email&utm_campaign=launch%00%0A2026&utm_term=${long}&utm_content=`,
    );
    expect(result).toMatchObject({
      utmSource: "Newsletter",
      utmMedium: "email",
      utmCampaign: "launch2026",
      utmContent: null,
    });
    expect(result.utmTerm).toHaveLength(100);
  });

  it("cuts every value a visitor chooses to 100 characters before it is stored (issue 22)", () => {
    expect([MAX_UTM_LENGTH, MAX_PATH_LENGTH, MAX_HOST_LENGTH]).toEqual([100, 100, 100]);
    const long = (letter: string) => letter.repeat(200);
    const query = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"]
      .map((name) => `${name}=${long("u")}`)
      .join("&");
    const result = view(`/${long("p")}?${query}`, {
      referer: `https://${"h".repeat(60)}.${"i".repeat(60)}.example.net/${long("r")}?q=${long("q")}`,
    });
    for (const value of [
      result.path,
      result.utmSource,
      result.utmMedium,
      result.utmCampaign,
      result.utmTerm,
      result.utmContent,
      result.referrerHost,
      result.referrerPath,
    ])
      expect(value).toHaveLength(100);
    expect(result.path).toBe(`/${"p".repeat(99)}`);
    expect(result.referrerHost?.startsWith("h".repeat(60))).toBe(true);
    // A cut never keeps half of a character outside the Basic Multilingual Plane.
    const emoji = view(`/?utm_campaign=${encodeURIComponent(`${"a".repeat(99)}😀b`)}`).utmCampaign;
    expect(emoji).toBe("a".repeat(99));
  });

  it("notes a paid click id without keeping its value", () => {
    for (const id of ["gclid", "fbclid", "msclkid"]) {
      const result = view(`/?${id}=secret-click-value`);
      expect(result.paidClick, id).toBe(true);
      expect(JSON.stringify(result)).not.toContain("secret-click-value");
    }
    expect(view("/?utm_source=x").paidClick).toBe(false);
  });

  it("keeps the host and path of an external referrer, never its query", () => {
    expect(view("/", { referer: "https://Www.Google.com/search?q=contract+software" })).toMatchObject({
      referrerHost: "www.google.com",
      referrerPath: "/search",
    });
    expect(view("/", { referer: "https://news.example.org/articles/42?email=a@b.c#top" })).toMatchObject({
      referrerHost: "news.example.org",
      referrerPath: "/articles/42",
    });
  });

  it("treats a same-site referrer as internal: the site's host, no path", () => {
    expect(view("/features", { referer: "https://www.example.co.uk/solution?x=1" })).toMatchObject({
      referrerHost: "www.example.co.uk",
      referrerPath: null,
    });
  });

  it("ignores a referrer that is not an http(s) URL", () => {
    for (const referer of [
      "not a url",
      "android-app://com.example/",
      "javascript:alert(1)",
      `https://${"a".repeat(3000)}.com/`,
    ])
      expect(view("/", { referer })).toMatchObject({ referrerHost: null, referrerPath: null });
  });

  it("caps and cleans the path it stores", () => {
    expect(view(`/${"a".repeat(1000)}`, {}, true).path).toHaveLength(100);
    expect(view("/bad%0Apath", {}, true).path).toBe("/badpath");
  });
});

describe("helpers", () => {
  it("cleanValue trims, strips control characters and caps", () => {
    expect(cleanValue("  a\u0007b\u009fc  ", 10)).toBe("abc");
    expect(cleanValue("   ", 10)).toBeNull();
    expect(cleanValue(null, 10)).toBeNull();
    expect(cleanValue("abcdef", 3)).toBe("abc");
  });

  it("parseReferrer compares hosts without case", () => {
    expect(parseReferrer("https://WWW.EXAMPLE.CO.UK/x", "www.example.co.uk")).toEqual({
      referrerHost: "www.example.co.uk",
      referrerPath: null,
    });
  });
});
