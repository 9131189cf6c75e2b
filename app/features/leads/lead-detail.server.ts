import { data, type RouterContextProvider, redirect } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime, formatLeadDate } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { dateIn, parseDate, toInstant } from "#app/lib/time-zones.ts";
import {
  type ActivityInput,
  ActivityInputSchema,
  addActivity,
  mayChangeTask,
  type TaskEditor,
  TaskNotYoursError,
  UnknownAssigneeError,
} from "./lead-activities.server.ts";
import { assignableStaff, ContactEditRefused, UnknownOwnerError } from "./lead-admin.server.ts";
import { leadDetail, parseListQuery, settleAttributions } from "./lead-admin-http.server.ts";
import {
  CONTACT_WAS_FIELD,
  changedContactFields,
  contactEditFromForm,
  parseContactEdit,
  parseContactWas,
} from "./lead-contact-schema.ts";
import type { Actor } from "./lead-events.server.ts";
import {
  changeStatusFromForm,
  deleteFromForm,
  type Notice,
  parseLeadId,
  readNotice,
  withNotice,
} from "./lead-forms.server.ts";
import { leadNeighbours } from "./lead-neighbours.server.ts";
import {
  clearNextStep,
  isTaskOverdue,
  NextStepSchema,
  nextStepsOf,
  setNextStep,
} from "./lead-next-step.server.ts";
import { addNote, NoteBodySchema } from "./lead-notes.server.ts";
import { findLead } from "./lead-repository.server.ts";
import { leadsServices, timeZoneOf } from "./leads-context.server.ts";
import { ACTIVITY_KINDS, type ActivityKind, COMPOSER_PARAM } from "./ui/activity-words.ts";
import { CONFIRM_DELETE_PARAM } from "./ui/delete-lead.tsx";
import { formatDay } from "./ui/lead-age.ts";
import type { ComposerError } from "./ui/lead-composer.tsx";
import {
  AT_PARAM,
  backToList,
  DEFAULT_PAGE_SIZE,
  FROM_PARAM,
  leadHref,
  parseFrom,
} from "./ui/lead-list-url.ts";
import { formatDue } from "./ui/task-format.ts";

/** `?edit=details`: the Details card as a form (the page without JavaScript; the script edits in place). */
export const EDIT_PARAM = "edit";

// The /admin/leads/:id page's server side: one lead as sales work it, with its owner, timeline and
// the person's other submissions, and the forms it posts (with or without JavaScript).

type Context = Readonly<RouterContextProvider>;

const notFound = () => data("Lead not found", { status: 404 });

/** The lead `rawId` names, its dates formatted for the page; throws a 404 when there is none. */
export async function loadLeadDetail(
  request: Request,
  context: Context,
  rawId: string | undefined,
  user: TaskEditor,
) {
  const id = parseLeadId(rawId);
  if (id === null) throw notFound();
  const services = await leadsServices(context);
  const { database } = services;
  await settleAttributions(services);
  const zone = await timeZoneOf(services, user.id);
  const [detail, staff, nextSteps] = await Promise.all([
    leadDetail(database.db, id),
    assignableStaff(database.db),
    nextStepsOf(database.db, [id], zone),
  ]);
  if (!detail) throw notFound();
  const step = nextSteps.get(id);
  const url = new URL(request.url);
  const list = await listPlace(database.db, url, detail, user);
  const now = new Date();
  const composer = url.searchParams.get(COMPOSER_PARAM) ?? "";
  const { history: _history, notes: _notes, timeline, otherSubmissions, ...lead } = detail;
  return {
    // A lead's dates as SPEC section 9 writes them, as the list does.
    lead: { ...lead, created: formatLeadDate(lead.createdAt), updated: formatLeadDate(lead.updatedAt) },
    owner: staff.find((member) => member.id === lead.ownerId) ?? null,
    nextStep: step
      ? {
          taskId: step.taskId,
          body: step.body,
          dueOn: step.dueOn,
          due: formatDay(step.dueOn),
          dueText: formatDue(step.dueAt, zone, now),
          overdue: isTaskOverdue(step.dueAt, now),
          assignee: step.assignee,
          // The Work card offers "Save next step" and "Mark done" only to whoever may change the
          // task (the action checks again): someone else's shows whose it is instead.
          mayChange: mayChangeTask(user, step),
        }
      : null,
    me: user.id,
    zone,
    today: dateIn(now.getTime(), zone),
    composer: ((ACTIVITY_KINDS as readonly string[]).includes(composer) ? composer : "note") as ActivityKind,
    staff,
    timeline: timeline.map((entry) => ({ ...entry, when: formatDateTime(entry.at) })),
    otherSubmissions: otherSubmissions.map((other) => ({
      ...other,
      created: formatLeadDate(other.createdAt),
    })),
    confirmDelete: url.searchParams.has(CONFIRM_DELETE_PARAM),
    editing: url.searchParams.get(EDIT_PARAM) === "details",
    notice: readNotice(url),
    list,
  };
}

