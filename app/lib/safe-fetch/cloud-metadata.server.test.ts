import { isIP } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cloudMetadataMatch, ipv4FromAnySpelling, metadataRefusalFor } from "./cloud-metadata.server.ts";
import { Connection, connectToFirst, resolveCheckedTarget, SafeFetchError } from "./safe-connect.server.ts";
import { type FakeNetwork, METADATA_NAMES_RESOLVED, startFakeNetwork } from "./testing/fake-network.ts";

// The one list of cloud metadata targets and the shared guard that applies it: by name, by every
// spelling of an address, after resolution and at connect time, whatever allowPrivate says.

/** Every spelling of a metadata address the list must match, with the range it matches. */
const METADATA_ADDRESSES: [string, string][] = [
  ["169.254.169.254", "169.254.169.254/32"],
  ["2852039166", "169.254.169.254/32"],
  ["0xa9fea9fe", "169.254.169.254/32"],
  ["0xA9.0xFE.0xA9.0xFE", "169.254.169.254/32"],
  ["0251.0376.0251.0376", "169.254.169.254/32"],
  ["169.254.43518", "169.254.169.254/32"],
  ["169.16689662", "169.254.169.254/32"],
  ["::ffff:169.254.169.254", "169.254.169.254/32"],
  ["[::ffff:a9fe:a9fe]", "169.254.169.254/32"],
  ["::169.254.169.254", "169.254.169.254/32"],
  ["::ffff:0:a9fe:a9fe", "169.254.169.254/32"],
  ["64:ff9b::a9fe:a9fe", "169.254.169.254/32"],
  ["64:ff9b::169.254.169.254", "169.254.169.254/32"],
  ["64:ff9b:1::a9fe:a9fe", "169.254.169.254/32"],
  ["2002:a9fe:a9fe::1", "169.254.169.254/32"],
  ["169.254.170.2", "169.254.170.2/32"],
  ["169.254.169.253", "169.254.169.253/32"],
  ["169.254.7.7", "169.254.0.0/16"],
  ["100.100.100.200", "100.100.100.200/32"],
  ["::ffff:100.100.100.200", "100.100.100.200/32"],
  ["192.0.0.192", "192.0.0.192/32"],
  ["fd00:ec2::254", "fd00:ec2::254/128"],
  ["FD00:EC2:0:0:0:0:0:254", "fd00:ec2::254/128"],
  ["fd00:ec2::253", "fd00:ec2::/32"],
  ["fe80::1%eth0", "fe80::/10"],
  // Other clouds' IPv6 metadata addresses: unique-local, so a private-targets switch let them through.
  ["fd20:ce::254", "fd20:ce::254/128"],
  ["fd00:c1::a9fe:a9fe", "fd00:c1::a9fe:a9fe/128"],
  ["fd00:c1::169.254.169.254", "fd00:c1::a9fe:a9fe/128"],
  ["fd00:42::42", "fd00:42::42/128"],
  ["fd00:a9fe:a9fe::1", "fd00:a9fe:a9fe::1/128"],
  ["fd00:100::100:200", "fd00:100::100:200/128"],
  ["fd12:3456:789a::a9fe:a9fe", "169.254.169.254/32"],
  // The local-use NAT64 prefix cut at /48, /56 and /64 (RFC 6052 2.2).
  ["64:ff9b:1:a9fe:a9:fe00::", "169.254.169.254/32"],
  ["64:ff9b:1:a9:fe:a9fe::", "169.254.169.254/32"],
  ["64:ff9b:1:0:a9:fea9:fe00:0", "169.254.169.254/32"],
];

/**
 * Every spelling as a resolver or a connector would hand it over (no brackets), with its family:
 * each is refused by the policy on the outbound path, never connected to.
 */
const METADATA_TARGETS = METADATA_ADDRESSES.map(([host]) => {
  const address = host.replace(/^\[|\]$/g, "");
  return { address, family: isIP(address.replace(/%.*$/, "")) === 6 ? 6 : 4 };
});

/** The spellings a URL can carry as its host (a zone id cannot be in one). */
const METADATA_URL_HOSTS = METADATA_ADDRESSES.map(([host]) => host)
  .filter((host) => !host.includes("%"))
  .map((host) => (isIP(host) === 6 ? `[${host}]` : host));

