import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission, type StaffUser } from "#app/lib/staff-guard.server.ts";
import {
  listMeetings,
  MEETING_OUTCOMES,
  MEETING_STATUSES,
  type MeetingListFilter,
  type MeetingOutcome,
  type OutcomeResult,
  recordOutcome,
} from "./meeting-staff.server.ts";
import { meetingStaffServices } from "./meeting-staff-context.server.ts";

// GET /api/admin/meetings and PATCH /api/admin/meetings/:id (issue 34, the staff side), and the
// checks the Meetings page shares with them. Meetings carry the attendee's name, e-mail and company:
// reading them needs leads.read, recording an outcome leads.write (admin and sales).

type Context = Readonly<RouterContextProvider>;

export const DEFAULT_MEETINGS_PAGE_SIZE = 50;
export const MAX_MEETINGS_PAGE_SIZE = 500;

export const MEETING_STAFF_MESSAGES = {
  notFound: "Meeting not found.",
  notStarted: "This meeting has not started yet: record its outcome once it has.",
  cancelled: "This meeting was cancelled, so it has no outcome.",
  outcome: 'outcome must be "held" or "no_show".',
} as const;

const ID = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

const ListQuerySchema = z.object({
  when: z.enum(["upcoming", "past"], 'use "upcoming" or "past"').default("upcoming"),
  host: z.union([z.literal("me"), ID], 'a staff member\'s id or "me"').optional(),
  status: z.enum(MEETING_STATUSES, `one of ${MEETING_STATUSES.join(", ")}`).optional(),
  page: z.coerce.number("a page number").int("a page number").min(1).max(1_000_000).default(1),
  pageSize: z.coerce
    .number("a whole number")
    .int("a whole number")
    .min(1, `from 1 to ${MAX_MEETINGS_PAGE_SIZE}`)
    .max(MAX_MEETINGS_PAGE_SIZE, `from 1 to ${MAX_MEETINGS_PAGE_SIZE}`)
    .default(DEFAULT_MEETINGS_PAGE_SIZE),
});

/** The list's query string as a filter (`host=me` is the user's id), or the message naming what is wrong. */
export function parseMeetingQuery(
  params: URLSearchParams,
  userId: number,
): { ok: true; filter: MeetingListFilter } | { ok: false; message: string } {
  const raw = Object.fromEntries(
    [...params].filter(([key, value]) => value !== "" && key in ListQuerySchema.shape),
  );
  const parsed = ListQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `Invalid ${String(issue?.path[0] ?? "query")}: ${issue?.message ?? "bad value"}`,
    };
  }
  const { host, ...filter } = parsed.data;
  return { ok: true, filter: { ...filter, hostId: host === "me" ? userId : host } };
}

export function parseMeetingId(raw: string | null | undefined): number | null {
  const id = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** GET /api/admin/meetings: the array of meetings, the total in X-Total-Count. */
export async function handleListMeetings(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "leads.read");
  const parsed = parseMeetingQuery(new URL(request.url).searchParams, user.id);
  if (!parsed.ok) return Response.json({ message: parsed.message }, { status: 400 });
  const services = await meetingStaffServices(context);
  const { meetings, total } = await listMeetings(services.database.db, parsed.filter, services.now());
  return Response.json(meetings, { headers: { "X-Total-Count": String(total) } });
}

const PatchSchema = z.strictObject(
  { outcome: z.enum(MEETING_OUTCOMES, MEETING_STAFF_MESSAGES.outcome) },
  MEETING_STAFF_MESSAGES.outcome,
);

/** Records `outcome` on meeting `id` as `user`; shared by the API and the page's buttons. */
export async function recordMeetingOutcome(
  context: Context,
  id: number,
  outcome: MeetingOutcome,
  user: Pick<StaffUser, "id" | "username">,
): Promise<OutcomeResult> {
  const services = await meetingStaffServices(context);
  return recordOutcome(
    services.database.db,
    { meetingId: id, outcome, actor: { id: user.id, username: user.username }, occurredAt: services.now() },
    services.onMeetingOutcome,
  );
}

/** The answer to an outcome that was not recorded: 404, or 409 with why. */
export function outcomeRefusal(result: Exclude<OutcomeResult, { kind: "recorded" }>): {
  status: number;
  message: string;
} {
  switch (result.kind) {
    case "not-found":
      return { status: 404, message: MEETING_STAFF_MESSAGES.notFound };
    case "not-started":
      return { status: 409, message: MEETING_STAFF_MESSAGES.notStarted };
    case "cancelled":
      return { status: 409, message: MEETING_STAFF_MESSAGES.cancelled };
  }
}

/** PATCH /api/admin/meetings/:id { outcome: "held" | "no_show" }: the meeting as the list shows it. */
export async function handlePatchMeeting(
  request: Request,
  context: Context,
  rawId: string | undefined,
): Promise<Response> {
  const user = await requireApiPermission(request, context, "leads.write");
  assertSameOrigin(request);
  const body = await readJsonObject(request, 1024);
  if (!body.ok) return body.response;
  const parsed = PatchSchema.safeParse(body.value);
  if (!parsed.success)
    return Response.json(
      { message: MEETING_STAFF_MESSAGES.outcome, errors: { outcome: MEETING_STAFF_MESSAGES.outcome } },
      { status: 400 },
    );
  const id = parseMeetingId(rawId);
  if (id === null) return Response.json({ message: MEETING_STAFF_MESSAGES.notFound }, { status: 404 });
  const result = await recordMeetingOutcome(context, id, parsed.data.outcome, user);
  if (result.kind === "recorded") return Response.json(result.meeting);
  const refusal = outcomeRefusal(result);
  return Response.json({ message: refusal.message }, { status: refusal.status });
}
