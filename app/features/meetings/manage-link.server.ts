import { signToken, verifyToken } from "#app/lib/signed-token.server.ts";

// The links a booking hands out (ADR 039): the manage link (reschedule or cancel without signing in,
// while the meeting is booked and has not ended: the row decides, so one link lasts through
// reschedules) and a lead's booking token (24 hours after its request).

const MANAGE_PURPOSE = "meeting-manage:v1";
const LEAD_PURPOSE = "meeting-lead:v1";
/** How long after a lead's request its token books without asking the contact fields again. */
export const LEAD_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export const manageToken = (secret: string, meetingId: number) =>
  signToken(secret, MANAGE_PURPOSE, meetingId);

export const manageUrl = (origin: string, secret: string, meetingId: number) =>
  `${origin.replace(/\/+$/, "")}/meetings/manage/${manageToken(secret, meetingId)}`;

/** The meeting a manage token names, or null for a malformed or forged one. */
export function manageTokenMeeting(secret: string, token: string): number | null {
  const check = verifyToken(secret, MANAGE_PURPOSE, token);
  return check.ok ? check.id : null;
}

/** The token a lead's request is answered with, so the visitor books without typing it all again. */
export const leadBookingToken = (secret: string, leadId: number, now = Date.now()) =>
  signToken(secret, LEAD_PURPOSE, leadId, now + LEAD_TOKEN_TTL_MS);

/** The lead a booking token names while it is valid, else null. */
export function leadTokenLead(secret: string, token: string, now = Date.now()): number | null {
  const check = verifyToken(secret, LEAD_PURPOSE, token, now);
  return check.ok ? check.id : null;
}
