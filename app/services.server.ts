import { createContext, type RouterContextProvider } from "react-router";
import { loadAppSecret } from "./db/app-secret.server.ts";
import { type AppDatabase, openDatabase } from "./db/database.server.ts";
import { migrateToLatest } from "./db/migrate.server.ts";
import { type Env, parseEnv } from "./env.server.ts";
import { createLeadService, type LeadService } from "./features/leads/lead-service.server.ts";
import { createRateLimiter, type RateLimiter } from "./features/leads/rate-limit.server.ts";

/** Everything a request handler needs that lives longer than a request. */
export type AppServices = {
  env: Env;
  database: AppDatabase;
  secret: string;
  leads: LeadService;
  rateLimiter: RateLimiter;
};

/**
 * Opens the database, applies pending migrations (a failure throws a MigrationError and start-up
 * stops) and wires the services. server.ts calls this once per process.
 */
export async function createServices(env: Env): Promise<AppServices> {
  const database = openDatabase(env.DATABASE_URL, {
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
    poolSize: env.DATABASE_POOL_SIZE,
  });
  try {
    await migrateToLatest(database.db);
    const secret = await loadAppSecret(database.db, env.APP_SECRET);
    const rateLimiter = createRateLimiter(database.db, {
      limit: env.LEAD_RATE_LIMIT,
      windowMs: env.LEAD_RATE_WINDOW_SECONDS * 1000,
    });
    const leads = createLeadService({
      db: database.db,
      secret,
      rateLimiter,
      notify: Boolean(env.SMTP_URL),
      minFillMs: env.LEAD_MIN_FILL_SECONDS * 1000,
    });
    return { env, database, secret, leads, rateLimiter };
  } catch (error) {
    await database.close();
    throw error;
  }
}

// NOTE: server.ts reads these keys from the build (build.entry.module re-exports them) so that it
// sets the very objects the bundled routes read.
export const servicesContext = createContext<AppServices | null>(null);
/** The client's address as the server sees it (after TRUST_PROXY), for rate limiting. */
export const clientAddressContext = createContext<string>("unknown");

let devServices: Promise<AppServices> | undefined;

/**
 * The services for this request. Under `react-router dev` there is no server.ts to provide them,
 * so they are created once from the environment.
 */
export function getServices(context: Readonly<RouterContextProvider>): Promise<AppServices> {
  const provided = context.get(servicesContext);
  if (provided) return Promise.resolve(provided);
  devServices ??= createServices(parseEnv());
  return devServices;
}
