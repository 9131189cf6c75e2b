import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import {
  abortable,
  Connection,
  type Connector,
  connectToFirst,
  type ResolvedAddress,
  type Resolver,
  resolveCheckedTarget,
  SafeFetchError,
} from "#app/lib/safe-fetch/safe-connect.server.ts";
import { type AllowPrivate, AUDIT_TARGET_TEXT, checkTargetUrl } from "../target-policy.server.ts";
import type { BlockedRequest } from "./lab-types.ts";

// The lab check's browser loads whatever a staff-chosen page asks for: images, scripts, iframes,
// fetch() calls, redirects. Checking only the first URL (as safe-fetch does for the other audits)
// would let a public page make the browser read http://127.0.0.1:... or the cloud metadata service
// from inside our network. So every request Chromium makes is sent through this proxy
// (--proxy-server, with loopback not bypassed), which applies the same target policy as safe-fetch:
// it resolves the name itself, refuses any non-public answer, and connects to the checked address.
// Cloud metadata is refused by that shared policy whatever AUDIT_ALLOW_PRIVATE_TARGETS says.
// It speaks plain HTTP forwarding and CONNECT tunnels only; anything else is refused.

export type TrafficGuardLimits = {
  /** Connections (forwarded requests and tunnels) accepted per run; the rest are refused. */
  maxConnections: number;
  /** Bytes relayed in both directions per run; past it every open connection is cut. */
  maxBytes: number;
  /** Each upstream connect (DNS + TCP) gives up after this long. */
  connectTimeoutMs: number;
};

export const DEFAULT_TRAFFIC_LIMITS: TrafficGuardLimits = {
  maxConnections: 600,
  maxBytes: 64 * 1024 * 1024,
  connectTimeoutMs: 10_000,
};

/** Blocked requests listed in a result; the count beyond it is still told. */
export const MAX_BLOCKED_LISTED = 100;

export type TrafficGuardOptions = {
  allowPrivate?: AllowPrivate;
  /** Tests map names to addresses without real DNS. */
  resolve?: Resolver;
  /** Tests route the upstream connections to loopback servers. Default: net.connect. */
  connect?: Connector;
  limits?: Partial<TrafficGuardLimits>;
};

export type TrafficGuard = {
  /** Where Chromium's --proxy-server points: http://127.0.0.1:<port>. */
  readonly proxyUrl: string;
  readonly port: number;
  /** Refused requests, in the order they came (at most MAX_BLOCKED_LISTED). */
  readonly blocked: BlockedRequest[];
  /** How many requests were refused in all. */
  readonly blockedCount: number;
  /**
   * connections: forwarded requests and tunnels accepted (what the limit counts); upstreamSockets:
   * TCP connections actually opened to targets (pooled keep-alive ones are reused); bytes: relayed.
   */
  readonly stats: { connections: number; upstreamSockets: number; bytes: number; waits: Waits };
  close(): Promise<void>;
};

/**
 * What the guard itself adds: per forwarded request, the milliseconds from its arrival at the proxy
 * to the target's response headers (policy check, connect or reuse, the target's own time); per
 * tunnel, from the CONNECT to its 200. Medians and p95 of the first MAX_WAITS of each.
 */
export type Waits = {
  requests: { count: number; p50: number; p95: number };
  tunnels: { count: number; p50: number; p95: number };
};
const MAX_WAITS = 2_000;

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100) / 100;
  return { count: values.length, p50: at(0.5), p95: at(0.95) };
}

// Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never forwarded to the target.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function forwardedHeaders(raw: string[]): [string, string][] {
  const connectionTokens = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === "connection") {
      for (const token of (raw[i + 1] ?? "").split(",")) connectionTokens.add(token.trim().toLowerCase());
    }
  }
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? "";
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || connectionTokens.has(lower)) continue;
    out.push([name, raw[i + 1] ?? ""]);
  }
  return out;
}

/** host:port of a CONNECT request, or null when it is not one (no userinfo, no path). */
function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/?#@[\]]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: match[1] ?? "", port };
}

const shortUrl = (text: string) => (text.length > 300 ? `${text.slice(0, 299)}…` : text);

