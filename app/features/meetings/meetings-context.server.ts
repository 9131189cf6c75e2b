import type { Transaction } from "kysely";
import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import type { RateLimitDecision } from "#app/lib/rate-limit.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { CalendarService } from "./caldav/calendar-service.server.ts";
import type { BusyTimes, MeetingChange } from "./meeting-store.server.ts";

/** What the booking pages and the meetings API need (issue 34). */
export type MeetingServices = {
  database: AppDatabase;
  /** The public slot queries' limit per client address, in the database like the forms' (all instances share it). */
  slotQueries: { hit(key: string): Promise<RateLimitDecision> };
  /** Busy times from the hosts' calendars, from the cache (read again within seconds when a few minutes old). */
  busyTimes: BusyTimes;
  /** The same, read again from the calendars (within seconds) before a booking or a move is confirmed. */
  busyTimesBeforeBooking?: BusyTimes;
  /** The hosts' CalDAV calendars: connect, disconnect and status for staff pages (caldav/). */
  calendars?: Pick<CalendarService, "connect" | "disconnect" | "status" | "refresh">;
  now(): number;
  /** Signs manage links and lead tokens (APP_SECRET or the one kept in the database). */
  secret: string;
  /** Where links in answers and e-mails point (PUBLIC_URL); the request's own origin when unset. */
  publicUrl: string | undefined;
  /** The leads a booking belongs to (owned by the leads feature, wired by the composition root). */
  leads: MeetingLeads;
  /**
   * In the transaction of a booking, a reschedule or a cancellation: queues its e-mails (and what
   * else follows a meeting). `origin` is the site's address for the links in them.
   */
  onMeetingChange(trx: Transaction<Database>, change: MeetingChange & { origin: string }): Promise<unknown>;
  /** After such a transaction committed: wakes this instance's outbox worker. Never blocks. */
  meetingChanged(): void;
};

/** The contact a booking carries, stored as the forms store a request. */
export type BookingContact = {
  requestType: "demo" | "investor";
  fullName: string;
  email: string;
  company: string;
  phone: string;
};

export type MeetingLead = {
  id: number;
  ownerId: number | null;
  fullName: string;
  email: string;
  company: string;
  phone: string | null;
  /** Held for review as spam: a booking with its token is answered as held and books nothing. */
  spam: boolean;
};

export type MeetingLeads = {
  /**
   * Stores the contact as a lead with the forms' rules (validation, rate limit, time trap): "held"
   * when it was kept for review as spam.
   */
  submit(
    contact: BookingContact,
    request: { headers: { get(name: string): string | null }; host: string; protocol: string },
    clientAddress: string,
  ): Promise<
    | { kind: "stored"; leadId: number }
    | { kind: "held" }
    | { kind: "invalid"; errors: Record<string, string> }
    | { kind: "rate-limited"; retryAfterSeconds: number }
  >;
  find(leadId: number): Promise<MeetingLead | null>;
  /** The person's most recent lead (by e-mail, trimmed and case-folded), not anonymised; null if none. */
  latestOf(email: string): Promise<MeetingLead | null>;
  /** The owner of the person's most recent lead that has one: who an "owner first" type goes to. */
  ownerOf(email: string): Promise<number | null>;
};

export const meetingServicesKey = createServiceKey<MeetingServices>("meeting services");

export const meetingServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, meetingServicesKey);
