import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { RunWatch } from "./watch-run.server.ts";
import type { WatchCheck } from "./watch-types.ts";

/** What the watches need (issue 25): the composition root builds the runner with its checks and alert sink. */
export type WatchServices = {
  database: AppDatabase;
  /** AUDIT_ALLOW_PRIVATE_TARGETS: whether a watch may point at a private address. */
  allowPrivate: boolean;
  /** The checks this server can run (the runner registry's keys). */
  checks: readonly WatchCheck[];
  /** Runs a watch now ("Run now"), on this instance, under the watch's lease and the audits' slots. */
  runWatch: RunWatch;
};

export const watchServicesKey = createServiceKey<WatchServices>("watch services");

export const watchServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, watchServicesKey);
