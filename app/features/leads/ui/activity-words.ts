// The composer's words and limits (issue 35), shared by the lead page, the API's validation and the
// timeline: what a logged call's outcome and a logged e-mail's direction may be, and their labels.

export const ACTIVITY_KINDS = ["note", "call", "email", "task"] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ACTIVITY_KIND_LABELS: Readonly<Record<ActivityKind, string>> = {
  note: "Note",
  call: "Call",
  email: "Email",
  task: "Task",
};

/** A call's outcome, as Pipedrive and HubSpot log them. */
export const CALL_OUTCOMES = ["connected", "left_voicemail", "no_answer", "busy", "wrong_number"] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export const CALL_OUTCOME_LABELS: Readonly<Record<CallOutcome, string>> = {
  connected: "Connected",
  left_voicemail: "Left voicemail",
  no_answer: "No answer",
  busy: "Busy",
  wrong_number: "Wrong number",
};

export const EMAIL_DIRECTIONS = ["sent", "received"] as const;
export type EmailDirection = (typeof EMAIL_DIRECTIONS)[number];

export const EMAIL_DIRECTION_LABELS: Readonly<Record<EmailDirection, string>> = {
  sent: "Sent to the lead",
  received: "Received from the lead",
};

/** A task is a line (what to do), like the next step it grew out of. */
export const TASK_MAX = 200;
/** A call longer than ten hours is a typo. */
export const CALL_MINUTES_MAX = 600;

export function callOutcomeLabel(outcome: string | null): string {
  return (CALL_OUTCOMES as readonly string[]).includes(outcome ?? "")
    ? CALL_OUTCOME_LABELS[outcome as CallOutcome]
    : "Call";
}

/** The lead page's query parameter that opens the composer on a kind (`?composer=call`, no JavaScript). */
export const COMPOSER_PARAM = "composer";
