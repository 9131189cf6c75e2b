import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import {
  createRequestHandler as createAppHandler,
  type RouterContext,
  RouterContextProvider,
  type ServerBuild,
} from "react-router";
import type { Env } from "../app/env.server.ts";
import { MEDIA_PATH_PREFIX } from "../app/features/content/media/media-urls.ts";
import { issueTimeToken, needsTimeToken, timeTokenCookie } from "../app/features/leads/time-token.server.ts";
import { bodyLimitFor, LEAD_BODY_LIMIT } from "../app/lib/body-limits.ts";
import type { Services as AppServices } from "../composition/services.server.ts";
import { PRIVATE_NO_STORE } from "./cache-control.ts";
import { clientAddress } from "./client-address.ts";
import { answerMetrics, describeMetricsAccess, METRICS_PATH, metricsAccess } from "./metrics-endpoint.ts";
import { createPageCssCutter } from "./page-css-worker.ts";
import { createPublishedPages } from "./published-pages.ts";
import {
  declaresTooLargeBody,
  originFormTarget,
  refuseRequest,
  trailingSlashTarget,
} from "./request-guard.ts";
import { type RequestLog, requestIdOf } from "./request-log.ts";
import { matchRoutePattern, routePatterns } from "./route-patterns.ts";
import { baseSecurityHeaders, contentSecurityPolicy } from "./security-headers.ts";
import { StaticFiles } from "./static-files.ts";

const API_CSP = "default-src 'none'; frame-ancestors 'none'";
/**
 * An image opened on its own runs nothing and embeds nothing; `sandbox` also gives it an opaque
 * origin, should a browser ever render its bytes as a document.
 */
const MEDIA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
/** The process is alive (it answers). */
export const HEALTH_PATH = "/healthz";
/** The instance can serve: its database answers within a second and is migrated (503 otherwise). */
export const READY_PATH = "/readyz";

function answerHealth(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  headers: Record<string, string>,
  services: AppServices,
): void {
  const send = (status: number, text: string) => {
    res.writeHead(status, {
      ...headers,
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": PRIVATE_NO_STORE,
    });
    res.end(req.method === "HEAD" ? undefined : `${text}\n`);
  };
  if (path === HEALTH_PATH) {
    send(200, "ok");
    return;
  }
  void services.readiness().then(
    (readiness) =>
      send(readiness.ready ? 200 : 503, readiness.ready ? "ready" : `not ready: ${readiness.reason}`),
    () => send(503, "not ready"),
  );
}

export type AppOptions = {
  env: Env;
  build: ServerBuild;
  buildDir: string;
  services: AppServices;
  /** Where the one line per request goes; none in tests that do not look at it. */
  requestLog?: RequestLog;
};

type LeadApiAnswer = { status: number; body: unknown; headers?: Record<string, string> };
type BuildContexts = {
  cspNonceContext: RouterContext<string>;
  clientAddressContext: RouterContext<string>;
  provideServices(context: RouterContextProvider, provided: AppServices["provided"]): void;
  answerLeadApi(
    head: { headers: { get(name: string): string | null }; host: string; protocol: string },
    readBody: (limit: number) => Promise<Uint8Array | null>,
    context: RouterContextProvider,
  ): Promise<LeadApiAnswer>;
  leadApiFailure(error: unknown): LeadApiAnswer;
};

/** How long one signed time-trap token is given to every page sent (see createAppServer). */
const TIME_TOKEN_REUSE_MS = 100;

/** The lead API's path: answered by server.ts itself, without Express and React Router. */
const LEAD_API_PATH = "/api/demo-request";

