import { once } from "node:events";
import { isIP } from "node:net";
import tls from "node:tls";
import {
  Connection,
  type Connector,
  connectToFirst,
  type ResolvedAddress,
  type Resolver,
  resolveCheckedTarget,
  SafeFetchError,
} from "#app/lib/safe-fetch/safe-connect.server.ts";
import { type AllowPrivate, AUDIT_TARGET_TEXT, parseTargetUrl, urlHost } from "../target-policy.server.ts";
import { describeCertificate, type OpensslVerdict, trustedRoots } from "./tls-certificate.server.ts";
import { tlsIssues } from "./tls-issues.ts";
import { TLS_VERSIONS, type TlsCheckResult, type TlsVersion } from "./tls-types.ts";

// The TLS check (issue 25): one handshake per protocol version, each limited to that version alone,
// newest first; the newest that succeeds also yields the certificate. Every connection goes to an
// address the shared SSRF policy checked (the name is resolved once, here), with the host name only
// in SNI. Work per check: a few handshakes and X.509 parsing of a few certificates, light enough to
// stay in this process under the audits' slots, as the performance check does.

export type TlsCheckOptions = {
  allowPrivate: AllowPrivate;
  /** Name resolution; tests map names to addresses. Default: the system resolver. */
  resolver?: Resolver;
  /** Opens each TCP connection; tests route them to loopback servers. Default: net.connect. */
  connect?: Connector;
  /** The whole check (DNS and four handshakes). */
  timeoutMs?: number;
  /** Each handshake, connect included. */
  handshakeTimeoutMs?: number;
  /** Trusted roots instead of the default store (tests with their own CA). */
  ca?: string | string[];
};

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5_000;

const NODE_VERSION: Record<TlsVersion, tls.SecureVersion> = {
  "TLS 1.0": "TLSv1",
  "TLS 1.1": "TLSv1.1",
  "TLS 1.2": "TLSv1.2",
  "TLS 1.3": "TLSv1.3",
};

// NOTE: OpenSSL 3 will not offer TLS 1.0/1.1 at its default security level (their cipher suites use
// SHA-1); level 0 lets the probe offer them, so a server that still accepts them is found out. The
// probe sends no data, so the weak suites protect nothing here.
const PROBE_CIPHERS = "DEFAULT@SECLEVEL=0";

/** This runtime's OpenSSL would not send a ClientHello for the version: untestable, not refused. */
const LOCAL_REFUSALS = new Set(["ERR_SSL_NO_PROTOCOLS_AVAILABLE", "ERR_SSL_NO_CIPHERS_AVAILABLE"]);

type Accepted = {
  kind: "accepted";
  address: string;
  protocol: string;
  cipher: string;
  chain: Buffer[];
  openssl: OpensslVerdict;
};
type Probe = Accepted | { kind: "refused"; reason: string } | { kind: "untested"; reason: string };

/** The TCP connection itself failed: there is no server to ask about any version. */
class UnreachableError extends Error {}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * The chain, leaf first: what the server sent, completed by Node with an issuer from the trusted
 * store when it has one (Node links each certificate to its issuer, a self-signed one to itself).
 */
function peerChain(socket: tls.TLSSocket): Buffer[] {
  const chain: Buffer[] = [];
  const seen = new Set<string>();
  let certificate: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (certificate?.raw && !seen.has(certificate.fingerprint256) && chain.length < 10) {
    seen.add(certificate.fingerprint256);
    chain.push(certificate.raw);
    certificate = certificate.issuerCertificate;
  }
  return chain;
}

async function probe(
  version: TlsVersion,
  host: string,
  port: number,
  addresses: ResolvedAddress[],
  options: TlsCheckOptions,
  total: AbortSignal,
): Promise<Probe> {
  const handshakeMs = options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  const signal = AbortSignal.any([total, AbortSignal.timeout(handshakeMs)]);
  const connection = new Connection();
  let socket: tls.TLSSocket | undefined;
  try {
    let tcp: Awaited<ReturnType<typeof connectToFirst>>;
    try {
      tcp = await connectToFirst(connection, addresses, port, signal, options.connect);
    } catch (error) {
      throw new UnreachableError(connectFailure(error, host, port, signal, handshakeMs));
    }
    socket = connection.track(
      tls.connect({
        socket: tcp.socket,
        // SNI carries the name; the socket is already connected to the checked address, so Node never
        // looks the name up again. SNI cannot carry an IP address.
        servername: isIP(host) ? undefined : host,
        minVersion: NODE_VERSION[version],
        maxVersion: NODE_VERSION[version],
        ciphers: PROBE_CIPHERS,
        // Inspect whatever the server presents: trust and names are judged in tls-certificate.server.ts.
        rejectUnauthorized: false,
        checkServerIdentity: () => undefined,
        ca: options.ca,
      }),
    );
    try {
      await once(socket, "secureConnect", { signal });
    } catch (error) {
      if (signal.aborted)
        return {
          kind: "untested",
          reason: `no answer to a ${version} handshake within ${seconds(handshakeMs)}.`,
        };
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (LOCAL_REFUSALS.has(code))
        return {
          kind: "untested",
          reason: `this server's OpenSSL ${process.versions.openssl} cannot offer ${version} (${code}).`,
        };
      return { kind: "refused", reason: code || (error as Error).message };
    }
    const authorizationError = socket.authorizationError as unknown;
    return {
      kind: "accepted",
      address: tcp.address,
      protocol: socket.getProtocol() ?? version,
      cipher: socket.getCipher()?.name ?? "unknown",
      chain: peerChain(socket),
      openssl: {
        authorized: socket.authorized,
        error: authorizationError
          ? String((authorizationError as NodeJS.ErrnoException).code ?? authorizationError)
          : null,
      },
    };
  } finally {
    // NOTE: the TLS socket goes first. Node 24.21 crashes the process (SIGSEGV) when the TCP socket
    // under a TLS socket that has just completed a handshake is destroyed before it.
    socket?.destroy();
    connection.close();
  }
}