/** Starts the proxy on 127.0.0.1 (a random port) for one lab run. */
export async function startTrafficGuard(options: TrafficGuardOptions = {}): Promise<TrafficGuard> {
  const limits = { ...DEFAULT_TRAFFIC_LIMITS, ...options.limits };
  const blocked: BlockedRequest[] = [];
  let blockedCount = 0;
  let connections = 0;
  let bytes = 0;
  let upstreamSockets = 0;
  const requestWaits: number[] = [];
  const tunnelWaits: number[] = [];
  const recordWait = (waits: number[], since: number) => {
    if (waits.length < MAX_WAITS) waits.push(performance.now() - since);
  };
  const open = new Set<Connection>();
  const checkOptions = {
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
    howToAllow: AUDIT_TARGET_TEXT.howToAllow,
    privateSwitch: AUDIT_TARGET_TEXT.privateSwitch,
  };

  const block = (url: string, reason: string) => {
    blockedCount += 1;
    if (blocked.length < MAX_BLOCKED_LISTED) blocked.push({ url: shortUrl(url), reason });
  };

  const count = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) for (const connection of open) connection.close();
  };

  // The policy's answer per host, for the whole run: one lookup and one check per name, and the
  // addresses approved first stay the only ones connected to (a DNS answer that changes mid-run, as
  // a rebinding attack's would, is never asked for). Refusals stay refused; lookup failures and
  // timeouts are not kept, so the next request asks again.
  type Approval = { ok: true; addresses: ResolvedAddress[] } | { ok: false; reason: string };
  const approvals = new Map<string, Promise<Approval>>();

  function approve(bare: string, signal: AbortSignal): Promise<Approval> {
    const key = bare.toLowerCase();
    const cached = approvals.get(key);
    if (cached) return cached;
    const pending = (async (): Promise<Approval> => {
      try {
        // The URL parser turns every IPv4 spelling (2852039166, 0xa9fea9fe…) into dotted form; the
        // shared policy then refuses cloud metadata names and addresses before and after the lookup,
        // whatever AUDIT_ALLOW_PRIVATE_TARGETS says.
        const url = new URL(`http://${net.isIPv6(bare) ? `[${bare}]` : bare}/`);
        const checked = checkTargetUrl(url);
        if (!checked.ok) return { ok: false, reason: checked.details };
        const { addresses } = await resolveCheckedTarget(checked.url, checkOptions, signal);
        return { ok: true, addresses };
      } catch (error) {
        if (error instanceof SafeFetchError && error.title === "Refused")
          return { ok: false, reason: error.message };
        throw error;
      }
    })();
    approvals.set(key, pending);
    pending.catch(() => approvals.delete(key));
    return pending;
  }

  /** Counts one request or tunnel against the run's limits, or returns why it is refused. */
  function admit(): string | null {
    if (connections >= limits.maxConnections)
      return `Refused: more than ${limits.maxConnections} connections in one run.`;
    connections += 1;
    if (bytes > limits.maxBytes)
      return `Refused: the run already transferred more than ${Math.round(limits.maxBytes / 1048576)} MB.`;
    return null;
  }

  /** Admits and checks a target: its approved addresses, or why not (recorded as blocked). */
  async function checkTarget(
    host: string,
    shown: string,
    signal: AbortSignal,
  ): Promise<{ ok: true; addresses: ResolvedAddress[] } | { ok: false; reason: string }> {
    const overLimit = admit();
    if (overLimit) {
      block(shown, overLimit);
      return { ok: false, reason: overLimit };
    }
    const bare = host.startsWith("[") ? host.slice(1, -1) : host;
    try {
      const approval = await abortable(approve(bare, signal), signal);
      if (!approval.ok) block(shown, approval.reason);
      return approval;
    } catch {
      // Unreachable is not blocked: the browser sees a failed connection, as it would without us.
      return { ok: false, reason: "" };
    }
  }

  /** Opens a TCP connection to one of the approved addresses (a tunnel's, or a pool's new one). */
  async function connectApproved(
    connection: Connection,
    addresses: ResolvedAddress[],
    port: number,
  ): Promise<net.Socket> {
    const { socket } = await connectToFirst(
      connection,
      addresses,
      port,
      AbortSignal.timeout(limits.connectTimeoutMs),
      options.connect,
    );
    upstreamSockets += 1;
    // Small writes (TLS records, HTTP/2 frames, request heads) go out at once, not after an ACK.
    socket.setNoDelay(true);
    return socket;
  }

  // Plain-HTTP forwarding keeps a small keep-alive pool per approved (host, port, addresses): the
  // page's images, scripts and styles from one origin reuse a connection instead of a new TCP
  // handshake each. A pool's sockets only ever go to that host's approved addresses, and a pool is
  // never shared by two hosts, even ones that resolve alike.
  const pools = new Map<string, { agent: http.Agent; connection: Connection }>();
  function poolFor(host: string, port: number, addresses: ResolvedAddress[]) {
    const key = `${host.toLowerCase()}|${port}|${addresses.map((entry) => entry.address).join(",")}`;
    let pool = pools.get(key);
    if (!pool) {
      const connection = new Connection();
      open.add(connection);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 6, maxFreeSockets: 6 });
      agent.createConnection = ((
        _options: unknown,
        created: (error: Error | null, socket?: net.Socket) => void,
      ) => {
        connectApproved(connection, addresses, port).then(
          (socket) => created(null, socket),
          (error: Error) => created(error),
        );
        return undefined;
      }) as unknown as typeof agent.createConnection;
      pool = { agent, connection };
      pools.set(key, pool);
    }
    return pool;
  }

  const refuse = (socket: Duplex, status: number, reason: string) => {
    const body = reason || "Bad gateway";
    socket.end(
      `HTTP/1.1 ${status} ${status === 403 ? "Forbidden" : status === 405 ? "Method Not Allowed" : "Bad Gateway"}\r\n` +
        `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  const server = http.createServer({ maxHeaderSize: 64 * 1024 });

  // Plain HTTP: the browser sends the absolute URL ("GET http://host/path HTTP/1.1").
  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    const arrived = performance.now();
    void (async () => {
      let target: URL;
      try {
        target = new URL(request.url ?? "");
      } catch {
        response.writeHead(405, { "Content-Type": "text/plain" }).end("Only proxy requests are served.");
        return;
      }
      if (target.protocol !== "http:") {
        block(target.href, `Refused: ${target.protocol.slice(0, -1)} is not proxied; only http and https.`);
        response.writeHead(403, { "Content-Type": "text/plain" }).end("Refused");
        return;
      }
      const port = Number(target.port || 80);
      const checked = await checkTarget(
        target.hostname,
        target.href,
        AbortSignal.timeout(limits.connectTimeoutMs),
      );
      if (!checked.ok) {
        if (!response.headersSent)
          response
            .writeHead(checked.reason ? 403 : 502, { "Content-Type": "text/plain; charset=utf-8" })
            .end(checked.reason || "Bad gateway");
        return;
      }
      const { agent } = poolFor(target.hostname, port, checked.addresses);
      const headers = forwardedHeaders(request.rawHeaders).flat();
      const send = (retry: boolean) => {
        const upstream = http.request({
          agent,
          host: target.hostname,
          port,
          method: request.method,
          path: `${target.pathname}${target.search}`,
          headers,
          setHost: false,
        });
        // The browser went away: this exchange's socket is destroyed, never returned to the pool.
        const onGone = () => {
          if (!response.writableFinished) upstream.destroy();
        };
        response.on("close", onGone);
        upstream.on("error", () => {
          response.off("close", onGone);
          // A kept-alive socket the target closed just as we reused it: a GET or HEAD is sent once
          // more on a fresh connection, as browsers do; anything else fails like a dropped connection.
          if (retry && upstream.reusedSocket && !response.headersSent && !response.destroyed) {
            send(false).end();
            return;
          }
          if (!response.headersSent) response.writeHead(502).end();
          else response.destroy();
        });
        upstream.on("response", (answer) => {
          recordWait(requestWaits, arrived);
          response.writeHead(answer.statusCode ?? 502, forwardedHeaders(answer.rawHeaders).flat());
          answer.on("data", count);
          answer.pipe(response);
        });
        return upstream;
      };
      // A GET or HEAD without a body can be sent again as it is; anything else is streamed once.
      const resendable =
        (request.method === "GET" || request.method === "HEAD") &&
        !request.headers["transfer-encoding"] &&
        !Number(request.headers["content-length"] ?? 0);
      const upstream = send(resendable);
      request.on("data", count);
      if (resendable) {
        upstream.end();
        request.resume();
      } else request.pipe(upstream);
    })();
  });

  // HTTPS (and WebSocket) traffic: a tunnel to a checked address; the TLS inside is the browser's.
  server.on("connect", (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    const arrived = performance.now();
    client.on("error", () => {});
    void (async () => {
      const authority = parseAuthority(request.url ?? "");
      if (!authority) {
        block(String(request.url).slice(0, 300), "Refused: not a host:port CONNECT target.");
        refuse(client, 403, "Refused");
        return;
      }
      const shown = `https://${authority.host}${authority.port === 443 ? "" : `:${authority.port}`}/`;
      const checked = await checkTarget(authority.host, shown, AbortSignal.timeout(limits.connectTimeoutMs));
      if (!checked.ok) {
        refuse(client, checked.reason ? 403 : 502, checked.reason);
        return;
      }
      const connection = new Connection();
      open.add(connection);
      let socket: net.Socket;
      try {
        socket = await connectApproved(connection, checked.addresses, authority.port);
      } catch {
        connection.close();
        open.delete(connection);
        refuse(client, 502, "");
        return;
      }
      connection.track(client);
      if (client instanceof net.Socket) client.setNoDelay(true);
      // Answered the moment the target accepted: the browser's TLS handshake starts without delay.
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      recordWait(tunnelWaits, arrived);
      if (head.length) socket.write(head);
      socket.on("data", count);
      client.on("data", count);
      socket.pipe(client);
      client.pipe(socket);
      const end = () => {
        connection.close();
        open.delete(connection);
      };
      socket.on("close", end);
      client.on("close", end);
    })();
  });

  // An Upgrade on a plain proxy request is neither forwarding nor a tunnel.
  server.on("upgrade", (request: http.IncomingMessage, socket: Duplex) => {
    socket.on("error", () => {});
    block(String(request.url).slice(0, 300), "Refused: upgrade requests are not proxied.");
    refuse(socket, 403, "Refused");
  });
  server.on("clientError", (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    proxyUrl: `http://127.0.0.1:${port}`,
    port,
    blocked,
    get blockedCount() {
      return blockedCount;
    },
    get stats() {
      return {
        connections,
        upstreamSockets,
        bytes,
        waits: { requests: summary(requestWaits), tunnels: summary(tunnelWaits) },
      };
    },
    close() {
      for (const { agent } of pools.values()) agent.destroy();
      for (const connection of open) connection.close();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
