import { promises as dns } from "node:dns";
import { once } from "node:events";
import net from "node:net";
import tls from "node:tls";
import { metadataRefusalFor } from "./cloud-metadata.server.ts";
import {
  type AllowPrivate,
  classifyAddress,
  isAllowedPrivate,
  refusalMessage,
  type TargetPolicyText,
  urlHost,
} from "./target-policy.server.ts";

// The SSRF-safe way to open a connection to a host staff chose (the website audits, the outgoing
// webhooks): resolve the name ourselves, refuse if any answer is a non-public address, then open the
// TCP connection to the checked address itself — there is no second lookup that DNS rebinding could
// answer differently. The HTTP on top is each tool's own (the audits fetch pages, webhooks POST).

export type ResolvedAddress = { address: string; family: number };
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, order: "verbatim" });

/**
 * Opens the TCP connection to one checked address. Tests inject their own so that no test ever
 * opens a connection to anything but loopback, even to an address the policy must refuse.
 */
export type Connector = (target: { host: string; port: number; family: number }) => net.Socket;

/**
 * NOTE: a fence for the test suite. Under Vitest (`VITEST` is set in its workers and inherited by the
 * servers the e2e tests start) no outbound connection of the server leaves loopback, whatever the
 * policy says: a regression in the policy fails a test with this error instead of reaching a real
 * address (the machine's rule: tests talk to 127.0.0.0/8 and ::1 only).
 */
const loopbackOnly = Boolean(process.env.VITEST);
const isLoopback = (host: string) =>
  (net.isIPv4(host) && host.startsWith("127.")) ||
  host === "::1" ||
  host.toLowerCase().startsWith("::ffff:127.");

export const systemConnector: Connector = ({ host, port, family }) => {
  if (loopbackOnly && !isLoopback(host)) {
    const fenced = new net.Socket();
    process.nextTick(() =>
      fenced.destroy(
        new Error(`connect to ${host}:${port} refused: tests reach loopback only (VITEST is set)`),
      ),
    );
    return fenced;
  }
  return net.connect({ host, port, family });
};

/** A failure already described for people: a short title ("Refused") and a sentence. */
export class SafeFetchError extends Error {
  readonly title: string;
  constructor(title: string, details: string) {
    super(details);
    this.title = title;
  }
}

export type TargetCheckOptions = {
  /** Off by default: only public addresses. See AllowPrivate. */
  allowPrivate?: AllowPrivate;
  /** Name resolution; tests map names to addresses without real DNS. Default: the system resolver. */
  resolve?: Resolver;
  /** The tool's sentence on how to allow private targets, appended to a refusal. */
  howToAllow?: string;
  /** The tool's switch for private targets, named in a cloud metadata refusal as one it does not lift. */
  privateSwitch?: string;
};

/** Rejects with the signal's reason as soon as it aborts, leaving the promise to finish unobserved. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  promise.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Resolves and checks the host of a URL: the addresses that may be connected to (every one passed
 * the check), or a SafeFetchError ("Refused", "DNS lookup failed"). `dnsMs` is null for an IP literal.
 */
