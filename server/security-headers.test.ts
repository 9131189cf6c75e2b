import { describe, expect, it } from "vitest";
import { baseSecurityHeaders, contentSecurityPolicy } from "./security-headers.ts";

function directive(csp: string, name: string): string | undefined {
  return csp
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));
}

describe("contentSecurityPolicy", () => {
  it("allows inline scripts only by hash or nonce, never unsafe-inline or unsafe-eval", () => {
    const hashed = contentSecurityPolicy({ hashes: ["sha256-abc="] }, false);
    expect(directive(hashed, "script-src")).toBe("script-src 'self' 'sha256-abc='");
    const nonced = contentSecurityPolicy({ nonce: "n0nce" }, false);
    expect(directive(nonced, "script-src")).toBe("script-src 'self' 'nonce-n0nce'");
    for (const csp of [hashed, nonced]) {
      expect(directive(csp, "script-src")).not.toMatch(/unsafe/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'self'");
    }
  });

  it("upgrades insecure requests only over HTTPS", () => {
    expect(contentSecurityPolicy({}, true)).toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy({}, false)).not.toContain("upgrade-insecure-requests");
  });
});

describe("baseSecurityHeaders", () => {
  it("sends HSTS only when asked", () => {
    expect(baseSecurityHeaders(true)["Strict-Transport-Security"]).toBe(
      "max-age=63072000; includeSubDomains",
    );
    expect(baseSecurityHeaders(false)).not.toHaveProperty("Strict-Transport-Security");
  });

  it("forbids sniffing, framing and cross-origin embedding", () => {
    const headers = baseSecurityHeaders(false);
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["Cross-Origin-Opener-Policy"]).toBe("same-origin");
    expect(headers["Cross-Origin-Resource-Policy"]).toBe("same-origin");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
  });
});
