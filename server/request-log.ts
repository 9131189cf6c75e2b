import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";

// One JSON line per request for pages and the API (issue 13): method, route pattern, status,
// duration and request id. Never a body, a query string, a cookie or a client address: what a
// visitor typed or who they are stays out of the logs. Hashed assets are not logged.

export type LogFormat = "json" | "pretty";

export type RequestLog = {
  logger: Logger;
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
    return { logger, flush: () => {} };
  }
  // Lines are gathered into writes of 32 KB or more (one system call for some 250 requests under
  // load, where one per line cost 15-45 µs a request and one per 4 KB still 2-3 µs, docs/performance.md)
  // and written at least every LOG_FLUSH_MS, so on a quiet server a line is never later than that.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 32 * 1024, maxWrite: 64 * 1024 });
  const logger = pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
  setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  return { logger, flush: () => destination.flushSync() };
}

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