/** The request's headers as the lead API reads them (a web Headers' `get`, without building one). */
function headerReader(req: IncomingMessage): { get(name: string): string | null } {
  return {
    get(name) {
      const value = req.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** The host the client addressed, as @react-router/express builds the request's URL from it. */
function requestHost(req: IncomingMessage, trustProxy: number): string {
  const forwarded = trustProxy > 0 ? req.headers["x-forwarded-host"] : undefined;
  const raw = (typeof forwarded === "string" && forwarded.split(",")[0]?.trim()) || req.headers.host || "";
  return raw.split(/[\\/?#@]/)[0] || "localhost";
}

/** How long a connection whose body was refused unread keeps reading (and dropping) what still comes. */
const UNREAD_BODY_LINGER_MS = 3_000;
/** …and how much of it, at most. */
const UNREAD_BODY_LINGER_BYTES = 16 * 1024 * 1024;

/** A body of a declared length within the path's limit: one that may be read to its end. */
function bodyWithinLimit(req: IncomingMessage, path: string): boolean {
  return (
    req.headers["content-length"] !== undefined && Number(req.headers["content-length"]) <= bodyLimitFor(path)
  );
}

/**
 * Ends a connection whose request body was refused unread (a 413, or a 401 before the body), once
 * the answer is out. Closing at once would reset the connection while the client is still sending,
 * and the client could lose the answer; keeping it open leaves the client blocked. So: send our
 * end (FIN), keep reading and dropping what the client still sends for a moment, then close.
 */
const lingering = new WeakSet<object>();
function closeAfterUnreadBody(req: IncomingMessage): void {
  const socket = req.socket;
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  let dropped = 0;
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > UNREAD_BODY_LINGER_BYTES) socket.destroy();
  });
  req.resume();
  socket.end();
  const timer = setTimeout(() => socket.destroy(), UNREAD_BODY_LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/**
 * The body, read no further than `limit` bytes: null when it is larger (declared or sent). As the
 * Request path does, a body over the limit is not drained: the 413 goes out and Node discards the rest.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onClose = () => {
      done();
      reject(new Error("The client closed the connection before the body's end"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/** True when the request reached us over TLS, directly or through a trusted proxy. */
function isHttps(req: IncomingMessage, trustProxy: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (trustProxy > 0) {
    const proto = req.headers["x-forwarded-proto"];
    const first = (Array.isArray(proto) ? proto[0] : proto)?.split(",")[0]?.trim();
    return first === "https";
  }
  return false;
}

/**
 * The production HTTP server: prerendered pages and hashed assets straight from memory (the fast
 * path), everything else through Express and the React Router handler with on-the-fly compression.
 */
export function createAppServer({ env, build, buildDir, services, requestLog }: AppOptions): Server {
  const { cspNonceContext, provideServices, clientAddressContext, answerLeadApi, leadApiFailure } = build
    .entry.module as unknown as BuildContexts;
  const sendHstsAlways = env.HSTS === "always";
  const headersPlain = baseSecurityHeaders(sendHstsAlways);
  const headersHttps = baseSecurityHeaders(env.HSTS !== "off");
  // Two in-memory views of the same files: with HSTS/upgrade-insecure-requests over HTTPS, without over HTTP.
  // Pages carry the signed "first seen" cookie the lead forms' time trap checks (only when missing or old).
  // One token serves every page sent within TIME_TOKEN_REUSE_MS (an HMAC per page was a tenth of a
  // page's CPU): it says "first seen" at most that much early, nothing next to the trap's seconds.
  const pageCookie = (secure: boolean) => {
    let issuedAt = Number.NEGATIVE_INFINITY;
    let cookie = "";
    return (req: IncomingMessage) => {
      if (!needsTimeToken(req.headers.cookie)) return undefined;
      const now = Date.now();
      if (now - issuedAt >= TIME_TOKEN_REUSE_MS || now < issuedAt) {
        issuedAt = now;
        cookie = timeTokenCookie(issueTimeToken(services.secret, now), secure);
      }
      return cookie;
    };
  };
  const staticHttp = new StaticFiles(buildDir, headersPlain, false, pageCookie(false));
  const staticHttps = new StaticFiles(buildDir, headersHttps, true, pageCookie(true));
  // The content studio's pages (issue 24): rendered once per change of the published posts, then
  // served from memory like the files above.
  const renderApp = createAppHandler(build, env.NODE_ENV);
  const cssCutter = createPageCssCutter(join(buildDir, "client"));
  const publishedPages = createPublishedPages({
    render(path) {
      const context = new RouterContextProvider();
      context.set(cspNonceContext, "");
      provideServices(context, services.provided);
      context.set(clientAddressContext, "127.0.0.1");
      return renderApp(new Request(new URL(path, "http://published.invalid")), context);
    },
    generation: services.publishedSite.generation,
    onChange: (listener) =>
      void services.publishedSite.onChange((generation) => {
        // The first change after start-up loads the stylesheet worker before the first page needs it
        // (a server whose posts never change never starts it).
        if (generation > 1) cssCutter.warm();
        listener();
      }),
    cutCss: (html, path) => cssCutter.cut(html, path),
    baseHeaders: { plain: headersPlain, https: headersHttps },
    pageCookie: { plain: pageCookie(false), https: pageCookie(true) },
    logger: { error: (message) => console.error(message) },
  });
  const configuredUrl = env.PUBLIC_URL?.replace(/\/+$/, "");
  if (configuredUrl && configuredUrl !== staticHttp.publicUrl) {
    console.warn(
      `PUBLIC_URL is ${configuredUrl} but the pages were built for ${staticHttp.publicUrl}: run \`npm run build\` with it set, so canonical URLs and feeds point at the right site.`,
    );
  }

  const metricsAccessRule = metricsAccess(env);
  // A start-up hint: stderr, like the others (stdout is the JSON log alone).
  if (env.LOG_LEVEL !== "silent") console.error(describeMetricsAccess(metricsAccessRule));
  const patterns = routePatterns(build.routes);
  const { metrics, statusClass } = services.metricsInstruments;
  // A path's route pattern and a label set's histogram child, looked up once: the same few pages
  // and labels come back on every request (bounded: a scanner's invented paths only refill it).
  const routeLabels = new Map<string, string>();
  const routeOf = (path: string) => {
    let route = routeLabels.get(path);
    if (route === undefined) {
      route = matchRoutePattern(patterns, path);
      if (routeLabels.size >= 2_000) routeLabels.clear();
      routeLabels.set(path, route);
    }
    return route;
  };
  type Timer = { observe(seconds: number): void };
  const timers = new Map<string, Timer>();
  const requestTimer = (route: string, method: string, status: string): Timer => {
    const key = `${route} ${method} ${status}`;
    let timer = timers.get(key);
    if (timer === undefined) {
      timer = metrics.requests.labels({ route, method, status });
      if (timers.size >= 2_000) timers.clear();
      timers.set(key, timer);
    }
    return timer;
  };

  // The lead API's answers carry what the middleware below sets on every API answer.
  const apiHeaders = (https: boolean) => ({
    ...(https ? headersHttps : headersPlain),
    "Content-Security-Policy": API_CSP,
    "Cache-Control": PRIVATE_NO_STORE,
  });
  const apiHeadersPlain = apiHeaders(false);
  const apiHeadersHttps = apiHeaders(true);
  /**
   * POST /api/demo-request without Express and React Router: the same handler (lead-http.server.ts)
   * given the headers and a body reader, its answer written directly. Express's middleware and
   * React Router's request (route matching over every route, a web Request with its body stream, a
   * Response with its own) cost more CPU than storing the lead (docs/performance.md, issue 22).
   */
  const answerLeads = (req: IncomingMessage, res: ServerResponse, https: boolean) => {
    const context = new RouterContextProvider();
    context.set(cspNonceContext, "");
    provideServices(context, services.provided);
    context.set(clientAddressContext, clientAddress(req, env.TRUST_PROXY));
    const head = {
      headers: headerReader(req),
      host: requestHost(req, env.TRUST_PROXY),
      protocol: https ? "https:" : "http:",
    };
    const answered = answerLeadApi(head, (limit) => readBody(req, limit), context)
      .catch((error: unknown) => (req.destroyed ? null : leadApiFailure(error)))
      .then((answer) => {
        if (!answer || res.headersSent) return undefined;
        // The client left while the lead was being stored: its line still says how that ended.
        if (res.destroyed) return answer.status;
        const text = JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          ...(https ? apiHeadersHttps : apiHeadersPlain),
          ...answer.headers,
          "Content-Type": "application/json; charset=utf-8",
          "Content-Length": Buffer.byteLength(text),
        });
        res.end(text);
        return answer.status;
      });
    workOf.set(res, answered);
  };

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  // Mutations of the JSON API answer with a few bytes of JSON: skipping the compression middleware
  // there saves a measurable share of a lead submission's CPU (npm run bench).
  const compress = compression();
  app.use((req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD" && req.path.startsWith("/api/")) return next();
    // The CSV export compresses its own stream (see lead-admin-http.server.ts): the middleware
    // wrapped around React Router's streamed body leaks 'drain' listeners (expressjs/compression#135).
    if (req.path === "/api/admin/leads/export") return next();
    compress(req, res, next);
  });
  app.use((req, res, next) => {
    const https = isHttps(req, env.TRUST_PROXY);
    res.set(https ? headersHttps : headersPlain);
    // JSON answers run no scripts: they get the strictest policy and need no nonce.
    if (req.path.startsWith("/api/")) {
      res.set("Content-Security-Policy", API_CSP);
    } else if (req.path.startsWith(MEDIA_PATH_PREFIX)) {
      // The image variants (issue 24) set their own Cache-Control (a year, immutable; no-store on a
      // 404): React Router appends a route's headers to those set here, so none is set first.
      res.set("Content-Security-Policy", MEDIA_CSP);
      next();
      return;
    } else {
      const nonce = randomBytes(18).toString("base64");
      res.locals.cspNonce = nonce;
      res.set("Content-Security-Policy", contentSecurityPolicy({ nonce }, https));
    }
    res.set("Cache-Control", PRIVATE_NO_STORE);
    next();
  });
  // A missing hashed asset is a plain 404, not a rendered page.
  app.use("/assets", (_req, res) => {
    res.status(404).type("text/plain").send("Not found");
  });
  const reactRouter = createRequestHandler({
    build,
    mode: env.NODE_ENV,
    getLoadContext(req, res) {
      const context = new RouterContextProvider();
      context.set(cspNonceContext, String(res.locals.cspNonce ?? ""));
      provideServices(context, services.provided);
      // req.ip honours TRUST_PROXY (X-Forwarded-For from that many proxies), else the socket address.
      context.set(clientAddressContext, req.ip ?? req.socket.remoteAddress ?? "unknown");
      return context;
    },
  });
  app.use((req, res, next) => {
    // Settles once the route's loader or action is done and its answer handed over (or refused):
    // a request whose client left before that is logged then, not when the connection closed.
    const answered = Promise.resolve(reactRouter(req, res, next)).then(() =>
      res.headersSent ? res.statusCode : undefined,
    );
    workOf.set(res, answered);
  });
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    console.error("Unhandled request error", error);
    if (!res.headersSent) res.status(500).type("text/plain").send("Internal Server Error");
  });

  // The API answers in its JSON shape `{ message }`; everything else in plain text.
  const refuse = (
    res: ServerResponse,
    https: boolean,
    status: number,
    message: string,
    extra = {},
    json = false,
  ) => {
    res.writeHead(status, {
      ...(https ? headersHttps : headersPlain),
      "Content-Type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
      "Cache-Control": PRIVATE_NO_STORE,
      ...extra,
    });
    res.end(json ? JSON.stringify({ message }) : `${message}\n`);
  };

  /**
   * The work under way for a request whose answer is not out yet (the lead API's, a page action's or
   * an API call's): it resolves to the answer's status, or undefined when none was decided.
   */
  const workOf = new WeakMap<ServerResponse, Promise<number | undefined>>();

  const pageViews = services.pageViews;
  /** Reports a public page served to this request (the static fast path or a rendered page). */
  const countPage = (req: IncomingMessage, https: boolean, notFound: boolean) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", `${https ? "https" : "http"}://${req.headers.host}`);
    } catch {
      return;
    }
    pageViews.count(req, url, { notFound, clientAddress: clientAddress(req, env.TRUST_PROXY) });
  };

  /** Times and logs one answered request: what a visitor or a client waited for, by route and status. */
  const recordRequest = (
    path: string,
    method: string,
    status: number,
    requestId: string,
    started: number,
    clientClosed = false,
  ) => {
    const seconds = (performance.now() - started) / 1000;
    const asset = path.startsWith("/assets/");
    const route = asset ? "/assets/*" : routeOf(path);
    requestTimer(route, method, statusClass(status)).observe(seconds);
    // Pages and the API; hashed assets would only drown them. No query, body or address.
    if (!asset) {
      const ms = Math.round(seconds * 10_000) / 10;
      requestLog?.request(
        clientClosed
          ? { reqId: requestId, method, route, status, ms, clientClosed }
          : { reqId: requestId, method, route, status, ms },
      );
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdOf(req, env.TRUST_PROXY > 0);
    const https = isHttps(req, env.TRUST_PROXY);
    // Only a path is a target here: `*` and malformed targets are refused, and an absolute-form
    // target (`GET http://host/x`) is reduced to its path, so nothing below ever sees another site.
    const target = originFormTarget(req.url);
    if (target === null) {
      res.setHeader("X-Request-Id", requestId);
      return refuse(res, https, 400, "Bad request: the request target must be a path.");
    }
    req.url = target;
    const path = target.split("?")[0] ?? "/";
    const refusal = refuseRequest(req, path);
    // The static fast path sends the id with its prepared headers (StaticFiles.serve); every other
    // answer carries it from here.
    const method = req.method ?? "";
    const staticCandidate = refusal === null && (method === "GET" || method === "HEAD");
    if (!staticCandidate) res.setHeader("X-Request-Id", requestId);
    if (refusal) {
      // A refused body is never buffered: once the answer is out, Node discards the rest of one
      // within its limit, so a client still sending reads the answer instead of a connection reset;
      // one over it (or of no declared length) is not read to its end (closeAfterUnreadBody).
      if (!bodyWithinLimit(req, path))
        res.once("finish", () => {
          if (!req.complete) closeAfterUnreadBody(req);
        });
      return refuse(res, https, refusal.status, refusal.message, refusal.headers, path.startsWith("/api/"));
    }
    // For load balancers and orchestrators (issue 13): answered here, before anything that logs,
    // compresses or renders. GET and HEAD only: the guard above refused other methods' bodies.
    if ((path === HEALTH_PATH || path === READY_PATH) && (req.method === "GET" || req.method === "HEAD")) {
      res.setHeader("X-Request-Id", requestId);
      answerHealth(req, res, path, https ? headersHttps : headersPlain, services);
      return;
    }
    if (path === METRICS_PATH && (req.method === "GET" || req.method === "HEAD")) {
      res.setHeader("X-Request-Id", requestId);
      answerMetrics(
        req,
        res,
        metricsAccessRule,
        services.metricsRegistry,
        https ? headersHttps : headersPlain,
      );
      return;
    }
    // Timed from here: what a visitor or a client waits for, by route pattern and status class.
    const started = performance.now();
    // Every request that reached a route is logged once: when its answer is out or, when the client
    // closed the connection first (issue 32), once the work it asked for is done (a post it created
    // is committed by then), with its answer's status where known (the lead API's), else 499: React
    // Router's adapter drops an answer whose connection is gone without saying what it was.
    const recordOnFinish = () => {
      let recorded = false;
      res.once("finish", () => {
        if (recorded) return;
        recorded = true;
        recordRequest(path, method, res.statusCode, requestId, started);
      });
      res.once("close", () => {
        if (recorded || res.writableFinished) return;
        void (workOf.get(res) ?? Promise.resolve(undefined))
          .catch(() => undefined)
          .then((status) => {
            if (recorded) return;
            recorded = true;
            recordRequest(path, method, status ?? 499, requestId, started, true);
          });
      });
    };
    if (!staticCandidate) recordOnFinish();
    // Only a body declared within the limit takes the fast path, so it is always read to its end.
    // One declared larger was answered 413 unread: a keep-alive client (Node's default agent) then
    // sent its next request on that connection, where Node read it as the rest of the old body and
    // answered a bare 400 (lead-api e2e). The Express path keeps those connections right.
    // A body sent without a length (chunked) keeps the Express path: its over-the-limit answer then
    // races the client's writes exactly as before (tests/e2e/lead-api.test.ts), which the fast
    // path's reader did not match every time. Browsers and integrations send a length.
    if (
      req.method === "POST" &&
      path === LEAD_API_PATH &&
      req.headers["content-length"] !== undefined &&
      Number(req.headers["content-length"]) <= LEAD_BODY_LIMIT &&
      req.headers["transfer-encoding"] === undefined
    ) {
      answerLeads(req, res, https);
      return;
    }
    // Cookieless analytics (ADR 014): a GET of a page from a browser that did not opt out, counted
    // once the answer shows it was a public page (HTML: prerendered, rendered or a 404).
    const countable = pageViews.enabled && pageViews.shouldCount(req);
    if (staticCandidate) {
      const onPage = countable ? () => countPage(req, https, false) : undefined;
      // A static file is written whole by serve(): timed and logged as soon as it returns, without
      // a 'finish' listener per request.
      if ((https ? staticHttps : staticHttp).serve(req, res, ["X-Request-Id", requestId], onPage)) {
        recordRequest(path, method, res.statusCode, requestId, started);
        return;
      }
      if (publishedPages.handles(method, path)) {
        const served = () => {
          if (!publishedPages.serve(req, res, path, https, ["X-Request-Id", requestId], onPage)) return false;
          recordRequest(path, method, res.statusCode, requestId, started);
          return true;
        };
        if (served()) return;
        // The first request since the published posts changed: rendered once for everyone waiting,
        // then sent from memory; a page the app answers otherwise (a 301, a 410) goes to it below.
        void publishedPages.prepare(path).then((kept) => {
          if (res.destroyed || res.headersSent || (kept && served())) return;
          res.setHeader("X-Request-Id", requestId);
          recordOnFinish();
          answerWithApp(req, res, https, countable);
        });
        return;
      }
      res.setHeader("X-Request-Id", requestId);
      recordOnFinish();
    }
    // No cross-origin access is offered: a preflight (an audit's CORS probe, say) gets the methods
    // and no Access-Control-* headers, instead of reaching React Router, which refuses OPTIONS.
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...(https ? headersHttps : headersPlain), Allow: "GET, HEAD, POST" });
      res.end();
      return;
    }
    // `/problem/` and `/problem` are one page: keep a single canonical URL, always on this site.
    if (path.length > 1 && path.endsWith("/") && (req.method === "GET" || req.method === "HEAD")) {
      const location = trailingSlashTarget(path);
      if (location === null) return refuse(res, https, 404, "Not found");
      res.writeHead(308, {
        ...(https ? headersHttps : headersPlain),
        Location: location + target.slice(path.length),
      });
      res.end();
      return;
    }
    answerWithApp(req, res, https, countable);
  };

  /** Express and React Router answer; a public page they render is counted once it is sent. */
  const answerWithApp = (req: IncomingMessage, res: ServerResponse, https: boolean, countable: boolean) => {
    if (countable) {
      res.once("finish", () => {
        const status = res.statusCode;
        if (status !== 200 && status !== 304 && status !== 404) return;
        const type = res.getHeader("content-type");
        if (typeof type === "string" && type.startsWith("text/html")) countPage(req, https, status === 404);
      });
    }
    // NOTE: React Router's adapter starts reading a body as soon as it wraps the request, and stops
    // when nobody takes it (a page that sends a signed-out caller to sign in, an API call refused
    // 401): the rest of the body then stays in the connection, and a keep-alive connection (nginx's
    // to this server) hangs on the next request it carries. Once the answer is out, a body declared
    // within the route's limit is read to its end and dropped. One declared larger (answered 413
    // unread by the route's reader) and one without a length keep their handling
    // (app/lib/http.server.ts): nothing over a limit is ever read.
    // A body over the limit (declared, or sent without a length) was left unread: the connection
    // still expects its rest, so a client that keeps sending blocks once the buffers fill, and one
    // that reuses the connection gets no answer. It is closed gently once the answer is out.
    const withinLimit = bodyWithinLimit(req, (req.url ?? "/").split("?")[0] ?? "/");
    if (!withinLimit) {
      // An answer that leaves the body unread says the connection closes (`Connection: close`, RFC
      // 9112 9.6): a keep-alive client (Node's default agent) otherwise put the closing connection
      // back in its pool and sent its next request into it (EPIPE in lead-api e2e under load). Node
      // ends such a connection with socket.destroySoon(), at once, which resets it while the client
      // may still be sending and can cost it the answer: it is closed gently instead.
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
        if (!req.complete) {
          this.shouldKeepAlive = false;
          (req.socket as Socket & { destroySoon: () => void }).destroySoon = () => closeAfterUnreadBody(req);
        }
        return writeHead.apply(this, args);
      } as typeof res.writeHead;
    }
    res.once("finish", () => {
      if (req.complete) return;
      if (!withinLimit) return closeAfterUnreadBody(req);
      req.removeAllListeners("data");
      req.resume();
    });
    app(req, res);
  };

  const server = createServer(handle);
  // A client may send its request and then half-close its side (`shutdown(SHUT_WR)`: curl's and
  // scripts' "end of input"). Node's default answers that FIN with its own and aborts the request:
  // the handler still ran (a post was created) but its answer, and so its log line, never went out.
  // Half-open, the answer is written and the connection is closed after it (issue 32).
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // `Expect: 100-continue`: answer a refused request (a body over its limit) before the client sends it.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    const target = originFormTarget(req.url);
    const path = target?.split("?")[0] ?? "/";
    if (target !== null && refuseRequest(req, path) === null && !declaresTooLargeBody(req, path))
      res.writeContinue();
    handle(req, res);
  });
  return server;
}
