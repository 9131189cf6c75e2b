import { data, type RouterContextProvider, redirect } from "react-router";
import { readForm } from "#app/lib/http.server.ts";
import type { StaffUser } from "#app/lib/staff-guard.server.ts";
import { listMeetings, MEETING_OUTCOMES, type MeetingOutcome, meetingHosts } from "./meeting-staff.server.ts";
import { meetingStaffServices } from "./meeting-staff-context.server.ts";
import {
  MEETING_STAFF_MESSAGES,
  outcomeRefusal,
  parseMeetingId,
  parseMeetingQuery,
  recordMeetingOutcome,
} from "./meeting-staff-http.server.ts";

// /admin/meetings (issue 34): the page's loader and its one form, the outcome buttons. Plain GET
// links and forms: it works without JavaScript. Times are the back office's (UK time).

type Context = Readonly<RouterContextProvider>;

export const MEETINGS_PATH = "/admin/meetings";
const PAGE_SIZE = 25;
/** The list's own parameters: what a redirect after an outcome keeps. */
const LIST_PARAMS = ["when", "host", "status", "page"] as const;

export const OUTCOME_NOTICES: Record<MeetingOutcome, string> = {
  held: "Recorded as held.",
  no_show: "Recorded as a no-show.",
};

export async function loadMeetingsPage(request: Request, context: Context, user: StaffUser) {
  const params = new URL(request.url).searchParams;
  const services = await meetingStaffServices(context);
  const hosts = await meetingHosts(services.database.db);
  const notice = params.get("notice");
  const view = {
    when: params.get("when") === "past" ? ("past" as const) : ("upcoming" as const),
    host: params.get("host") ?? "",
    status: params.get("status") ?? "",
  };
  const parsed = parseMeetingQuery(
    new URLSearchParams([...params, ["pageSize", String(PAGE_SIZE)]]),
    user.id,
  );
  if (!parsed.ok) {
    return data(
      { view, hosts, error: parsed.message, meetings: [], total: 0, page: 1, pageCount: 0, notice: null },
      { status: 400 },
    );
  }
  const now = services.now();
  const { meetings, total } = await listMeetings(services.database.db, parsed.filter, now);
  return {
    view,
    hosts,
    error: null,
    meetings: meetings.map((meeting) => ({
      ...meeting,
      // An outcome is for a meeting that has started and was neither cancelled nor judged yet.
      awaitsOutcome: meeting.status === "booked" && Date.parse(meeting.start) <= now,
    })),
    total,
    page: parsed.filter.page,
    pageCount: Math.ceil(total / PAGE_SIZE),
    notice: notice === "held" || notice === "no_show" ? OUTCOME_NOTICES[notice] : null,
  };
}

/** The list's address with only its own parameters from `back` (a query string the form carried). */
function listHref(back: string | null, notice?: MeetingOutcome): string {
  const from = new URLSearchParams(back ?? "");
  const kept = new URLSearchParams();
  for (const key of LIST_PARAMS) {
    const value = from.get(key);
    if (value && value.length <= 40) kept.set(key, value);
  }
  if (notice) kept.set("notice", notice);
  const query = kept.toString();
  return query ? `${MEETINGS_PATH}?${query}` : MEETINGS_PATH;
}

/** "Held" / "No-show": records the outcome and goes back to the list where it was. */
export async function meetingsPageAction(request: Request, context: Context, user: StaffUser) {
  const form = await readForm(request);
  if (form.get("intent") !== "outcome") return data({ error: "Unknown action." }, { status: 400 });
  const outcome = form.get("outcome");
  if (!MEETING_OUTCOMES.includes(outcome as MeetingOutcome))
    return data({ error: MEETING_STAFF_MESSAGES.outcome }, { status: 400 });
  const id = parseMeetingId(form.get("id"));
  if (id === null) return data({ error: MEETING_STAFF_MESSAGES.notFound }, { status: 404 });
  const result = await recordMeetingOutcome(context, id, outcome as MeetingOutcome, user);
  if (result.kind !== "recorded") {
    const refusal = outcomeRefusal(result);
    return data({ error: refusal.message }, { status: refusal.status });
  }
  throw redirect(listHref(form.get("back"), outcome as MeetingOutcome));
}
