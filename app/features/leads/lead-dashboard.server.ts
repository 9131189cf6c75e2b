import type { Kysely } from "kysely";
import { data, type RouterContextProvider, redirect } from "react-router";
import type { Database } from "#app/db/schema.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { channelSlug } from "#app/lib/attribution.ts";
import { formatLeadDate } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { leadOriginLabel } from "#app/lib/lead-origin.ts";
import {
  assignableStaff,
  type BulkAction,
  type LeadListQuery,
  listLeads,
  UnknownOwnerError,
} from "./lead-admin.server.ts";
import { parseBulk, parseListQuery, settleAttributions } from "./lead-admin-http.server.ts";
import type { Actor } from "./lead-events.server.ts";
import { changeStatusFromForm, parseLeadId, readNotice, withNotice } from "./lead-forms.server.ts";
import { isTaskOverdue, nextStepsOf } from "./lead-next-step.server.ts";
import { leadsServices, timeZoneOf } from "./leads-context.server.ts";
import { isPageSize, listPageSizeOf, rememberListPageSize } from "./list-preferences.server.ts";
import {
  deleteView,
  listSavedViews,
  SavedViewSchema,
  saveView,
  TooManyViewsError,
} from "./saved-views.server.ts";
import { formatAge } from "./ui/lead-age.ts";
import { DEFAULT_PAGE_SIZE, type ListView, listHref } from "./ui/lead-list-url.ts";
import { formatDue } from "./ui/task-format.ts";

// The /admin/dashboard page's server side (SPEC section 2, grown into the sales team's workspace in
// issue 10): the view read from the URL, one page of leads with the summary and the staff to assign,
// and the forms it posts without JavaScript.

type Context = Readonly<RouterContextProvider>;

/**
 * The dashboard's data for the view in `request`'s URL. Throws a redirect for a hand-edited query
 * or a page past the end; answers 503 with an empty page when the database cannot be read.
 */
export async function loadLeadDashboard(request: Request, context: Context, user: Actor) {
  const url = new URL(request.url);
  // Rows per page (issue 35): the URL's when it names one, else the person's own choice, else 10.
  const chosenSize = await listPageSizeOf((await leadsServices(context)).database.db, user.id).catch(
    () => null,
  );
  const parsed = parseListQuery(url, { pageSize: chosenSize ?? DEFAULT_PAGE_SIZE, userId: user.id });
  // A hand-edited query (page=abc, status=bogus): start again from the unfiltered first page.
  if (!parsed.ok) throw redirect(DASHBOARD_PATH);
  const query = parsed.query;
  const pageSize = isPageSize(query.pageSize) ? query.pageSize : DEFAULT_PAGE_SIZE;
  const view: ListView = { ...listViewOf(url, query), pageSize };
  const base = {
    username: user.username,
    /** Said on the Spam view: held spam is deleted after this many days (SPAM_RETENTION_DAYS). */
    spamRetentionDays: (await leadsServices(context)).env.SPAM_RETENTION_DAYS,
    userId: user.id,
    view,
    page: query.page,
    pageSize,
    notice: readNotice(url),
  };

  try {
    const services = await leadsServices(context);
    const { database, leadSummary } = services;
    // Started, not waited for: a list must not queue behind settling writes while leads pour in
    // (bench:admin: p95 12 → 160 ms). A lead still pending shows as such for a second or two; its
    // own page waits for it.
    void settleAttributions(services);
    const [result, summary, staff, savedViews] = await Promise.all([
      listLeads(database.db, { ...query, ids: undefined, pageSize }),
      leadSummary.get(),
      assignableStaff(database.db),
      listSavedViews(database.db, user),
    ]);
    // What each row shows beside the list item (issue 23), read for this page's leads only.
    const pageIds = result.leads.map((lead) => lead.id);
    const zone = await timeZoneOf(services, user.id);
    const [sources, nextSteps] = await Promise.all([
      sourcesOf(database.db, pageIds),
      nextStepsOf(database.db, pageIds, zone),
    ]);
    const now = new Date();
    const pageCount = Math.ceil(result.total / pageSize);
    // Past the end (the last lead of a page was just erased, an old bookmark): show the last page.
    if (result.total > 0 && query.page > pageCount) throw redirect(listHref(DASHBOARD_PATH, view, pageCount));
    return {
      ...base,
      loadError: false,
      summary,
      staff,
      savedViews,
      total: result.total,
      pageCount,
      leads: result.leads.map((lead) => ({
        id: lead.id,
        fullName: lead.fullName,
        company: lead.company,
        email: lead.email,
        phone: lead.phone,
        type: lead.type,
        status: lead.status,
        ownerId: lead.ownerId,
        ownerName: lead.ownerName,
        ownerDisabled: lead.ownerDisabled,
        returning: lead.returning,
        spamLevel: lead.spamLevel,
        spamReasons: lead.spamReasons,
        // Formatted here so the browser hydrates exactly the server's text; the day and the time
        // go on two lines in the table, the age beside them (issue 32).
        ...splitDate(formatLeadDate(lead.createdAt)),
        createdAt: lead.createdAt,
        created: formatLeadDate(lead.createdAt),
        age: formatAge(lead.createdAt, now),
        // How it came in (issue 32); the analytics channel only for a lead that came through the site.
        source: leadOriginLabel(lead.origin, lead.source),
        channel:
          lead.origin === "website"
            ? (sources.get(lead.id) ?? { pending: false, channel: null, campaign: null })
            : null,
        nextStep: nextStepView(nextSteps.get(lead.id), now, zone),
      })),
    };
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("Admin dashboard: loading leads failed", error);
    return data(
      {
        ...base,
        loadError: true,
        summary: null,
        staff: [],
        savedViews: [],
        total: 0,
        pageCount: 0,
        leads: [],
      },
      { status: 503 },
    );
  }
}

