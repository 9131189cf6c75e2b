import { describe, expect, it } from "vitest";
import {
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  matchTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  qrSvg,
  totpCode,
  totpStep,
  twoFactorKeys,
} from "./two-factor.server.ts";

// RFC 6238 appendix B's SHA-1 secret ("12345678901234567890") in base32, and its published codes
// (the last six of its eight digits).
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const KEYS = twoFactorKeys("test-secret-test-secret-test-secret");

describe("TOTP codes", () => {
  it("computes RFC 6238's test vectors", () => {
    expect(totpCode(RFC_SECRET, 59_000)).toBe("287082");
    expect(totpCode(RFC_SECRET, 1_111_111_109_000)).toBe("081804");
    expect(totpCode(RFC_SECRET, 1_234_567_890_000)).toBe("005924");
    expect(totpCode(RFC_SECRET, 2_000_000_000_000)).toBe("279037");
  });

  it("accepts the code of the step before, now and after, with spaces, and names its step", () => {
    const now = Date.parse("2026-11-26T12:00:10Z");
    const step = totpStep(now);
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now), now)).toBe(step);
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now)).toBe(step - 1);
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), now)).toBe(step + 1);
    const spaced = totpCode(RFC_SECRET, now).replace(/^(\d{3})/, "$1 ");
    expect(matchTotpStep(RFC_SECRET, spaced, now)).toBe(step);
  });

  it("refuses codes two steps away, other secrets' codes and anything not six digits", () => {
    const now = Date.parse("2026-11-26T12:00:10Z");
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now - 60_000), now)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now + 60_000), now)).toBeNull();
    const other = newTotpSecret();
    // One chance in a million per step that another secret's code matches: three steps checked.
    const foreign = totpCode(other, now);
    const own = [-30_000, 0, 30_000].map((offset) => totpCode(RFC_SECRET, now + offset));
    if (!own.includes(foreign)) expect(matchTotpStep(RFC_SECRET, foreign, now)).toBeNull();
    for (const junk of ["", "12345", "1234567", "abcdef", "１２３４５６"])
      expect(matchTotpStep(RFC_SECRET, junk, now)).toBeNull();
  });

  it("makes 160-bit secrets and names the issuer in the app's URI", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(otpauthUri(secret, "jane.doe"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Clausebridge:jane.doe");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: "Clausebridge",
      secret,
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });

  it("draws the QR code as a plain SVG of paths: no script, no text, nothing fetched", async () => {
    const svg = await qrSvg(otpauthUri(newTotpSecret(), "<script>alert(1)</script>"));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain("<path");
    expect(svg).not.toMatch(/<script|<text|href=|url\(|style=/i);
  });
});

describe("secrets at rest", () => {
  it("encrypts the secret so the row never shows it, and opens only under the same app secret", () => {
    const secret = newTotpSecret();
    const sealed = encryptSecret(secret, KEYS);
    expect(sealed).not.toContain(secret);
    expect(encryptSecret(secret, KEYS)).not.toBe(sealed);
    expect(decryptSecret(sealed, KEYS)).toBe(secret);
    expect(() => decryptSecret(sealed, twoFactorKeys("another-app-secret-another-app-secret"))).toThrow();
    const [version, iv, body = "", tag] = sealed.split(".");
    const flipped = `${body[0] === "A" ? "B" : "A"}${body.slice(1)}`;
    expect(() => decryptSecret([version, iv, flipped, tag].join("."), KEYS)).toThrow();
    expect(() => decryptSecret("not sealed", KEYS)).toThrow();
  });
});

describe("recovery codes", () => {
  it("makes ten different codes of 10 unambiguous characters, shown as two groups of five", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
      expect(looksLikeRecoveryCode(code)).toBe(true);
    }
  });

  it("hashes a code under a key of its own, the same however it is typed", () => {
    const [code = ""] = newRecoveryCodes();
    const hash = hashRecoveryCode(code, KEYS);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain(code.replace("-", ""));
    expect(hashRecoveryCode(` ${code.toLowerCase().replace("-", " ")} `, KEYS)).toBe(hash);
    expect(hashRecoveryCode(code, twoFactorKeys("another-app-secret-another-app-secret"))).not.toBe(hash);
    expect(looksLikeRecoveryCode("123456")).toBe(false);
    expect(looksLikeRecoveryCode("ABCDE-FGHIO")).toBe(false);
  });
});
