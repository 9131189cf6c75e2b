import { describe, expect, it } from "vitest";
import { DEVICE_TRUST_MS, deviceKey, issueDeviceToken, trustedDeviceId } from "./trusted-device.server.ts";

// Issue 22 point 1: the device cookie vouches for one browser and one account, signed with a key of
// its own derived from the app secret; anything else is simply no device cookie.

const KEY = deviceKey("device-test-secret-device-test-secret");
const NOW = new Date("2026-11-27T08:00:00.000Z");

describe("device tokens", () => {
  it("vouches for the account it was issued to, in any case of its name, until it expires", () => {
    const token = issueDeviceToken(KEY, "Admin", NOW);
    const id = trustedDeviceId(KEY, " admin ", token, NOW);
    expect(id).toMatch(/^[\w-]{22}$/);
    expect(trustedDeviceId(KEY, "admin", token, new Date(NOW.getTime() + DEVICE_TRUST_MS - 1000))).toBe(id);
    expect(trustedDeviceId(KEY, "admin", token, new Date(NOW.getTime() + DEVICE_TRUST_MS))).toBeUndefined();
    // Each sign-in gets a device id of its own.
    expect(trustedDeviceId(KEY, "admin", issueDeviceToken(KEY, "admin", NOW), NOW)).not.toBe(id);
  });

  it("refuses another account's token, another key's, a changed expiry or id, and junk", () => {
    const token = issueDeviceToken(KEY, "admin", NOW);
    const [id = "", expires = "", signature = ""] = token.split(".");
    expect(trustedDeviceId(KEY, "someone-else", token, NOW)).toBeUndefined();
    expect(
      trustedDeviceId(deviceKey("another-secret-another-secret-another"), "admin", token, NOW),
    ).toBeUndefined();
    expect(
      trustedDeviceId(KEY, "admin", `${id}.${Number(expires) + 1000}.${signature}`, NOW),
    ).toBeUndefined();
    expect(trustedDeviceId(KEY, "admin", `${"A".repeat(22)}.${expires}.${signature}`, NOW)).toBeUndefined();
    for (const junk of [undefined, "", "a.b.c", `${token}.x`, `${id}.${expires}`, "x".repeat(500)])
      expect(trustedDeviceId(KEY, "admin", junk, NOW)).toBeUndefined();
  });
});
