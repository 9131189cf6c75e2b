import { data, type RouterContextProvider, redirect } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime, formatLeadDate } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assignableStaff, ContactEditRefused, UnknownOwnerError } from "./lead-admin.server.ts";
import { leadDetail, parseListQuery, settleAttributions } from "./lead-admin-http.server.ts";
import { contactEditFromForm, parseContactEdit } from "./lead-contact-schema.ts";
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
  isOverdue,
  NextStepSchema,
  nextStepsOf,
  setNextStep,
} from "./lead-next-step.server.ts";
import { addNote, NoteBodySchema } from "./lead-notes.server.ts";
import { findLead } from "./lead-repository.server.ts";
import { leadsServices } from "./leads-context.server.ts";
import { CONFIRM_DELETE_PARAM } from "./ui/delete-lead.tsx";
import { formatDay } from "./ui/lead-age.ts";
import {
  AT_PARAM,
  backToList,
  DEFAULT_PAGE_SIZE,
  FROM_PARAM,
  leadHref,
  parseFrom,
} from "./ui/lead-list-url.ts";

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
  user: Actor,
) {
  const id = parseLeadId(rawId);
  if (id === null) throw notFound();
  const services = await leadsServices(context);
  const { database } = services;
  await settleAttributions(services);
  const [detail, staff, nextSteps] = await Promise.all([
    leadDetail(database.db, id),
    assignableStaff(database.db),
    nextStepsOf(database.db, [id]),
  ]);
  if (!detail) throw notFound();
  const step = nextSteps.get(id);
  const url = new URL(request.url);
  const list = await listPlace(database.db, url, detail, user);
  const { history: _history, notes: _notes, timeline, otherSubmissions, ...lead } = detail;
  return {
    // A lead's dates as SPEC section 9 writes them, as the list does.
    lead: { ...lead, created: formatLeadDate(lead.createdAt), updated: formatLeadDate(lead.updatedAt) },
    owner: staff.find((member) => member.id === lead.ownerId) ?? null,
    nextStep: step
      ? { body: step.body, dueOn: step.dueOn, due: formatDay(step.dueOn), overdue: isOverdue(step.dueOn) }
      : null,
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
 * (`ownerId`, empty for unassigned), `spam` (`value` true or false), `note` (`body`), `next-step` (`body`, `dueOn`), `next-step-clear`
 * `details` (the contact fields: fullName, email, company, phone, message; an investor's types
 * and otherDetails) or `delete`.
 */
export async function leadDetailAction(
  request: Request,
  context: Context,
  rawId: string | undefined,
  user: Actor,
) {
  const id = parseLeadId(rawId);
  const form = await readForm(request);
  const { database, leadAdmin } = await leadsServices(context);
  // Back to the page as it was opened (its list, its place), without a one-off step it showed.
  const url = new URL(request.url);
  for (const param of [EDIT_PARAM, CONFIRM_DELETE_PARAM, "notice", "index"]) url.searchParams.delete(param);
  const here = url.pathname + url.search;
  const done = (notice: Notice) => redirect(withNotice(here, notice));
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
      const parsed = parseContactEdit(current.requestType, values);
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
      if (id === null || !(await setNextStep(database.db, id, parsed.data, user))) throw notFound();
      throw done("next-step");
    }
    case "next-step-clear": {
      if (id === null || !(await clearNextStep(database.db, id, user))) throw notFound();
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
    default:
      return data({ message: "Unknown action." }, { status: 400 });
  }
}
