import { describe, expect, it } from "vitest";
import { classifyAddress, MAX_URL_LENGTH, parseTargetUrl, refusalMessage } from "./target-policy.server.ts";

describe("classifyAddress", () => {
  it.each([
    ["0.0.0.0", "0.0.0.0/8"],
    ["0.1.2.3", "0.0.0.0/8"],
    ["10.0.0.5", "10.0.0.0/8"],
    ["10.255.255.255", "10.0.0.0/8"],
    ["100.64.0.1", "100.64.0.0/10"],
    ["100.127.255.254", "100.64.0.0/10"],
    ["127.0.0.1", "127.0.0.0/8"],
    ["127.255.0.9", "127.0.0.0/8"],
    ["169.254.169.254", "169.254.169.254/32"],
    ["169.254.1.1", "169.254.0.0/16"],
    ["172.16.0.1", "172.16.0.0/12"],
    ["172.31.255.255", "172.16.0.0/12"],
    ["192.0.0.8", "192.0.0.0/24"],
    ["192.0.2.1", "192.0.2.0/24"],
    ["192.168.1.1", "192.168.0.0/16"],
    ["198.18.0.1", "198.18.0.0/15"],
    ["198.19.255.1", "198.18.0.0/15"],
    ["198.51.100.7", "198.51.100.0/24"],
    ["203.0.113.9", "203.0.113.0/24"],
    ["224.0.0.1", "224.0.0.0/4"],
    ["239.255.255.250", "224.0.0.0/4"],
    ["240.0.0.1", "240.0.0.0/4"],
    ["255.255.255.255", "255.255.255.255/32"],
    ["::", "::/128"],
    ["::1", "::1/128"],
    ["[::1]", "::1/128"],
    ["fc00::1", "fc00::/7"],
    ["fd12:3456::1", "fc00::/7"],
    ["fe80::1", "fe80::/10"],
    ["fe80::1%eth0", "fe80::/10"],
    ["ff02::1", "ff00::/8"],
    ["::ffff:127.0.0.1", "::ffff:0:0/96"],
    ["::ffff:7f00:1", "::ffff:0:0/96"],
    ["::ffff:8.8.8.8", "::ffff:0:0/96"],
    ["::10.0.0.1", "::/96"],
    ["64:ff9b::10.0.0.1", "64:ff9b::/96"],
    ["64:ff9b::a9fe:a9fe", "169.254.169.254/32"],
    ["2001:db8::1", "2001:db8::/32"],
    ["fd00:ec2::254", "fd00:ec2::254/128"],
    ["64:ff9b:1::7f00:1", "64:ff9b:1::/48"],
    ["2002:7f00:1::", "2002::/16"],
    ["2001:0:4136:e378::1", "2001::/32"],
    ["::ffff:0:7f00:1", "::ffff:0:0:0/96"],
    ["fec0::1", "fec0::/10"],
    ["100::1", "100::/64"],
  ])("refuses %s (%s)", (address, range) => {
    expect(classifyAddress(address)).toMatchObject({ blocked: true, range });
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "192.169.0.1",
    "2606:4700::1111",
    "2a00:1450:4009:81f::2004",
    "64:ff9b::808:808",
  ])("allows the public address %s", (address) => {
    expect(classifyAddress(address)).toEqual({ blocked: false });
  });

  it("names the metadata address before the link-local range around it", () => {
    expect(classifyAddress("169.254.169.254")).toMatchObject({ kind: "cloud metadata address" });
    expect(classifyAddress("fd00:ec2::254")).toMatchObject({ kind: "cloud metadata address" });
  });

  it("blocks text that is not an IP address", () => {
    expect(classifyAddress("localhost")).toMatchObject({ blocked: true });
  });
});

describe("refusalMessage", () => {
  it("says what the address is and how an intranet deployment allows it", () => {
    const verdict = { kind: "private address", range: "10.0.0.0/8" };
    expect(refusalMessage("10.0.0.5", verdict)).toBe(
      "Refused: 10.0.0.5 is a private address (10.0.0.0/8). Audits only reach public websites; " +
        "set AUDIT_ALLOW_PRIVATE_TARGETS=true for an intranet deployment.",
    );
    expect(refusalMessage("10.0.0.1", verdict, "public.example")).toMatch(
      /^Refused: public\.example resolves to a private address \(10\.0\.0\.0\/8\)\./,
    );
    // A name's internal address is not read back to the user (no mapping of the internal DNS).
    expect(refusalMessage("10.0.0.1", verdict, "public.example")).not.toContain("10.0.0.1");
    expect(refusalMessage("::1", { kind: "IPv4-mapped IPv6 address", range: "::ffff:0:0/96" })).toMatch(
      /is an IPv4-mapped/,
    );
    expect(refusalMessage("fd00::1", { kind: "unique-local address", range: "fc00::/7" })).toMatch(
      /is a unique-local/,
    );
  });
});

describe("parseTargetUrl", () => {
  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f.0.0.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
    ["http://0.0.0.0/", "0.0.0.0"],
    ["http://LOCALHOST./", "localhost."],
  ])("normalises %s to the host %s (then refused by the address check)", (input, host) => {
    const result = parseTargetUrl(input);
    expect(result.ok && result.url.hostname).toBe(host);
    if (result.ok && host !== "localhost.") expect(classifyAddress(result.url.hostname).blocked).toBe(true);
  });

  it("adds https:// to a bare host and drops the fragment", () => {
    const result = parseTargetUrl("  www.example.com/pricing?x=1#top ");
    expect(result.ok && result.url.href).toBe("https://www.example.com/pricing?x=1");
  });

  it.each([
    ["ftp://example.com/", "Refused", /only http and https/],
    ["file:///etc/passwd", "Refused", /only http and https/],
    ["gopher://example.com/", "Refused", /only http and https/],
    ["https://user:secret@example.com/", "Refused", /user name or password/],
    ["javascript:alert(1)", "Invalid URL", /not a valid web address/],
    ["", "Invalid URL", /Enter the address/],
    [`https://example.com/${"a".repeat(MAX_URL_LENGTH)}`, "Invalid URL", /longer than 2000/],
  ])("refuses %s", (input, error, details) => {
    const result = parseTargetUrl(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe(error);
      expect(result.details).toMatch(details);
    }
  });
});