function connectFailure(error: unknown, host: string, port: number, signal: AbortSignal, ms: number): string {
  if (signal.aborted) return `${host}:${port} did not accept a connection within ${seconds(ms)}.`;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED") return `${host}:${port} refused the connection.`;
  return `${host}:${port} could not be reached (${code ?? (error as Error).message}).`;
}

function emptyResult(url: string, host: string, port: number): TlsCheckResult {
  return {
    url,
    host,
    port,
    address: null,
    checkedAt: new Date().toISOString(),
    certificate: null,
    protocols: { "TLS 1.0": null, "TLS 1.1": null, "TLS 1.2": null, "TLS 1.3": null },
    protocolNotes: {},
    negotiated: null,
    issues: [],
  };
}

/**
 * Checks the TLS set-up of an https URL: certificate facts, chain verification against the trusted
 * roots, the accepted protocol versions, and the findings. Never throws for the target's faults:
 * a refused or unreachable target comes back with `error` and `details`.
 */
export async function runTlsCheck(rawUrl: string, options: TlsCheckOptions): Promise<TlsCheckResult> {
  const target = parseTargetUrl(rawUrl);
  if (!target.ok) return { ...emptyResult(rawUrl, "", 443), error: target.error, details: target.details };
  const url = target.url;
  const host = urlHost(url);
  const port = Number(url.port) || 443;
  const result = emptyResult(url.href, host, port);
  if (url.protocol !== "https:")
    return {
      ...result,
      error: "Not HTTPS",
      details: `The TLS check needs an https:// address; ${url.href} has no TLS.`,
    };

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const total = AbortSignal.timeout(timeoutMs);
  let addresses: ResolvedAddress[];
  try {
    ({ addresses } = await resolveCheckedTarget(
      url,
      {
        allowPrivate: options.allowPrivate,
        resolve: options.resolver,
        howToAllow: AUDIT_TARGET_TEXT.howToAllow,
        privateSwitch: AUDIT_TARGET_TEXT.privateSwitch,
      },
      total,
    ));
  } catch (error) {
    if (error instanceof SafeFetchError) return { ...result, error: error.title, details: error.message };
    if (total.aborted)
      return {
        ...result,
        error: "Timed out",
        details: `No address found for ${host} within ${seconds(timeoutMs)}.`,
      };
    throw error;
  }

  let newest: Accepted | null = null;
  const refusals: string[] = [];
  // One after the other, newest first: four handshakes at once would look like an attack to some
  // servers' rate limits, and the newest accepted one carries the certificate browsers see.
  for (const version of [...TLS_VERSIONS].reverse()) {
    if (total.aborted) {
      result.protocolNotes[version] = `not tested: the check's ${seconds(timeoutMs)} ran out.`;
      continue;
    }
    let outcome: Probe;
    try {
      outcome = await probe(version, host, port, addresses, options, total);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
      return { ...result, error: "Connection failed", details: error.message };
    }
    if (outcome.kind === "accepted") {
      result.protocols[version] = true;
      newest ??= outcome;
    } else if (outcome.kind === "refused") {
      result.protocols[version] = false;
      refusals.push(`${version}: ${outcome.reason}`);
    } else {
      result.protocolNotes[version] = outcome.reason;
    }
  }

  if (!newest) {
    const tested = TLS_VERSIONS.some((version) => result.protocols[version] === false);
    return {
      ...result,
      error: "TLS handshake failed",
      details: tested
        ? `${host}:${port} completed no TLS handshake (${refusals.join("; ")}).`
        : `${host}:${port} could not be tested: ${Object.values(result.protocolNotes).join(" ")}`,
    };
  }
  const now = new Date(result.checkedAt);
  result.address = newest.address;
  result.negotiated = { protocol: newest.protocol, cipher: newest.cipher };
  result.certificate = describeCertificate(
    newest.chain,
    host,
    newest.openssl,
    () => trustedRoots(options.ca),
    now,
  );
  if (!result.certificate)
    return { ...result, error: "No certificate", details: `${host}:${port} presented no certificate.` };
  result.issues = tlsIssues(result);
  return result;
}
