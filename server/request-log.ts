import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";

// One JSON line per request for pages and the API (issue 13): method, route pattern, status,
// duration and request id. Never a body, a query string, a cookie or a client address: what a
// visitor typed or who they are stays out of the logs. Hashed assets are not logged.

export type LogFormat = "json" | "pretty";

/** What one request's line says (pages and the API; see the top of this file). */
export type RequestLine = {
  reqId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  /**
   * The client closed the connection before the answer was out (issue 32): the work it asked for was
   * still done and is logged, with its answer's status where known (the lead API's), else 499.
   */
  clientClosed?: boolean;
};

export type RequestLog = {
  logger: Logger;
  /** Logs one request's line at level info. */
  request(line: RequestLine): void;
  /** Writes what is buffered (on shutdown: the last lines must not be lost). */
  flush(): void;
};

/**
 * JSON to stdout through an asynchronous buffered stream (a request never waits on the terminal or
 * a log shipper), or, for a person reading it, pino-pretty's readable lines.
 */
export function createRequestLog(level: "silent" | "error" | "info", format: LogFormat): RequestLog {
  if (format === "pretty") {
    const logger = pino(
      { level, base: undefined },
      pretty({ colorize: Boolean(process.stdout.isTTY), ignore: "pid,hostname", sync: true }),
    );
    return { logger, request: (line) => logger.info(line, "request"), flush: () => {} };
  }
  // Lines are gathered into writes of 32 KB or more (one system call for some 250 requests under
  // load, where one per line cost 15-45 µs a request and one per 4 KB still 2-3 µs, docs/performance.md)
  // and written at least every LOG_FLUSH_MS, so on a quiet server a line is never later than that.
  // The batch is gathered here before sonic-boom sees it: its write() measures the byte length of
  // everything it holds on each call, which at 32 KB cost more than the line itself. Its minLength
  // keeps a smaller batch (the timer's) buffered until flush(), so flushSync() on exit writes it.
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BATCH_CHARS,
    maxWrite: 64 * 1024,
  });
  let batch = "";
  const writeBatch = () => {
    if (batch === "") return;
    destination.write(batch);
    batch = "";
  };
  const lines = {
    write(line: string) {
      batch += line;
      if (batch.length >= LOG_BATCH_CHARS) writeBatch();
    },
  };
  const logger = pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, lines);
  setInterval(() => {
    writeBatch();
    destination.flush();
  }, LOG_FLUSH_MS).unref();
  const enabled = logger.isLevelEnabled("info");
  const timestamp = cachedIsoTime();
  return {
    logger,
    // The line pino would write for logger.info(line, "request"), the same keys in the same order,
    // written by hand: pino's generic serialisation of it was a tenth of a static page's CPU
    // (docs/performance.md). Every value is JSON-safe as it comes: the id matches INCOMING_ID or is
    // a UUID, the method is an HTTP token, the route is one of our patterns (quoted by JSON.stringify).
    request(line) {
      if (!enabled) return;
      lines.write(
        `{"level":30,"time":"${timestamp()}","reqId":"${line.reqId}","method":"${line.method}","route":${quoted(line.route)},"status":${line.status},"ms":${line.ms},${line.clientClosed ? '"clientClosed":true,' : ""}"msg":"request"}\n`,
      );
    },
    flush: () => {
      writeBatch();
      destination.flushSync();
    },
  };
}

const quotedRoutes = new Map<string, string>();
/** A route pattern as a JSON string: the same few patterns every time, quoted once each. */
function quoted(route: string): string {
  let text = quotedRoutes.get(route);
  if (text === undefined) {
    text = JSON.stringify(route);
    if (quotedRoutes.size >= 2_000) quotedRoutes.clear();
    quotedRoutes.set(route, text);
  }
  return text;
}

/** The ISO time of now, formatted once per millisecond (many lines share one under load). */
function cachedIsoTime(): () => string {
  let at = Number.NaN;
  let text = "";
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      text = new Date(now).toISOString();
    }
    return text;
  };
}

/** Log lines are written in batches of about this many characters (32 KB of ASCII). */
const LOG_BATCH_CHARS = 32 * 1024;

/** The longest a request's line waits in the buffer before it is written. */
export const LOG_FLUSH_MS = 1000;

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The request's id: behind a trusted proxy, the one the proxy already gave it (X-Request-Id, when it
 * looks like an id), so its logs and ours line up; otherwise a new one.
 */
export function requestIdOf(req: IncomingMessage, behindProxy: boolean): string {
  const incoming = behindProxy ? req.headers["x-request-id"] : undefined;
  return typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}