/** The view as the page's links rebuild it: the URL's filters and sort as parsed, defaults left out. */
export function listViewOf(url: URL, query: LeadListQuery): ListView {
  return {
    status: query.status,
    q: query.q || undefined,
    spam: query.spam,
    owner: url.searchParams.get("owner") || undefined,
    type: query.type,
    from: query.from,
    to: query.to,
    channel: query.channel ? channelSlug(query.channel) : undefined,
    campaign: query.campaign,
    sort: query.sort,
    order: query.order,
  };
}

/** The analytics channel and campaign of each lead, or pending while its visit is being linked. */
async function sourcesOf(db: Kysely<Database>, leadIds: number[]) {
  const sources = new Map<number, { pending: boolean; channel: string | null; campaign: string | null }>();
  if (leadIds.length === 0) return sources;
  const rows = await db
    .selectFrom("leadAttributions")
    .select(["leadId", "status", "channel", "utmCampaign"])
    .where("leadId", "in", leadIds)
    .execute();
  for (const row of rows)
    sources.set(Number(row.leadId), {
      pending: row.status === "pending",
      channel: row.status === "pending" ? null : row.channel,
      campaign: row.utmCampaign,
    });
  return sources;
}

export function nextStepView(
  step: { body: string; dueOn: string; dueAt: string } | undefined,
  now: Date,
  zone: string,
) {
  if (!step) return null;
  return {
    body: step.body,
    dueOn: step.dueOn,
    due: formatDue(step.dueAt, zone, now),
    overdue: isTaskOverdue(step.dueAt, now),
  };
}

/** "Nov 21, 2026, 10:05 AM" as its day ("Nov 21, 2026,") and its time, for two lines in the table. */
function splitDate(formatted: string): { createdDay: string; createdTime: string } {
  const cut = formatted.lastIndexOf(", ");
  return cut < 0
    ? { createdDay: formatted, createdTime: "" }
    : { createdDay: formatted.slice(0, cut + 1), createdTime: formatted.slice(cut + 2) };
}

/** `bulk` values as the form's one select sends them: `status:new`, `owner:7`, `owner:none`, `spam:true`. */
function bulkFromForm(form: URLSearchParams) {
  const [action, raw = ""] = (form.get("do") ?? "").split(":");
  const value =
    action === "spam" ? raw === "true" : action === "owner" ? (raw === "none" ? null : Number(raw)) : raw;
  return parseBulk({ ids: form.getAll("ids").map(Number), action, value });
}

