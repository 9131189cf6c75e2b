import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import {
  Connection,
  connectToFirst,
  type Resolver,
  resolveCheckedTarget,
  SafeFetchError,
} from "#app/lib/safe-fetch/safe-connect.server.ts";
import { type AllowPrivate, AUDIT_TARGET_TEXT, urlHost } from "../target-policy.server.ts";
import type { BlockedRequest } from "./lab-types.ts";
import { metadataRefusal } from "./metadata-targets.server.ts";

// The lab check's browser loads whatever a staff-chosen page asks for: images, scripts, iframes,
// fetch() calls, redirects. Checking only the first URL (as safe-fetch does for the other audits)
// would let a public page make the browser read http://127.0.0.1:... or the cloud metadata service
// from inside our network. So every request Chromium makes is sent through this proxy
// (--proxy-server, with loopback not bypassed), which applies the same target policy as safe-fetch:
// it resolves the name itself, refuses any non-public answer, and connects to the checked address.
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
  readonly stats: { connections: number; bytes: number };
  close(): Promise<void>;
};

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
  const open = new Set<Connection>();
  const checkOptions = {
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
    howToAllow: AUDIT_TARGET_TEXT.howToAllow,
  };

  const block = (url: string, reason: string) => {
    blockedCount += 1;
    if (blocked.length < MAX_BLOCKED_LISTED) blocked.push({ url: shortUrl(url), reason });
  };

  const count = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) for (const connection of open) connection.close();
  };

  /** Checks the target and connects, or returns why not (recorded as blocked). */
  async function connectChecked(
    host: string,
    port: number,
    shown: string,
  ): Promise<{ ok: true; socket: net.Socket; connection: Connection } | { ok: false; reason: string }> {
    if (connections >= limits.maxConnections) {
      const reason = `Refused: more than ${limits.maxConnections} connections in one run.`;
      block(shown, reason);
      return { ok: false, reason };
    }
    connections += 1;
    if (bytes > limits.maxBytes) {
      const reason = `Refused: the run already transferred more than ${Math.round(limits.maxBytes / 1048576)} MB.`;
      block(shown, reason);
      return { ok: false, reason };
    }
    const bare = host.startsWith("[") ? host.slice(1, -1) : host;
    // Cloud metadata is refused before any lookup, and whatever AUDIT_ALLOW_PRIVATE_TARGETS says.
    const byName = metadataRefusal(bare);
    if (byName) {
      block(shown, byName);
      return { ok: false, reason: byName };
    }
    const signal = AbortSignal.timeout(limits.connectTimeoutMs);
    const connection = new Connection();
    try {
      const url = new URL(`http://${net.isIPv6(bare) ? `[${bare}]` : bare}/`);
      const { addresses } = await resolveCheckedTarget(url, checkOptions, signal);
      for (const { address } of addresses) {
        const refusal = metadataRefusal(address, urlHost(url));
        if (refusal) {
          block(shown, refusal);
          return { ok: false, reason: refusal };
        }
      }
      open.add(connection);
      const { socket } = await connectToFirst(connection, addresses, port, signal);
      socket.on("close", () => open.delete(connection));
      return { ok: true, socket, connection };
    } catch (error) {
      connection.close();
      open.delete(connection);
      if (error instanceof SafeFetchError && error.title === "Refused") {
        block(shown, error.message);
        return { ok: false, reason: error.message };
      }
      // Unreachable is not blocked: the browser sees a failed connection, as it would without us.
      return { ok: false, reason: "" };
    }
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
      const connected = await connectChecked(target.hostname, port, target.href);
      if (!connected.ok) {
        if (!response.headersSent)
          response
            .writeHead(connected.reason ? 403 : 502, { "Content-Type": "text/plain; charset=utf-8" })
            .end(connected.reason || "Bad gateway");
        return;
      }
      const { socket, connection } = connected;
      response.on("close", () => connection.close());
      const upstream = http.request({
        createConnection: () => socket,
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers: [...forwardedHeaders(request.rawHeaders).flat(), "Connection", "close"],
        setHost: false,
      });
      upstream.on("error", () => {
        connection.close();
        if (!response.headersSent) response.writeHead(502).end();
        else response.destroy();
      });
      upstream.on("response", (answer) => {
        const headers = forwardedHeaders(answer.rawHeaders);
        response.writeHead(answer.statusCode ?? 502, headers.flat());
        answer.on("data", count);
        answer.pipe(response);
      });
      request.on("data", count);
      request.pipe(upstream);
    })();
  });

  // HTTPS (and WebSocket) traffic: a tunnel to a checked address; the TLS inside is the browser's.
  server.on("connect", (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on("error", () => {});
    void (async () => {
      const authority = parseAuthority(request.url ?? "");
      if (!authority) {
        block(String(request.url).slice(0, 300), "Refused: not a host:port CONNECT target.");
        refuse(client, 403, "Refused");
        return;
      }
      const shown = `https://${authority.host}${authority.port === 443 ? "" : `:${authority.port}`}/`;
      const connected = await connectChecked(authority.host, authority.port, shown);
      if (!connected.ok) {
        refuse(client, connected.reason ? 403 : 502, connected.reason);
        return;
      }
      const { socket, connection } = connected;
      connection.track(client);
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) socket.write(head);
      socket.on("data", count);
      client.on("data", count);
      socket.pipe(client);
      client.pipe(socket);
      socket.on("close", () => connection.close());
      client.on("close", () => connection.close());
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
      return { connections, bytes };
    },
    close() {
      for (const connection of open) connection.close();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
