import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { MeetingOutcomeHook } from "./meeting-staff.server.ts";

/** What the Meetings page and /api/admin/meetings need (issue 34, the staff side). */
export type MeetingStaffServices = {
  database: AppDatabase;
  now(): number;
  /** In an outcome's transaction: what follows it outside this feature (the lead's timeline). */
  onMeetingOutcome: MeetingOutcomeHook;
};

export const meetingStaffServicesKey = createServiceKey<MeetingStaffServices>("meeting staff services");

export const meetingStaffServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, meetingStaffServicesKey);
