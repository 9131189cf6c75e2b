import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { RateLimitDecision } from "#app/lib/rate-limit.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { BusyTimes } from "./meeting-store.server.ts";

/** What the booking pages and the meetings API need (issue 34). */
export type MeetingServices = {
  database: AppDatabase;
  /** The public slot queries' limit per client address, in the database like the forms' (all instances share it). */
  slotQueries: { hit(key: string): Promise<RateLimitDecision> };
  /** Busy times from the hosts' calendars, from the cache. */
  busyTimes: BusyTimes;
  now(): number;
};

export const meetingServicesKey = createServiceKey<MeetingServices>("meeting services");

export const meetingServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, meetingServicesKey);
