import { describe, expect, it } from "vitest";
import type { ScanInput } from "../audit-types.ts";
import { buildContext } from "./analyse.ts";
import { coopIssues, disclosureIssues, mixedContentIssues, securityTxtIssues, tlsIssues } from "./extras.ts";
import { chain, failure, HTML, pageContext, response, TRUSTED_TLS } from "./test-fixtures.ts";

const NOW = new Date("2025-06-01T00:00:00Z");
const ids = (issues: { id: string; severity: string }[]) => issues.map((i) => `${i.id}:${i.severity}`);

function tls(overrides: Partial<typeof TRUSTED_TLS>) {
  const page = response("https://www.example.com/", HTML, "", { tls: { ...TRUSTED_TLS, ...overrides } });
  const input: ScanInput = { url: page.url, http: failure(), https: chain(page) };
  return tlsIssues(buildContext(input));
}

describe("TLS certificate", () => {
  it("valid: info with the days left", () => {
    expect(ids(tls({ daysRemaining: 80 }))).toEqual(["tls-certificate-valid:info"]);
    expect(tls({ daysRemaining: 80 })[0]?.title).toContain("80");
  });
  it("expiring soon: medium within 30 days, high within 7", () => {
    expect(ids(tls({ daysRemaining: 30 }))).toEqual(["tls-certificate-expiring:medium"]);
    expect(ids(tls({ daysRemaining: 3 }))).toEqual(["tls-certificate-expiring:high"]);
  });
  it("expired or untrusted: critical", () => {
    expect(ids(tls({ daysRemaining: -2 }))).toEqual(["tls-certificate-expired:critical"]);
    // An untrusted certificate is reported once; its days remaining are not celebrated as "valid".
    expect(ids(tls({ authorized: false, authorizationError: "DEPTH_ZERO_SELF_SIGNED_CERT" }))).toEqual([
      "tls-certificate-invalid:critical",
    ]);
  });
  it("nothing when HTTPS was not fetched", () => {
    const page = response("http://www.example.com/", HTML);
    expect(tlsIssues(buildContext({ url: page.url, http: chain(page), https: failure() }))).toEqual([]);
  });
});

describe("version disclosure", () => {
  const disclose = (headers: Record<string, string>) => disclosureIssues(pageContext(headers).context);
  it.each([
    [{ server: "nginx/1.22.1" }, ["server-version-disclosure:low"]],
    [{ server: "Apache/2.4.57 (Debian) OpenSSL/3.0.11" }, ["server-version-disclosure:low"]],
    [{ "x-powered-by": "Express" }, ["x-powered-by-disclosure:low"]],
    [{ "x-powered-by": "PHP/8.1.2" }, ["x-powered-by-disclosure:low"]],
    [{ "x-aspnet-version": "4.0.30319" }, ["x-aspnet-version-disclosure:low"]],
    [{ server: "nginx" }, []],
    [{ server: "cloudflare" }, []],
  ])("%o", (headers, expected) => expect(ids(disclose(headers))).toEqual(expected));

  it("names the header and the fix", () => {
    const [issue] = disclose({ "x-powered-by": "PHP/8.1.2" });
    expect(issue?.description).toContain("X-Powered-By: PHP/8.1.2");
    expect(issue?.remediation).toContain("expose_php = Off");
  });
});

