import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { StaffUser } from "#app/lib/staff-guard.server.ts";

// People's data rights (issue 13) read and erase what the leads feature holds. They reach it only
// through this port, which the composition root fills in from features/leads (issue 23): people
// never imports the leads' internals.

/** One lead as the staff API returns it, with its notes, timeline and the person's other submissions. */
export type PersonLeadFields = {
  id: number;
  requestType: string;
  fullName: string;
  company: string | null;
  phone: string | null;
  status: string;
  isSpam: boolean;
  createdAt: string;
  notes: readonly Record<string, unknown>[];
  timeline: readonly ({ kind: string } & Record<string, unknown>)[];
  otherSubmissions: unknown;
};
/** The fields named above are what this feature reads; the rest goes out as the API has it. */
export type PersonLead = PersonLeadFields & Record<string, unknown>;

/**
 * A lead that carried the address before staff replaced it with another (ADR 044): the lead is the
 * new address's person's, so the requester gets only what is theirs: which field held their
 * address, when it was replaced, and the timeline entries naming it (each with that change alone,
 * the other person's value withheld).
 */
export type FormerLead = {
  leadId: number;
  field: string;
  replacedAt: readonly string[];
  timeline: readonly ({ kind: string } & Record<string, unknown>)[];
};

export type PeopleLeads = {
  /** The ids of the leads held on this email (matched on its normalised form), oldest first. */
  leadIdsOf(email: string): Promise<number[]>;
  /** The leads that carried this email before and carry another now, by lead id. */
  formerLeadsOf(email: string): Promise<FormerLead[]>;
  /** When a suppression record says this email was erased before, or null. */
  erasedOn(email: string): Promise<string | null>;
  /** One lead with its notes and timeline; undefined when it went meanwhile. */
  leadRecord(id: number): Promise<PersonLead | undefined>;
  /**
   * Erases every lead of the person and their address from the leads that carried it before, in one
   * transaction, and keeps the suppression record: how many of their leads went, and how many
   * others carried the address.
   */
  erasePerson(request: {
    email: string;
    reason: string;
    actor: Pick<StaffUser, "id" | "username">;
    clientAddress: string | null;
  }): Promise<{ leads: number; formerly: number }>;
};

export type PeopleServices = { database: AppDatabase; leads: PeopleLeads };

export const peopleServicesKey = createServiceKey<PeopleServices>("people services");

export const peopleServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, peopleServicesKey);
