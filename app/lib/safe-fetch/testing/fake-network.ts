import http from "node:http";
import net from "node:net";
import type { Connector, Resolver } from "../safe-connect.server.ts";

// Test-only: the network as the outbound paths see it, without the network. Names resolve from a
// table; every connection goes through a connector that records where it was meant to go. Loopback
// targets are connected for real; any other address (a cloud metadata service, a public site) is
// answered by a stand-in metadata server on 127.0.0.1 that hands out a fake credential, so a test
// run against code without the policy shows the leak without ever opening a connection to anything
// but loopback.

export const FAKE_CREDENTIAL = "AKIA-FAKE-METADATA-CREDENTIAL";

export type FakeNetwork = {
  resolve: Resolver & { calls: string[] };
  connect: Connector;
  /** Every connection asked for, in order: the address and port the code wanted. */
  attempts: { host: string; port: number }[];
  /** The attempts to anything but 127.0.0.1 / ::1 (a policy that holds leaves this empty). */
  outward(): string[];
  /** Requests the stand-in metadata server answered. */
  metadataHits(): number;
  close(): Promise<void>;
};

const LOOPBACK = new Set(["127.0.0.1", "::1"]);

export async function startFakeNetwork(names: Record<string, string[]> = {}): Promise<FakeNetwork> {
  let hits = 0;
  const metadata = http.createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { "Content-Type": "text/plain" }).end(`{"AccessKeyId":"${FAKE_CREDENTIAL}"}`);
  });
  const sockets = new Set<net.Socket>();
  metadata.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => metadata.listen(0, "127.0.0.1", resolve));
  const metadataPort = (metadata.address() as net.AddressInfo).port;

  const calls: string[] = [];
  const resolve = Object.assign(
    async (hostname: string) => {
      calls.push(hostname);
      const addresses = names[hostname.toLowerCase()];
      if (!addresses)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      return addresses.map((address) => ({ address, family: net.isIP(address) }));
    },
    { calls },
  );
  const attempts: { host: string; port: number }[] = [];
  const connect: Connector = ({ host, port, family }) => {
    attempts.push({ host, port });
    if (LOOPBACK.has(host)) return net.connect({ host, port, family });
    // NOTE: never the address asked for: the stand-in answers in its place, on loopback.
    return net.connect({ host: "127.0.0.1", port: metadataPort });
  };
  return {
    resolve,
    connect,
    attempts,
    outward: () =>
      attempts.filter(({ host }) => !LOOPBACK.has(host)).map(({ host, port }) => `${host}:${port}`),
    metadataHits: () => hits,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        metadata.close(() => done());
      }),
  };
}

/** Every spelling of a cloud metadata target the policy must refuse (with the names it resolves). */
export const METADATA_URLS = [
  "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
  "http://2852039166/latest/meta-data/",
  "http://0xa9fea9fe/latest/meta-data/",
  "http://0251.0376.0251.0376/latest/meta-data/",
  "http://169.254.43518/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
  "http://[::169.254.169.254]/latest/meta-data/",
  "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://169.254.170.2/v2/credentials/",
  "http://169.254.169.253/",
  "http://100.100.100.200/latest/meta-data/",
  "http://192.0.0.192/opc/v2/instance/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://metadata.google.internal./computeMetadata/v1/",
  "http://METADATA.GOOGLE.INTERNAL/computeMetadata/v1/",
  "http://metadata/computeMetadata/v1/",
  "http://metadata.goog/computeMetadata/v1/",
  "http://instance-data/latest/meta-data/",
  "http://instance-data./latest/meta-data/",
  // A public-looking name whose DNS answer is the metadata service (rebinding).
  "http://rebind.example/latest/meta-data/",
] as const;

/** What the names above resolve to, as they do inside the clouds (and rebind.example for an attacker). */
export const METADATA_NAMES_RESOLVED: Record<string, string[]> = {
  "metadata.google.internal": ["169.254.169.254"],
  "metadata.google.internal.": ["169.254.169.254"],
  metadata: ["169.254.169.254"],
  "metadata.goog": ["169.254.169.254"],
  "instance-data": ["169.254.169.254"],
  "instance-data.": ["169.254.169.254"],
  "rebind.example": ["169.254.169.254"],
};

/** The same targets over https (the TLS check and the https halves of the audits). */
export const METADATA_HTTPS_URLS = METADATA_URLS.map((url) => url.replace(/^http:/, "https:"));