describe("the cloud metadata list", () => {
  it.each(METADATA_ADDRESSES)("matches %s (%s)", (host, range) => {
    expect(cloudMetadataMatch(host)?.range).toBe(range);
    expect(metadataRefusalFor(host)).toMatch(/^Refused: .* is a cloud metadata address \(/);
  });

  it.each([
    "metadata.google.internal",
    "METADATA.GOOGLE.INTERNAL.",
    "metadata",
    "metadata.",
    "metadata.goog",
    "instance-data",
    "instance-data..",
    "metadata.azure.internal",
  ])("matches the name %s", (name) => {
    expect(metadataRefusalFor(name)).toMatch(
      /^Refused: \S+ is a cloud metadata address \(.+\); cloud metadata/,
    );
  });

  it.each([
    "93.184.215.14",
    "127.0.0.1",
    "10.0.0.1",
    "100.100.100.201",
    "192.0.0.193",
    "2606:4700::1111",
    "::1",
    "::ffff:93.184.215.14",
    "fd20:ce::253",
    "fd00:42::43",
    "64:ff9b:1:5db8:d7:e00::",
    "example.com",
    "metadata.example.com",
    "google.internal",
    "169.254.169.254.nip.io",
  ])("leaves %s to the other rules", (host) => {
    expect(cloudMetadataMatch(host)).toBeNull();
  });

  it("reads the IPv4 spellings C libraries and URL parsers accept, and nothing else", () => {
    expect(ipv4FromAnySpelling("2852039166")).toBe("169.254.169.254");
    expect(ipv4FromAnySpelling("0x7f.1")).toBe("127.0.0.1");
    expect(ipv4FromAnySpelling("4294967296")).toBeNull();
    expect(ipv4FromAnySpelling("1.2.3.256")).toBeNull();
    expect(ipv4FromAnySpelling("08.1.1.1")).toBeNull();
    expect(ipv4FromAnySpelling("example")).toBeNull();
  });

  it("names the host that resolved to it", () => {
    expect(metadataRefusalFor("169.254.169.254", "rebind.example")).toMatch(
      /^Refused: rebind\.example resolves to a cloud metadata address \(169\.254\.169\.254, /,
    );
  });
});

describe("the shared guard, with every private target allowed", () => {
  let network: FakeNetwork;
  beforeEach(async () => {
    network = await startFakeNetwork({
      ...METADATA_NAMES_RESOLVED,
      "dual.example": ["127.0.0.1", "169.254.169.254"],
    });
  });
  afterEach(async () => {
    expect(network.outward()).toEqual([]);
    await network.close();
  });

  it("refuses a metadata name before asking DNS", async () => {
    const checked = resolveCheckedTarget(
      new URL("http://metadata.google.internal./"),
      { allowPrivate: true, resolve: network.resolve },
      AbortSignal.timeout(5_000),
    );
    await expect(checked).rejects.toThrow(/^Refused: metadata\.google\.internal is a cloud metadata address/);
    expect(network.resolve.calls).toEqual([]);
  });

  it("refuses a name when any one of its answers is metadata", async () => {
    const checked = resolveCheckedTarget(
      new URL("http://dual.example/"),
      { allowPrivate: true, resolve: network.resolve },
      AbortSignal.timeout(5_000),
    );
    await expect(checked).rejects.toThrow(/^Refused: dual\.example resolves to a cloud metadata address/);
  });

  it.each(METADATA_URL_HOSTS)("refuses http://%s/ before asking DNS, and never connects", async (host) => {
    const checked = resolveCheckedTarget(
      new URL(`http://${host}/`),
      { allowPrivate: true, resolve: network.resolve },
      AbortSignal.timeout(5_000),
    );
    await expect(checked).rejects.toThrow(/cloud metadata address/);
    expect(network.resolve.calls).toEqual([]);
    expect(network.attempts).toEqual([]);
  });

  it.each(METADATA_TARGETS)(
    "refuses a name that resolves to $address, and never connects",
    async ({ address, family }) => {
      const resolve = Object.assign(async () => [{ address, family }], { calls: [] as string[] });
      const checked = resolveCheckedTarget(
        new URL("http://unique-local.example/"),
        { allowPrivate: true, resolve },
        AbortSignal.timeout(5_000),
      );
      await expect(checked).rejects.toThrow(
        /^Refused: unique-local\.example resolves to a cloud metadata address/,
      );
      expect(network.attempts).toEqual([]);
    },
  );

  it.each(METADATA_TARGETS)(
    "refuses $address at connect time through the injected connector",
    async ({ address, family }) => {
      const connection = new Connection();
      try {
        const connecting = connectToFirst(
          connection,
          [{ address, family }],
          80,
          AbortSignal.timeout(5_000),
          network.connect,
        );
        await expect(connecting).rejects.toThrow(/cloud metadata address/);
      } finally {
        connection.close();
      }
      expect(network.attempts).toEqual([]);
    },
  );

  it("refuses at connect time, whoever produced the address, and never calls the connector", async () => {
    const connection = new Connection();
    try {
      const connecting = connectToFirst(
        connection,
        [{ address: "::ffff:a9fe:a9fe", family: 6 }],
        80,
        AbortSignal.timeout(5_000),
        network.connect,
      );
      await expect(connecting).rejects.toBeInstanceOf(SafeFetchError);
      await expect(connecting).rejects.toThrow(/cloud metadata address/);
    } finally {
      connection.close();
    }
    expect(network.attempts).toEqual([]);
  });
});
