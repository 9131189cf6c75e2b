/**
 * Which database failures mean "the database cannot serve now" (answered 503, try again) rather than
 * a bug (500). One classifier for every route, so staff pages, the staff API, sign-in and lead
 * submissions all say the same thing when the database is down, locked, full or frozen (ADR 008).
 */

/** A write waited its whole bound for a lock another process holds (SQLite). */
export class DatabaseBusyError extends Error {
  override name = "DatabaseBusyError";
  constructor() {
    super("the database is locked by another process (SQLITE_BUSY) past the write wait bound");
  }
}

export const DATABASE_UNAVAILABLE_MESSAGE =
  "The service is temporarily unavailable. Please try again in a moment.";

/** Seconds a client is asked to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// SQLite primary result codes that are about the database's state, not the query.
const SQLITE_UNAVAILABLE = new Set([
  5, // BUSY
  6, // LOCKED
  8, // READONLY
  10, // IOERR
  11, // CORRUPT
  13, // FULL
  14, // CANTOPEN
  26, // NOTADB
]);

// Node socket errors when PostgreSQL cannot be reached.
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

const PG_CONNECT_REFUSALS = new Set(["55000", "3D000", "28000", "28P01"]);

// pg's own messages for a dead, closed or timed-out connection.
const PG_CLIENT_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /connection timeout/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /client was closed/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof DatabaseBusyError) return true;
    const candidate = current as { code?: unknown; errcode?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.errcode === "number" && SQLITE_UNAVAILABLE.has(candidate.errcode & 0xff))
      return true;
    if (typeof candidate.code === "string") {
      if (NETWORK_CODES.has(candidate.code)) return true;
      // SQLSTATE classes 08 (connection), 53 (resources), 57 (operator intervention, e.g. shutdown,
      // statement_timeout's 57014), 58 (system error, e.g. I/O).
      if (/^(08|53|57|58)[0-9A-Z]{3}$/.test(candidate.code)) return true;
      // Refused at connection time: the database does not accept connections now (55000, ALTER
      // DATABASE … ALLOW_CONNECTIONS false), is gone or renamed (3D000), or refuses our role (28xxx).
      if (PG_CONNECT_REFUSALS.has(candidate.code)) return true;
    }
    if (
      typeof candidate.message === "string" &&
      PG_CLIENT_MESSAGES.some((pattern) => pattern.test(candidate.message as string))
    )
      return true;
    current = candidate.cause;
  }
  return false;
}

/** A short description for the log: the real cause, never a query's parameters. */
export function describeDatabaseError(error: unknown): string {
  const candidate = error as { code?: unknown; errcode?: unknown; errstr?: unknown; message?: unknown };
  const parts = [
    typeof candidate.errstr === "string" ? candidate.errstr : undefined,
    typeof candidate.code === "string" && candidate.code !== "ERR_SQLITE_ERROR" ? candidate.code : undefined,
    typeof candidate.message === "string" ? candidate.message : String(error),
  ].filter(Boolean);
  return [...new Set(parts)].join(": ");
}