describe("security.txt", () => {
  const txt = (
    body: string,
    headers: Record<string, string> = { "content-type": "text/plain" },
    status = 200,
  ) =>
    securityTxtIssues(
      {
        ...pageContext({}).input,
        securityTxt: response("https://www.example.com/.well-known/security.txt", headers, body, { status }),
      },
      NOW,
    );
  it("present and current: info", () => {
    expect(ids(txt("Contact: mailto:security@example.com\nExpires: 2026-01-01T00:00:00Z\n"))).toEqual([
      "security-txt-present:info",
    ]);
  });
  it("expired: low", () => {
    expect(ids(txt("Contact: mailto:security@example.com\nExpires: 2024-01-01T00:00:00Z\n"))).toEqual([
      "security-txt-expired:low",
    ]);
  });
  it("without Expires: low", () => {
    expect(ids(txt("Contact: https://example.com/security\n"))).toEqual(["security-txt-no-expires:low"]);
  });
  it("absent (404, or an HTML fallback page): low", () => {
    expect(ids(txt("Not found", {}, 404))).toEqual(["security-txt-missing:low"]);
    expect(ids(txt("<html>Contact: us</html>", HTML))).toEqual(["security-txt-missing:low"]);
  });
  // Issue 9 point 12: a probe that timed out is not a fact about the site.
  it("a probe that did not complete: could not be checked (info), not 'No security.txt'", () => {
    const timedOut = failure(
      "Timed out after 10 s",
      "www.example.com did not answer completely within 10 s.",
    );
    const issues = securityTxtIssues({ ...pageContext({}).input, securityTxt: timedOut }, NOW);
    expect(issues).toMatchObject([
      {
        id: "security-txt-unchecked",
        title: "security.txt could not be checked",
        severity: "info",
        description:
          "The request for /.well-known/security.txt did not complete (Timed out after 10 s: www.example.com did not answer completely within 10 s.), so whether the site publishes one is unknown.",
      },
    ]);
    expect(JSON.stringify(issues)).not.toContain("No security.txt");
  });
  it("not probed: nothing", () => {
    expect(securityTxtIssues(pageContext({}).input, NOW)).toEqual([]);
  });
});

describe("Cross-Origin-Opener-Policy", () => {
  const coop = (value?: string) =>
    coopIssues(pageContext(value ? { "cross-origin-opener-policy": value } : {}).context);
  it.each([
    [undefined, "coop-missing:low"],
    ["unsafe-none", "coop-unsafe:low"],
    ["same-origin-plus-coep", "coop-invalid:low"],
    ["same-origin", "coop-implemented:info"],
    ['same-origin-allow-popups; report-to="coop"', "coop-implemented:info"],
  ])("%s → %s", (value, expected) => expect(ids(coop(value))).toEqual([expected]));
});

describe("mixed content", () => {
  const mixed = (body: string) => mixedContentIssues(pageContext({}, body).context);
  it("finds active, form and passive HTTP subresources on an HTTPS page", () => {
    const body = `<script src="http://cdn.example.net/a.js"></script>
      <link rel="stylesheet" href="http://cdn.example.net/a.css">
      <iframe src="http://widgets.example.net/"></iframe>
      <form action="http://www.example.com/login"></form>
      <img src="http://img.example.net/a.png"><video src="http://v.example.net/a.mp4"></video>
      <img srcset="https://ok.example/1.png 1x, http://img.example.net/2.png 2x">`;
    const issues = mixed(body);
    expect(ids(issues)).toEqual([
      "mixed-content-active:high",
      "mixed-content-form:high",
      "mixed-content-passive:medium",
    ]);
    expect(issues[0]?.description).toContain("http://cdn.example.net/a.js");
    expect(issues[0]?.description).toContain("a.css");
  });
  it("ignores links, canonical URLs, HTTPS and relative resources, and text inside scripts", () => {
    const body = `<a href="http://other.example/">x</a><link rel="canonical" href="http://www.example.com/">
      <script src="https://cdn.example.net/a.js"></script><img src="/a.png"><img src="//img.example.net/b.png">
      <script>const u = '<img src="http://x.example/a.png">'</script>`;
    expect(mixed(body)).toEqual([]);
  });
  it("does not apply to plain-HTTP pages", () => {
    const page = response(
      "http://www.example.com/",
      HTML,
      `<script src="http://cdn.example.net/a.js"></script>`,
    );
    expect(mixedContentIssues(buildContext({ url: page.url, http: chain(page), https: failure() }))).toEqual(
      [],
    );
  });
});
