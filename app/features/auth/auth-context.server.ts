import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Env } from "#app/env.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { AuthService } from "./auth-service.server.ts";

/** What the staff accounts, sessions, two-factor and access-log handlers need (issue 23). */
export type AuthServices = {
  auth: AuthService;
  database: AppDatabase;
  /** PUBLIC_URL: the set-password links; ACCESS_LOG_DAYS: what the access log page says it keeps. */
  env: Pick<Env, "PUBLIC_URL" | "ACCESS_LOG_DAYS">;
};

export const authServicesKey = createServiceKey<AuthServices>("auth services");

export const authServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, authServicesKey);