/**
 * The forms without JavaScript: `intent=status` (`id`, `status`), `intent=spam` (`id`, `value`), and
 * `intent=bulk` (`ids`, `do`). Each redirects back to the same view with a notice.
 */
export async function leadDashboardAction(request: Request, context: Context, user: Actor) {
  const form = await readForm(request);
  const { leadAdmin } = await leadsServices(context);
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  switch (form.get("intent")) {
    case "status": {
      const outcome = await changeStatusFromForm(leadAdmin, parseLeadId(form.get("id")), form, user);
      if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
      throw redirect(withNotice(back, "updated"));
    }
    case "spam": {
      const id = parseLeadId(form.get("id"));
      const lead = id === null ? undefined : await leadAdmin.setSpam(id, form.get("value") === "true", user);
      if (!lead) return data({ message: "Lead not found." }, { status: 404 });
      throw redirect(withNotice(back, lead.isSpam ? "spam" : "not-spam"));
    }
    case "owner": {
      const id = parseLeadId(form.get("id"));
      const raw = form.get("ownerId") ?? "";
      const ownerId = raw === "" ? null : Number(raw);
      if (id === null || (ownerId !== null && (!Number.isSafeInteger(ownerId) || ownerId < 1)))
        return data({ message: "Choose a staff member or Unassigned." }, { status: 400 });
      try {
        if (!(await leadAdmin.setOwner(id, ownerId, user)))
          return data({ message: "Lead not found." }, { status: 404 });
      } catch (error) {
        if (error instanceof UnknownOwnerError) return data({ message: error.message }, { status: 400 });
        throw error;
      }
      throw redirect(withNotice(back, "owner"));
    }
    case "page-size": {
      // Rows per page, kept for the person (issue 35); back to the first page of the view at that size.
      const size = Number(form.get("pageSize"));
      if (!isPageSize(size))
        return data({ message: "Choose 10, 25, 50 or 100 leads a page." }, { status: 400 });
      const { database } = await leadsServices(context);
      await rememberListPageSize(database.db, user.id, size);
      const parsed = parseListQuery(url, { userId: user.id });
      const view = parsed.ok ? listViewOf(url, parsed.query) : {};
      throw redirect(listHref(DASHBOARD_PATH, { ...view, pageSize: size }));
    }
    case "save-view": {
      const parsed = SavedViewSchema.safeParse({
        name: form.get("name") ?? "",
        scope: form.get("scope") ?? "",
        query: url.search.slice(1),
      });
      if (!parsed.success)
        return data(
          { message: parsed.error.issues[0]?.message ?? "The view could not be saved." },
          { status: 400 },
        );
      const { database } = await leadsServices(context);
      try {
        await saveView(database.db, user, parsed.data);
      } catch (error) {
        if (error instanceof TooManyViewsError) return data({ message: error.message }, { status: 400 });
        throw error;
      }
      throw redirect(withNotice(back, "view-saved"));
    }
    case "delete-view": {
      const id = parseLeadId(form.get("viewId"));
      const { database } = await leadsServices(context);
      if (id === null || !(await deleteView(database.db, user, id)))
        return data({ message: "There is no such view of yours." }, { status: 404 });
      throw redirect(withNotice(back, "view-deleted"));
    }
    case "bulk": {
      // No action is preselected (issue 35): an Apply without one is refused, saying what to do.
      if (!form.get("do"))
        return data({ message: "Choose an action for the selected leads." }, { status: 400 });
      const parsed = bulkFromForm(form);
      if (!parsed.ok) return data({ message: parsed.message }, { status: 400 });
      const { ids, action: kind, value } = parsed.bulk;
      try {
        await leadAdmin.bulk(ids, { action: kind, value } as BulkAction, user);
      } catch (error) {
        if (error instanceof UnknownOwnerError) return data({ message: error.message }, { status: 400 });
        throw error;
      }
      throw redirect(withNotice(back, "bulk"));
    }
    default:
      return data({ message: "Unknown action." }, { status: 400 });
  }
}
