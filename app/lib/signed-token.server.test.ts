import { expect, it } from "vitest";
import { signToken, verifyToken } from "./signed-token.server.ts";

const SECRET = "test-secret-test-secret-test-secret";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

it("accepts its own token, for its purpose only, until it expires", () => {
  const token = signToken(SECRET, "meeting-manage:v1", 42, 2_000_000_000_000);
  expect(verifyToken(SECRET, "meeting-manage:v1", token, 1_900_000_000_000)).toEqual({
    ok: true,
    id: 42,
    expiresAt: 2_000_000_000_000,
  });
  expect(verifyToken(SECRET, "meeting-lead:v1", token, 1_900_000_000_000)).toEqual({
    ok: false,
    reason: "forged",
  });
  expect(verifyToken("another-secret-another-secret-xx", "meeting-manage:v1", token, 0)).toMatchObject({
    ok: false,
  });
  expect(verifyToken(SECRET, "meeting-manage:v1", token, 2_000_000_000_000)).toEqual({
    ok: false,
    reason: "expired",
  });
  const lasting = signToken(SECRET, "meeting-manage:v1", 42);
  expect(verifyToken(SECRET, "meeting-manage:v1", lasting, 9e15)).toMatchObject({ ok: true, expiresAt: 0 });
});

it("refuses every other last character, even one that decodes to the same bytes", () => {
  const token = signToken(SECRET, "meeting-manage:v1", 7);
  const last = token.at(-1);
  for (const other of ALPHABET)
    if (other !== last)
      expect(verifyToken(SECRET, "meeting-manage:v1", `${token.slice(0, -1)}${other}`)).toEqual({
        ok: false,
        reason: "forged",
      });
});

it("refuses malformed tokens before any work", () => {
  for (const token of [
    "",
    "7",
    "7.0",
    "0.0.AAAAAAAAAAAAAAAAAAAAAA",
    `7.0.${"A".repeat(23)}`,
    `${"9".repeat(80)}.0.x`,
  ])
    expect(verifyToken(SECRET, "meeting-manage:v1", token)).toEqual({ ok: false, reason: "malformed" });
});
