import { describe, expect, it } from "vitest";
import { buildContext } from "./analyse.ts";
import { registrableDomain, sriTest } from "./sri.ts";
import { HTML, pageContext, response, site } from "./test-fixtures.ts";

function sri(body: string, headers: Record<string, string> = {}) {
  const { input, context } = pageContext(headers, body);
  return sriTest(input, context);
}

const INTEGRITY =
  'integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC" crossorigin="anonymous"';

describe("registrableDomain", () => {
  it.each([
    ["www.example.com", "example.com"],
    ["cdn.static.example.com", "example.com"],
    ["www.clausebridge.co.uk", "clausebridge.co.uk"],
    ["example.com", "example.com"],
    ["127.0.0.1", "127.0.0.1"],
    ["localhost", "localhost"],
    // The full Public Suffix List: three-label suffixes, wildcards and their exceptions.
    ["shop.example.com.au", "example.com.au"],
    ["www.example.pvt.k12.ma.us", "example.pvt.k12.ma.us"],
    ["www.city.kawasaki.jp", "city.kawasaki.jp"],
    ["WWW.Example.COM.", "example.com"],
    // Private suffixes too, unlike the reference: each github.io user site is its own site.
    ["alice.github.io", "alice.github.io"],
  ])("%s → %s", (host, domain) => expect(registrableDomain(host)).toBe(domain));
});

describe("subresource-integrity test", () => {
  it("no scripts: 0, passes", () => {
    expect(sri("<p>hi</p>").test).toMatchObject({
      result: "sri-not-implemented-but-no-scripts-loaded",
      scoreModifier: 0,
      pass: true,
    });
  });

  it("non-HTML response: 0, passes", () => {
    const outcome = sri(`{"a":1}`, { "content-type": "application/json" });
    expect(outcome.test).toMatchObject({
      result: "sri-not-implemented-response-not-html",
      scoreModifier: 0,
      pass: true,
    });
  });

  it("inline, relative and same-site scripts without integrity: 0, passes", () => {
    const body = `<script>x()</script><script src="/app.js"></script><script src="https://static.example.com/lib.js"></script>`;
    expect(sri(body).test).toMatchObject({
      result: "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
      scoreModifier: 0,
      pass: true,
    });
  });

  it("same-origin scripts with integrity: +5", () => {
    expect(sri(`<script src="/app.js" ${INTEGRITY}></script>`).test).toMatchObject({
      result: "sri-implemented-and-all-scripts-loaded-securely",
      scoreModifier: 5,
    });
  });

  it("external HTTPS scripts with integrity: +5", () => {
    const outcome = sri(
      `<script src="/app.js"></script><script src="https://cdn.jsdelivr.net/npm/x.js" ${INTEGRITY}></script>`,
    );
    expect(outcome.test).toMatchObject({
      result: "sri-implemented-and-external-scripts-loaded-securely",
      scoreModifier: 5,
      pass: true,
    });
    expect(outcome.issues).toEqual([]);
  });

  it("external HTTPS scripts without integrity: -5, medium issue", () => {
    const outcome = sri(`<script src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>`);
    expect(outcome.test).toMatchObject({
      result: "sri-not-implemented-but-external-scripts-loaded-securely",
      scoreModifier: -5,
      pass: false,
    });
    expect(outcome.issues).toMatchObject([{ id: "sri-missing", severity: "medium" }]);
  });

  it("external HTTP scripts with integrity: -20", () => {
    expect(sri(`<script src="http://cdn.example.net/x.js" ${INTEGRITY}></script>`).test).toMatchObject({
      result: "sri-implemented-but-external-scripts-not-loaded-securely",
      scoreModifier: -20,
    });
  });

  it("external HTTP or protocol-relative scripts without integrity: -50, critical", () => {
    const outcome = sri(`<script src="http://cdn.example.net/x.js"></script>`);
    expect(outcome.test).toMatchObject({
      result: "sri-not-implemented-and-external-scripts-not-loaded-securely",
      scoreModifier: -50,
    });
    expect(outcome.issues).toMatchObject([{ id: "sri-external-scripts-insecure", severity: "critical" }]);
    expect(sri(`<script src="//cdn.example.net/x.js"></script>`).test.result).toBe(
      "sri-not-implemented-and-external-scripts-not-loaded-securely",
    );
  });

  it("the worst script decides", () => {
    const body = `<script src="https://a.example.net/a.js" ${INTEGRITY}></script><script src="https://b.example.org/b.js"></script>`;
    expect(sri(body).test.result).toBe("sri-not-implemented-but-external-scripts-loaded-securely");
  });

  it("a script from another site under a private suffix is foreign (the reference calls it same-site)", () => {
    const input = site(
      response("https://alice.github.io/", HTML, '<script src="https://mallory.github.io/x.js"></script>'),
    );
    expect(sriTest(input, buildContext(input)).test).toMatchObject({
      result: "sri-not-implemented-but-external-scripts-loaded-securely",
      pass: false,
    });
    const own = site(
      response("https://alice.github.io/", HTML, '<script src="https://alice.github.io/x.js"></script>'),
    );
    expect(sriTest(own, buildContext(own)).test.result).toBe(
      "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
    );
  });
});
