import { describe, expect, it } from "vitest";
import {
  createPreviewToken,
  PREVIEW_TTL_MS,
  previewPath,
  verifyPreviewToken,
} from "./preview-token.server.ts";

// Preview links (issue 24): signed with the app secret, for one post, for seven days.

const SECRET = "preview-secret-0123456789abcdefghij";
const NOW = new Date("2026-12-01T09:00:00.000Z");
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe("preview tokens", () => {
  it("open their post for seven days, then no more", () => {
    const token = createPreviewToken(SECRET, 42, NOW);
    expect(previewPath(token)).toBe(`/preview/${token}`);
    expect(previewPath(token)).toMatch(/^\/preview\/[A-Za-z0-9._-]+$/);
    expect(verifyPreviewToken(SECRET, token, NOW)).toEqual({
      ok: true,
      postId: 42,
      expiresAt: later(PREVIEW_TTL_MS).toISOString(),
    });
    expect(verifyPreviewToken(SECRET, token, later(PREVIEW_TTL_MS - 1000))).toMatchObject({
      ok: true,
      postId: 42,
    });
    expect(verifyPreviewToken(SECRET, token, later(PREVIEW_TTL_MS))).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(PREVIEW_TTL_MS).toBe(7 * 24 * 3600 * 1000);
  });

  it("refuse another post's number, a stretched expiry, another secret and any tampering", () => {
    const token = createPreviewToken(SECRET, 42, NOW);
    const [id, expires, mac] = token.split(".") as [string, string, string];
    expect(verifyPreviewToken(SECRET, `43.${expires}.${mac}`, NOW)).toEqual({ ok: false, reason: "forged" });
    expect(verifyPreviewToken(SECRET, `${id}.${Number(expires) + 86_400}.${mac}`, NOW)).toEqual({
      ok: false,
      reason: "forged",
    });
    expect(verifyPreviewToken("another-secret-0123456789abcdefghij", token, NOW)).toEqual({
      ok: false,
      reason: "forged",
    });
    const flipped = `${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    expect(verifyPreviewToken(SECRET, `${id}.${expires}.${flipped}`, NOW)).toEqual({
      ok: false,
      reason: "forged",
    });
    for (const bad of [
      "",
      "42",
      `${id}.${expires}`,
      `${id}.${expires}.${mac}x`,
      `-1.${expires}.${mac}`,
      "x".repeat(500),
      `0.${expires}.${mac}`,
    ])
      expect(verifyPreviewToken(SECRET, bad, NOW)).toEqual({ ok: false, reason: "malformed" });
  });
});
