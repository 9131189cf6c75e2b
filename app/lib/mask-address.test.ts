import { expect, it } from "vitest";
import { maskAddress } from "./mask-address.ts";

it("masks an address to its network: IPv4 /24, IPv6 /48, mapped IPv4 as IPv4", () => {
  expect(maskAddress("203.0.113.77")).toBe("203.0.113.x");
  expect(maskAddress("::ffff:198.51.100.4")).toBe("198.51.100.x");
  expect(maskAddress("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1::/48");
  expect(maskAddress("2001:0db8::1")).toBe("2001:db8:0::/48");
  expect(maskAddress("::1")).toBe("0:0:0::/48");
  expect(maskAddress("fe80::1%eth0")).toBe("fe80:0:0::/48");
  for (const nothing of ["", undefined, null, "not an address", "999.1.1.1"])
    expect(maskAddress(nothing)).toBe("unknown");
});