export async function resolveCheckedTarget(
  url: URL,
  options: TargetCheckOptions,
  signal: AbortSignal,
): Promise<{ addresses: ResolvedAddress[]; dnsMs: number | null }> {
  const host = urlHost(url);
  const checkOne = (address: string) => {
    // Cloud metadata first, and whatever allowPrivate says.
    const metadata = metadataRefusalFor(address, host, options.privateSwitch);
    if (metadata) throw new SafeFetchError("Refused", metadata);
    const verdict = classifyAddress(address);
    if (verdict.blocked && !isAllowedPrivate(address, options.allowPrivate)) {
      throw new SafeFetchError("Refused", refusalMessage(address, verdict, host, options.howToAllow));
    }
  };
  if (net.isIP(host)) {
    checkOne(host);
    return { addresses: [{ address: host, family: net.isIP(host) }], dnsMs: null };
  }
  // Names refused without asking DNS: a metadata service's (metadata.google.internal. included), and
  // localhost with its subdomains, which RFC 6761 reserves for loopback whatever a resolver says
  // ("localhost." is not in /etc/hosts, so a lookup would fail and the name slip through).
  const byName = metadataRefusalFor(host, undefined, options.privateSwitch);
  if (byName) throw new SafeFetchError("Refused", byName);
  if (/^(?:.+\.)?localhost\.*$/i.test(host)) checkOne("127.0.0.1");
  const started = performance.now();
  let answers: ResolvedAddress[];
  try {
    answers = await abortable((options.resolve ?? systemResolver)(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "no answer";
    throw new SafeFetchError("DNS lookup failed", `No address found for ${host} (${code}).`);
  }
  const dnsMs = Math.round((performance.now() - started) * 10) / 10;
  if (!answers.length) throw new SafeFetchError("DNS lookup failed", `No address found for ${host}.`);
  // Every answer is checked, not just the one we use: a name that also points inward is suspect.
  for (const answer of answers) checkOne(answer.address);
  return { addresses: answers, dnsMs };
}

/**
 * The sockets of one exchange, destroyed when it ends whatever happened: one connection per
 * exchange, never reused. One opened after the end (a late DNS answer after a timeout) is destroyed
 * at once.
 */
export class Connection {
  #closed = false;
  #sockets: { destroy(): void }[] = [];
  track<T extends { destroy(): void; on(event: "error", listener: (error: Error) => void): unknown }>(
    socket: T,
  ): T {
    // NOTE: once() only listens for errors while it waits; a reset after that, with nobody else
    // listening, would be an uncaught exception that ends the server. The awaited paths report it.
    socket.on("error", () => {});
    if (this.#closed) socket.destroy();
    else this.#sockets.push(socket);
    return socket;
  }
  close() {
    this.#closed = true;
    for (const socket of this.#sockets) socket.destroy();
  }
}

/**
 * Tries the checked addresses in the resolver's order until one accepts, as browsers fall back from
 * an unreachable IPv6 address to IPv4. Only addresses that passed the checks are ever tried.
 */
export async function connectToFirst(
  connection: Connection,
  addresses: ResolvedAddress[],
  port: number,
  signal: AbortSignal,
  connect: Connector = systemConnector,
): Promise<{ socket: net.Socket; address: string }> {
  let lastError: unknown = new Error("no address to connect to");
  for (const { address, family } of addresses) {
    signal.throwIfAborted();
    // The last word, at connect time, whoever produced the address list.
    const metadata = metadataRefusalFor(address);
    if (metadata) throw new SafeFetchError("Refused", metadata);
    const socket = connection.track(connect({ host: address, port, family }));
    try {
      await once(socket, "connect", { signal });
      return { socket, address };
    } catch (error) {
      if (signal.aborted) throw error;
      socket.destroy();
      lastError = error;
    }
  }
  throw lastError;
}

export type VerifiedSocketOptions = {
  allowPrivate?: AllowPrivate;
  resolve?: Resolver;
  connect?: Connector;
  /** Extra trusted roots beside the system's (a test's own authority). */
  ca?: string | Buffer | (string | Buffer)[];
  /** How the refusals name the tool and its switch for private addresses. */
  text: Pick<TargetPolicyText, "howToAllow" | "privateSwitch">;
};

/**
 * A socket to `url`'s checked address, through TLS with a verified certificate for https: (the
 * webhooks and the calendars, whose receivers' identity is the point). The name is resolved and
 * checked here, the connection goes to the checked address, and the TLS server name and the Host
 * header the caller sends still carry the name, so virtual hosting and certificates work.
 */
export async function openVerifiedSocket(
  connection: Connection,
  url: URL,
  options: VerifiedSocketOptions,
  signal: AbortSignal,
): Promise<net.Socket> {
  const target = await resolveCheckedTarget(
    url,
    {
      allowPrivate: options.allowPrivate,
      resolve: options.resolve,
      howToAllow: options.text.howToAllow,
      privateSwitch: options.text.privateSwitch,
    },
    signal,
  );
  const host = urlHost(url);
  const secure = url.protocol === "https:";
  const port = Number(url.port) || (secure ? 443 : 80);
  const { socket } = await connectToFirst(connection, target.addresses, port, signal, options.connect);
  if (!secure) return socket;
  const tlsSocket = connection.track(
    tls.connect({
      socket,
      host,
      servername: net.isIP(host) ? undefined : host,
      ALPNProtocols: ["http/1.1"],
      ca: options.ca ? [...tls.rootCertificates, ...[options.ca].flat()] : undefined,
    }),
  );
  try {
    await once(tlsSocket, "secureConnect", { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new SafeFetchError("TLS failed", `TLS with ${url.host} failed${code ? ` (${code})` : ""}.`);
  }
  return tlsSocket;
}
