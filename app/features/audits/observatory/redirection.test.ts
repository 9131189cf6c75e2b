import { describe, expect, it } from "vitest";
import type { FetchChain, FetchFailure, ScanInput } from "../audit-types.ts";
import { buildContext } from "./analyse.ts";
import { redirectionTest } from "./redirection.ts";
import { chain, failure, HTML, preloadSnapshot, redirect, response, TRUSTED_TLS } from "./test-fixtures.ts";

const page = response("https://www.example.com/", HTML);

function redirection(http: FetchChain | FetchFailure) {
  const input: ScanInput = { url: page.url, http, https: chain(page) };
  return redirectionTest(input, buildContext(input));
}

describe("redirection test", () => {
  it("HTTP → HTTPS on the same host: 0, passes", () => {
    const outcome = redirection(chain(redirect("http://www.example.com/", page.url), page));
    expect(outcome.test).toMatchObject({ result: "redirection-to-https", scoreModifier: 0, pass: true });
    expect(outcome.issues).toEqual([]);
  });

  it("HTTP → HTTPS same host → another HTTPS host is fine", () => {
    const outcome = redirection(
      chain(
        redirect("http://example.com/", "https://example.com/"),
        redirect("https://example.com/", page.url),
        page,
      ),
    );
    expect(outcome.test.result).toBe("redirection-to-https");
  });

  it("no HTTP listener: 0, passes", () => {
    expect(redirection(failure()).test).toMatchObject({
      result: "redirection-not-needed-no-http",
      scoreModifier: 0,
      pass: true,
    });
  });

  it("HTTP answers without redirecting: -20, critical", () => {
    const outcome = redirection(chain(response("http://www.example.com/", HTML)));
    expect(outcome.test).toMatchObject({ result: "redirection-missing", scoreModifier: -20, pass: false });
    expect(outcome.issues).toMatchObject([{ id: "redirect-to-https-missing", severity: "critical" }]);
  });

  it("redirects but ends on HTTP: -20", () => {
    const outcome = redirection(
      chain(
        redirect("http://example.com/", "http://www.example.com/"),
        response("http://www.example.com/", HTML),
      ),
    );
    expect(outcome.test).toMatchObject({ result: "redirection-not-to-https", scoreModifier: -20 });
  });

  it("first hop to another HTTP URL: -10", () => {
    const outcome = redirection(
      chain(
        redirect("http://example.com/", "http://www.example.com/"),
        redirect("http://www.example.com/", page.url),
        page,
      ),
    );
    expect(outcome.test).toMatchObject({
      result: "redirection-not-to-https-on-initial-redirection",
      scoreModifier: -10,
    });
  });

  it("first hop to HTTPS on another host: -5", () => {
    const outcome = redirection(chain(redirect("http://example.com/", page.url), page));
    expect(outcome.test).toMatchObject({
      result: "redirection-off-host-from-http",
      scoreModifier: -5,
      pass: false,
    });
    expect(outcome.issues).toMatchObject([{ id: "redirect-off-host", severity: "low" }]);
  });

  it("ends on an untrusted certificate: -20", () => {
    const bad = response(page.url, HTML, "", {
      tls: { ...TRUSTED_TLS, authorized: false, authorizationError: "SELF_SIGNED" },
    });
    const outcome = redirection(chain(redirect("http://www.example.com/", page.url), bad));
    expect(outcome.test).toMatchObject({ result: "redirection-invalid-cert", scoreModifier: -20 });
  });

  describe("with Chromium's preload list", () => {
    const withList = (http: FetchChain | FetchFailure, entries: Record<string, boolean>) => {
      const input: ScanInput = { url: page.url, http, https: chain(page) };
      return redirectionTest(input, buildContext(input, { hstsPreload: preloadSnapshot(entries) }));
    };

    it("every host on the route preloaded: passes, even without a redirect (browsers never ask over HTTP)", () => {
      const plain = chain(response("http://www.example.com/", HTML));
      expect(withList(plain, { "example.com": true }).test).toMatchObject({
        result: "redirection-all-redirects-preloaded",
        scoreModifier: 0,
        pass: true,
      });
      expect(withList(plain, { "example.com": true }).issues).toEqual([]);
    });

    it("one host on the route not preloaded: graded as usual", () => {
      const route = chain(
        redirect("http://example.com/", "http://www.example.com/"),
        redirect("http://www.example.com/", page.url),
        page,
      );
      expect(withList(route, { "www.example.com": false }).test).toMatchObject({
        result: "redirection-not-to-https-on-initial-redirection",
        pass: false,
      });
      expect(withList(route, { "example.com": true }).test.result).toBe(
        "redirection-all-redirects-preloaded",
      );
    });
  });
});