/**
 * Where the lead sits in the list it was opened from (`?from=` the list's URL, `&at=` its place):
 * the way back to that list on the page holding the lead, and its previous and next lead there.
 * Without `from` (a link from elsewhere): the way back to the lead list as it opens.
 */
async function listPlace(
  db: Parameters<typeof leadNeighbours>[0],
  url: URL,
  lead: Parameters<typeof leadNeighbours>[2],
  user: Actor,
) {
  const from = parseFrom(url.searchParams.get(FROM_PARAM));
  const atRaw = Number(url.searchParams.get(AT_PARAM));
  const at = Number.isSafeInteger(atRaw) && atRaw > 0 && atRaw <= 10_000_000 ? atRaw : null;
  if (!from) return { back: DASHBOARD_PATH, previous: null, next: null, position: null, total: null };
  const parsed = parseListQuery(from, { pageSize: DEFAULT_PAGE_SIZE, userId: user.id });
  if (!parsed.ok) return { back: DASHBOARD_PATH, previous: null, next: null, position: null, total: null };
  const { page: _page, pageSize: _size, ids: _ids, ...query } = parsed.query;
  const { previous, next, total } = await leadNeighbours(db, query, lead);
  const fromText = from.pathname + from.search;
  // A stale place (the list changed since) is not shown; the neighbours are still right.
  const position = at !== null && at <= total ? at : null;
  return {
    back: backToList(from, position),
    previous:
      previous === null
        ? null
        : leadHref(previous, { from: fromText, at: position !== null ? position - 1 : undefined }),
    next:
      next === null
        ? null
        : leadHref(next, { from: fromText, at: position !== null ? position + 1 : undefined }),
    position,
    total,
  };
}

/**
 * Without JavaScript (and with it, through React Router's forms): `intent` is `status`, `owner`
 * (`ownerId`, empty for unassigned), `spam` (`value` true or false), `note` (`body`), `next-step` (`body`, `dueOn`), `next-step-clear` (marks it done),
 * `details` (the contact fields: fullName, email, company, phone, message; an investor's types
 * and otherDetails) or `delete`.
 */
