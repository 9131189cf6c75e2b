import { describe, expect, it } from "vitest";
import type { ScanInput } from "../audit-types.ts";
import { buildContext } from "./analyse.ts";
import { cookiesTest, parseSetCookie } from "./cookies.ts";
import { chain, failure, HTML, pageContext, redirect, response } from "./test-fixtures.ts";

const HSTS = { "strict-transport-security": "max-age=63072000" };

function cookies(setCookie: string[], hsts = false) {
  const { input, context } = pageContext({ "set-cookie": setCookie, ...(hsts ? HSTS : {}) });
  return cookiesTest(input, context);
}

describe("parseSetCookie", () => {
  it("reads the flags case-insensitively", () => {
    expect(parseSetCookie("SID=abc=def; Path=/; secure; HTTPONLY; SameSite=Lax")).toEqual({
      name: "SID",
      secure: true,
      httpOnly: true,
      sameSite: "Lax",
      overHttp: false,
    });
    expect(parseSetCookie("=novalue")).toBeNull();
  });
});

describe("cookies test", () => {
  it("no cookies: 0, passes", () => {
    expect(cookies([]).test).toMatchObject({ result: "cookies-not-found", scoreModifier: 0, pass: true });
  });

  it("all Secure, sessions HttpOnly, SameSite everywhere: +5", () => {
    const outcome = cookies([
      "sessionid=1; Secure; HttpOnly; SameSite=Lax",
      "theme=dark; Secure; SameSite=Strict",
    ]);
    expect(outcome.test).toMatchObject({
      result: "cookies-secure-with-httponly-sessions-and-samesite",
      scoreModifier: 5,
      pass: true,
    });
    expect(outcome.issues).toEqual([]);
  });

  it("a cookie without SameSite loses the bonus: 0, passes", () => {
    const outcome = cookies(["sessionid=1; Secure; HttpOnly", "theme=dark; Secure; SameSite=Lax"]);
    expect(outcome.test).toMatchObject({
      result: "cookies-secure-with-httponly-sessions",
      scoreModifier: 0,
      pass: true,
    });
    expect(outcome.issues).toMatchObject([{ id: "cookies-without-samesite", severity: "low" }]);
  });

  it("a non-session cookie without Secure: -20, or -5 when HSTS protects it", () => {
    expect(cookies(["theme=dark; SameSite=Lax"]).test).toMatchObject({
      result: "cookies-without-secure-flag",
      scoreModifier: -20,
    });
    expect(cookies(["theme=dark; SameSite=Lax"], true).test).toMatchObject({
      result: "cookies-without-secure-flag-but-protected-by-hsts",
      scoreModifier: -5,
    });
  });

  it("a session cookie without Secure: -40, or -10 when HSTS protects it", () => {
    const bare = cookies(["PHPSESSID=1; HttpOnly; SameSite=Lax"]);
    expect(bare.test).toMatchObject({
      result: "cookies-session-without-secure-flag",
      scoreModifier: -40,
      pass: false,
    });
    expect(bare.issues).toMatchObject([{ id: "cookies-without-secure", severity: "high" }]);
    expect(cookies(["PHPSESSID=1; HttpOnly; SameSite=Lax"], true).test).toMatchObject({
      result: "cookies-session-without-secure-flag-but-protected-by-hsts",
      scoreModifier: -10,
    });
  });

  it("a login cookie without HttpOnly: -30", () => {
    const outcome = cookies(["login_token=1; Secure; SameSite=Lax"]);
    expect(outcome.test).toMatchObject({
      result: "cookies-session-without-httponly-flag",
      scoreModifier: -30,
    });
    expect(outcome.issues).toMatchObject([{ id: "cookies-session-without-httponly", severity: "high" }]);
  });

  it("an invalid SameSite value, or SameSite=None without Secure: -20", () => {
    expect(cookies(["a=1; Secure; SameSite=Relaxed"]).test).toMatchObject({
      result: "cookies-samesite-flag-invalid",
      scoreModifier: -20,
    });
    expect(cookies(["a=1; Secure; SameSite"]).test.result).toBe("cookies-samesite-flag-invalid");
    expect(cookies(["a=1; SameSite=None"], true).test.result).toBe("cookies-samesite-flag-invalid");
  });

  it("an anti-CSRF cookie without SameSite: -20", () => {
    const outcome = cookies(["csrftoken=1; Secure"]);
    expect(outcome.test).toMatchObject({
      result: "cookies-anticsrf-without-samesite-flag",
      scoreModifier: -20,
    });
    expect(outcome.issues.map((i) => i.id)).toContain("cookies-csrf-without-samesite");
  });

  it("the worst finding wins", () => {
    const outcome = cookies(["theme=dark", "sessionid=1; Secure; SameSite=Lax", "csrftoken=1; Secure"]);
    expect(outcome.test.result).toBe("cookies-session-without-httponly-flag");
  });

  it("ignores Heroku's session-affinity cookie", () => {
    expect(cookies(["heroku-session-affinity=x"]).test.result).toBe("cookies-not-found");
  });

  it("collects cookies from redirect hops, and one set over plain HTTP is not secure", () => {
    const page = response("https://www.example.com/", HTML);
    const input: ScanInput = {
      url: page.url,
      http: chain(redirect("http://www.example.com/", page.url), page),
      https: chain(
        response("https://example.com/", {
          location: "https://www.example.com/",
          "set-cookie": "id=1; Secure; SameSite=Lax",
        }),
        page,
      ),
    };
    expect(cookiesTest(input, buildContext(input)).test.result).toBe(
      "cookies-secure-with-httponly-sessions-and-samesite",
    );

    const plain = response("http://www.example.com/", {
      ...HTML,
      "set-cookie": "id=1; Secure; SameSite=Lax",
    });
    const overHttp: ScanInput = {
      url: plain.url,
      http: chain(plain),
      https: { error: "connect_failed", details: "" },
    };
    const outcome = cookiesTest(overHttp, buildContext(overHttp));
    expect(outcome.test.result).toBe("cookies-without-secure-flag");
    // Issue 9 point 12: the cookie has the flag, so the issue says what really happened.
    expect(outcome.issues.map((issue) => issue.id)).toEqual(["cookies-secure-over-http"]);
    expect(outcome.issues[0]).toMatchObject({
      title: "Secure cookies set over plain HTTP",
      severity: "medium",
    });
    expect(outcome.issues[0]?.description).toBe(
      "id carries the Secure flag but was set over plain HTTP: browsers drop a Secure cookie set that way (RFC 6265bis section 5.6), and its value has already crossed the network in clear text, where anyone on the way can read it.",
    );
    expect(JSON.stringify(outcome.issues)).not.toContain("without the Secure flag");
  });

  it("also judges the cookies /robots.txt sets, as the reference does", () => {
    const { input, context } = pageContext({});
    const robots = response("https://www.example.com/robots.txt", {
      "content-type": "text/plain",
      "set-cookie": "sessionid=1; Path=/",
    });
    const outcome = cookiesTest({ ...input, robotsTxt: chain(robots) }, context);
    expect(outcome.test).toMatchObject({ result: "cookies-session-without-secure-flag", scoreModifier: -40 });
    expect(cookiesTest({ ...input, robotsTxt: failure() }, context).test.result).toBe("cookies-not-found");
  });

  it("judges the cookie that stays when a later response sets the same name again", () => {
    const { input, context } = pageContext({ "set-cookie": "sessionid=1; Path=/" });
    const robots = response("https://www.example.com/robots.txt", {
      "set-cookie": "sessionid=2; Path=/; Secure; HttpOnly; SameSite=Lax",
    });
    expect(cookiesTest({ ...input, robotsTxt: chain(robots) }, context).test.result).toBe(
      "cookies-secure-with-httponly-sessions-and-samesite",
    );
  });
});
