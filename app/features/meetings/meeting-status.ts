// A meeting's statuses (migration 033) and the outcomes staff record (issue 34), shared by the
// server and the Meetings page.

export const MEETING_STATUSES = ["booked", "cancelled", "held", "no_show"] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];
export const MEETING_OUTCOMES = ["held", "no_show"] as const;
export type MeetingOutcome = (typeof MEETING_OUTCOMES)[number];

export const MEETING_STATUS_LABELS: Record<MeetingStatus, string> = {
  booked: "Booked",
  cancelled: "Cancelled",
  held: "Held",
  no_show: "No-show",
};