export async function leadDetailAction(
  request: Request,
  context: Context,
  rawId: string | undefined,
  user: TaskEditor,
) {
  const id = parseLeadId(rawId);
  const form = await readForm(request);
  const services = await leadsServices(context);
  const { database, leadAdmin } = services;
  // Back to the page as it was opened (its list, its place), without a one-off step it showed.
  const url = new URL(request.url);
  for (const param of [EDIT_PARAM, CONFIRM_DELETE_PARAM, COMPOSER_PARAM, "notice", "index"])
    url.searchParams.delete(param);
  const here = url.pathname + url.search;
  const done = (notice: Notice) => redirect(withNotice(here, notice));
  // The lead's next step is someone else's task: shown under it, nothing changed.
  const notYours = (error: TaskNotYoursError) =>
    data({ message: error.message, field: "next-step" }, { status: 403 });
  switch (form.get("intent")) {
    case "delete": {
      const outcome = await deleteFromForm(leadAdmin, id, user, context.get(clientAddressContext));
      if (!outcome.ok) throw data(outcome.message, { status: outcome.status });
      const from = parseFrom(url.searchParams.get(FROM_PARAM));
      throw redirect(withNotice(from ? backToList(from, null) : DASHBOARD_PATH, "deleted"));
    }
    case "details": {
      const current = id === null ? undefined : await findLead(database.db, id);
      if (!current || id === null) throw notFound();
      const values = contactEditFromForm(current.requestType, form);
      // Only the fields this person changed: someone else's correction since the form opened stays.
      const changed = changedContactFields(values, parseContactWas(form.get(CONTACT_WAS_FIELD)));
      const parsed = parseContactEdit(current.requestType, changed);
      const refused = (errors: Record<string, string | undefined>) =>
        data(
          { message: "Please check the highlighted fields.", field: "details", errors, values },
          { status: 400 },
        );
      if (!parsed.success) return refused(parsed.errors);
      try {
        if (!(await leadAdmin.editContact(id, parsed.data, user))) throw notFound();
      } catch (error) {
        if (error instanceof ContactEditRefused) return refused({ [error.field]: error.message });
        throw error;
      }
      throw done("details");
    }
    case "status": {
      const outcome = await changeStatusFromForm(leadAdmin, id, form, user);
      if (!outcome.ok) {
        if (outcome.status === 404) throw notFound();
        return data({ message: outcome.message, field: "status" }, { status: outcome.status });
      }
      throw done("updated");
    }
    case "owner": {
      const raw = form.get("ownerId") ?? "";
      const ownerId = raw === "" ? null : Number(raw);
      if (ownerId !== null && (!Number.isSafeInteger(ownerId) || ownerId < 1))
        return data({ message: "Choose a staff member or Unassigned.", field: "owner" }, { status: 400 });
      try {
        if (id === null || !(await leadAdmin.setOwner(id, ownerId, user))) throw notFound();
      } catch (error) {
        if (error instanceof UnknownOwnerError)
          return data({ message: error.message, field: "owner" }, { status: 400 });
        throw error;
      }
      throw done("owner");
    }
    case "next-step": {
      const parsed = NextStepSchema.safeParse({
        body: form.get("body") ?? "",
        dueOn: form.get("dueOn") ?? "",
      });
      if (!parsed.success)
        return data(
          { message: parsed.error.issues[0]?.message ?? "Invalid next step.", field: "next-step" },
          { status: 400 },
        );
      const zone = await timeZoneOf(services, user.id);
      try {
        if (id === null || !(await setNextStep(database.db, id, parsed.data, user, new Date(), zone)))
          throw notFound();
      } catch (error) {
        if (error instanceof TaskNotYoursError) return notYours(error);
        throw error;
      }
      throw done("next-step");
    }
    case "next-step-clear": {
      try {
        if (id === null || !(await clearNextStep(database.db, id, user))) throw notFound();
      } catch (error) {
        if (error instanceof TaskNotYoursError) return notYours(error);
        throw error;
      }
      throw done("next-step-cleared");
    }
    case "spam": {
      const spam = form.get("value") === "true";
      if (id === null || !(await leadAdmin.setSpam(id, spam, user))) throw notFound();
      throw done(spam ? "spam" : "not-spam");
    }
    case "note": {
      const parsed = NoteBodySchema.safeParse(form.get("body") ?? "");
      if (!parsed.success)
        return data(
          {
            message: parsed.error.issues[0]?.message ?? "Invalid note.",
            field: "note",
            body: form.get("body") ?? "",
          },
          { status: 400 },
        );
      if (id === null || !(await addNote(database.db, id, parsed.data, user))) throw notFound();
      throw done("note");
    }
    case "activity": {
      const kind = form.get("kind") ?? "";
      const values = Object.fromEntries(
        ["body", "outcome", "durationMinutes", "direction", "dueDate", "dueTime", "assigneeId"].map((key) => [
          key,
          (form.get(key) ?? "").slice(0, 10_000),
        ]),
      );
      const refuse = (message: string) =>
        data(
          {
            message,
            field: "composer",
            composer: {
              kind: (ACTIVITY_KINDS as readonly string[]).includes(kind) ? kind : "note",
              message,
              values,
            } as ComposerError,
          },
          { status: 400 },
        );
      const input = activityFromForm(kind, values, await timeZoneOf(services, user.id));
      if (typeof input === "string") return refuse(input);
      if (input.kind === "note") return refuse("Unknown activity.");
      try {
        if (id === null || !(await addActivity(database.db, id, input, user))) throw notFound();
      } catch (error) {
        if (error instanceof UnknownAssigneeError) return refuse(error.message);
        throw error;
      }
      // Back on the same tab, so the next call or task is one step away.
      const again = new URL(here, "http://admin.invalid");
      again.searchParams.set(COMPOSER_PARAM, input.kind);
      throw redirect(withNotice(again.pathname + again.search, input.kind));
    }
    default:
      return data({ message: "Unknown action." }, { status: 400 });
  }
}

/**
 * The composer's fields as the API's input, a task's date and time read in the person's `zone`;
 * the message to show when they do not make one.
 */
export function activityFromForm(
  kind: string,
  values: Record<string, string>,
  zone: string,
): ActivityInput | string {
  let candidate: Record<string, unknown>;
  switch (kind) {
    case "call": {
      const minutes = (values.durationMinutes ?? "").trim();
      candidate = {
        kind,
        body: values.body ?? "",
        outcome: values.outcome,
        durationMinutes: minutes === "" ? undefined : Number(minutes),
      };
      break;
    }
    case "email":
      candidate = { kind, body: values.body ?? "", direction: values.direction || undefined };
      break;
    case "task": {
      const day = parseDate(values.dueDate ?? "");
      const time = /^(\d{2}):(\d{2})$/.exec(values.dueTime ?? "");
      if (!day) return "Choose the day the task is due.";
      if (!time || Number(time[1]) > 23 || Number(time[2]) > 59) return "Choose the time the task is due.";
      const instant = toInstant({ ...day, hour: Number(time[1]), minute: Number(time[2]) }, zone);
      if (instant === null)
        return "That time does not exist on that day (the clocks go forward): choose another.";
      const assignee = Number(values.assigneeId);
      candidate = {
        kind,
        body: values.body ?? "",
        dueAt: new Date(instant).toISOString(),
        assigneeId: values.assigneeId ? assignee : undefined,
      };
      break;
    }
    default:
      return "Choose a note, a call, an e-mail or a task.";
  }
  const parsed = ActivityInputSchema.safeParse(candidate);
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? "Invalid activity.");
}
